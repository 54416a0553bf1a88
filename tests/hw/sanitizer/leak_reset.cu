// --leak-check full with cudaDeviceReset at the end: the reset frees what
// the program did not (is anything reported?).
#include "san.cuh"

int main()
{
  char *a = 0, *b = 0;
  CALL(cudaMalloc(&a, 1024));
  CALL(cudaMalloc(&b, 4096));
  ADDR("a", a);
  ADDR("b", b);
  CALL(cudaMemset(a, 0, 1024));
  CALL(cudaFree(b));
  CALL(cudaDeviceReset());
  return 0;
}
