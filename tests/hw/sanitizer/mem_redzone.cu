// memcheck and red zones: a write and a read one element past allocations
// of every kind (cudaMalloc, cudaMallocAsync, cudaMallocPitch,
// cudaMallocManaged, the driver's cuMemAlloc) whose sizes are multiples of
// 512 bytes, so that without padding the bad address lands in the next
// allocation; first the addresses of allocations of several sizes (the
// layout --padding changes).
#include "san.cuh"
#include <cuda.h>

__global__ void poke(int *p, int i)
{
  p[i] = i;
}

__global__ void peek(int *out, const int *p, int i)
{
  *out = p[i];
}

typedef CUresult (*mem_alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*mem_free_fn)(CUdeviceptr);

int main()
{
  static const size_t sizes[8] = {1, 256, 512, 513, 1000, 1024, 4096, 65536};
  void *s[8] = {0};
  for (int i = 0; i < 8; i++) {
    CALL(cudaMalloc(&s[i], sizes[i]));
    char name[32];
    snprintf(name, sizeof name, "s%zu", sizes[i]);
    ADDR(name, s[i]);
  }
  int *a = 0, *b = 0, *out = 0;
  CALL(cudaMalloc(&a, 512));
  CALL(cudaMalloc(&b, 512));
  CALL(cudaMalloc(&out, 512));
  ADDR("a", a);
  ADDR("b", b);
  ADDR("out", out);
  poke<<<1, 1>>>(a, 128);
  SYNC("poke a");
  peek<<<1, 1>>>(out, b, 128);
  SYNC("peek b");

  int *p1 = 0, *p2 = 0;
  CALL(cudaMallocAsync((void **)&p1, 512, 0));
  CALL(cudaMallocAsync((void **)&p2, 512, 0));
  ADDR("async1", p1);
  ADDR("async2", p2);
  poke<<<1, 1>>>(p1, 128);
  SYNC("poke async1");

  int *q = 0, *q2 = 0;
  size_t pitch = 0, pitch2 = 0;
  CALL(cudaMallocPitch((void **)&q, &pitch, 500, 2));
  CALL(cudaMallocPitch((void **)&q2, &pitch2, 500, 2));
  printf("pitch %zu\n", pitch);
  ADDR("pitch1", q);
  ADDR("pitch2", q2);
  poke<<<1, 1>>>(q, (int)(pitch * 2 / sizeof(int)));
  SYNC("poke pitch1");

  int *m = 0, *m2 = 0;
  CALL(cudaMallocManaged((void **)&m, 512));
  CALL(cudaMallocManaged((void **)&m2, 512));
  ADDR("managed1", m);
  ADDR("managed2", m2);
  poke<<<1, 1>>>(m, 128);
  SYNC("poke managed1");

  void *fa = 0, *ff = 0;
  cudaDriverEntryPointQueryResult qa, qf;
  CALL(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fa, 12000, cudaEnableDefault, &qa));
  CALL(cudaGetDriverEntryPointByVersion("cuMemFree", &ff, 12000, cudaEnableDefault, &qf));
  CUdeviceptr d1 = 0, d2 = 0;
  if (fa && ff) {
    printf("cuMemAlloc: %d\n", (int)((mem_alloc_fn)fa)(&d1, 512));
    printf("cuMemAlloc: %d\n", (int)((mem_alloc_fn)fa)(&d2, 512));
    ADDR("drv1", d1);
    ADDR("drv2", d2);
    poke<<<1, 1>>>((int *)d1, 128);
    SYNC("poke drv1");
    printf("cuMemFree: %d\n", (int)((mem_free_fn)ff)(d1));
    printf("cuMemFree: %d\n", (int)((mem_free_fn)ff)(d2));
  }
  CALL(cudaFree(m));
  CALL(cudaFree(m2));
  CALL(cudaFree(q));
  CALL(cudaFree(q2));
  CALL(cudaFreeAsync(p1, 0));
  CALL(cudaFreeAsync(p2, 0));
  CALL(cudaFree(a));
  CALL(cudaFree(b));
  CALL(cudaFree(out));
  for (int i = 0; i < 8; i++)
    CALL(cudaFree(s[i]));
  SYNC("end");
  return 0;
}
