// --leak-check full: 1024 device bytes never freed, 256 freed, and
// (to see what the tool counts) unfreed managed and pinned memory.
#include "san.cuh"

__global__ void touch(char *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1;
}

int main()
{
  char *a = 0, *b = 0, *m = 0, *h = 0;
  CALL(cudaMalloc(&a, 1024));
  CALL(cudaMalloc(&b, 256));
  CALL(cudaMallocManaged(&m, 512));
  CALL(cudaMallocHost(&h, 64));
  ADDR("a", a);
  ADDR("b", b);
  ADDR("managed", m);
  ADDR("pinned", h);
  touch<<<4, 256>>>(a, 1024);
  SYNC("touch");
  CALL(cudaFree(b));
  return 0;
}
