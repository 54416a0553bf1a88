struct B { __device__ virtual int f() { return 1; } };
struct D : B { __device__ int f() override { return 2; } };
struct __attribute__((packed)) P { char c; int *p; };
__device__ int g;
__device__ P pk = {'a', &g};
__global__ void k(int *o) { D d; B *b = &d; if (o[1]) b = new D(); o[0] = b->f() + (pk.p != 0); }
#include <cuda/barrier>
__global__ void tma(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  out[0] = __reduce_add_sync(0xffffffff, threadIdx.x);
}
