/* race_barrier.cu: an intentional race: a block reverses an array through
 * shared memory but the barrier between the stores and the loads is
 * missing, so a thread may read an element another warp has not yet
 * written (read-after-write hazard between warps). The result depends on
 * timing, so the program prints only what does not: the data checksum. */
#include "prog.h"

#define N 256

__global__ void reverseNoSync(const int *in, int *out)
{
  __shared__ int s[N];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  /* __syncthreads() missing here */
  out[blockIdx.x * N + t] = s[N - 1 - t];
}

int main()
{
  const int blocks = 4, n = blocks * N;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = i * 7 + 1;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  reverseNoSync<<<blocks, N>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  /* the reversed values are not checked: the race makes them timing-dependent */
  return result("race_barrier", 0, "racy by design, input hash %08x", fnv(h, n));
}
