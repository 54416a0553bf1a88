// --leak-check full and other allocations: pitched, cudaHostAlloc'd, host
// memory registered and never unregistered; four leaks in all, recorded
// with the default print limit and --print-limit 2.
#include "san.cuh"
#include <cstdlib>

int main()
{
  void *a = 0, *h = 0;
  size_t pitch = 0;
  CALL(cudaMallocPitch(&a, &pitch, 100, 3));
  CALL(cudaHostAlloc(&h, 200, cudaHostAllocDefault));
  void *reg = aligned_alloc(4096, 8192);
  CALL(cudaHostRegister(reg, 8192, cudaHostRegisterDefault));
  void *b = 0, *c = 0;
  CALL(cudaMalloc(&b, 300));
  CALL(cudaMalloc(&c, 400));
  ADDR("pitched", a);
  ADDR("hostalloc", h);
  ADDR("registered", reg);
  ADDR("b", b);
  ADDR("c", c);
  printf("pitch %zu\n", pitch);
  CALL(cudaFree(c));
  return 0;
}
