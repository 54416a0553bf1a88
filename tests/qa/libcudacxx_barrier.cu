// libcu++ synchronisation in shared memory, as modern kernels write it: a
// cuda::barrier<thread_scope_block> initialised by one thread (placement
// into __shared__ storage), arrive_and_wait between phases of a shared
// stencil, and cuda::atomic_ref on a shared counter.
#include "qa.h"
#include <cuda/barrier>
#include <cuda/atomic>

__global__ void phases(const int *in, int *out, int rounds)
{
  using barrier_t = cuda::barrier<cuda::thread_scope_block>;
  __shared__ barrier_t bar;
  __shared__ int buf[2][128];
  __shared__ int count;
  int t = threadIdx.x;
  if (t == 0) { init(&bar, blockDim.x); count = 0; }
  __syncthreads();
  buf[0][t] = in[blockIdx.x * 128 + t];
  bar.arrive_and_wait();
  int p = 0;
  for (int r = 0; r < rounds; r++) {
    buf[1 - p][t] = buf[p][t] + buf[p][(t + 1) % 128];
    bar.arrive_and_wait();
    p = 1 - p;
  }
  cuda::atomic_ref<int, cuda::thread_scope_block> c(count);
  c.fetch_add(buf[p][t] & 1, cuda::memory_order_relaxed);
  bar.arrive_and_wait();
  out[blockIdx.x * 129 + t] = buf[p][t];
  if (t == 0) out[blockIdx.x * 129 + 128] = c.load(cuda::memory_order_relaxed);
}

int main()
{
  const int grid = 2, rounds = 4;
  int h[grid * 128], o[grid * 129];
  for (int i = 0; i < grid * 128; i++) h[i] = i % 10;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  phases<<<grid, 128>>>(d, dout, rounds);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; b++) {
    int cur[128], nxt[128], odd = 0;
    for (int t = 0; t < 128; t++) cur[t] = h[b * 128 + t];
    for (int r = 0; r < rounds; r++) {
      for (int t = 0; t < 128; t++) nxt[t] = cur[t] + cur[(t + 1) % 128];
      for (int t = 0; t < 128; t++) cur[t] = nxt[t];
    }
    for (int t = 0; t < 128; t++) { EXPECT_EQ("out", b * 128 + t, o[b * 129 + t], cur[t]); odd += cur[t] & 1; }
    EXPECT_EQ("count", b, o[b * 129 + 128], odd);
  }
  return qa_done("libcudacxx_barrier");
}
