// --leak-check full: two leaks of 1000 and 3 bytes (odd sizes: the report
// gives the requested size, not the rounded one) and a memcheck error in the
// same run (both counted in ERROR SUMMARY?).
#include "san.cuh"

__global__ void overrun(char *p, int n)
{
  if (threadIdx.x == 0)
    p[n] = 1;
}

int main()
{
  char *a = 0, *b = 0;
  CALL(cudaMalloc(&a, 1000));
  CALL(cudaMalloc(&b, 3));
  ADDR("a", a);
  ADDR("b", b);
  overrun<<<1, 32>>>(b, 3);
  SYNC("overrun");
  return 0;
}
