// A multi-threaded host (a server or test harness): 4 std::threads, each
// with its own stream, allocate, copy, launch a shared-memory kernel many
// times, synchronise their stream and check; the runtime must be safe to
// call from several threads at once.
// qa-flags: -std=c++17
#include "qa.h"
#include <thread>
#include <atomic>

__global__ void blockSum(const int *in, int *out, int n)
{
  __shared__ int s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

static std::atomic<int> bad{0};

static void worker(int id)
{
  const int n = 3000 + id * 100, nb = (n + 255) / 256;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(nb * 4);
  for (int i = 0; i < n; i++) h[i] = (i * (id + 3)) % 101;
  cudaStream_t st;
  int *d, *dout;
  if (cudaStreamCreate(&st) || cudaMalloc(&d, n * 4) || cudaMalloc(&dout, nb * 4)) { bad++; return; }
  for (int rep = 0; rep < 20; rep++) {
    cudaMemcpyAsync(d, h, n * 4, cudaMemcpyHostToDevice, st);
    blockSum<<<nb, 256, 0, st>>>(d, dout, n);
    cudaMemcpyAsync(o, dout, nb * 4, cudaMemcpyDeviceToHost, st);
    if (cudaStreamSynchronize(st) != cudaSuccess) { bad++; break; }
    for (int b = 0; b < nb; b++) {
      int s = 0;
      for (int i = b * 256; i < n && i < (b + 1) * 256; i++) s += h[i];
      if (o[b] != s) { bad++; break; }
    }
    h[rep % n] += 1; /* the next round's data differs */
  }
  cudaFree(d); cudaFree(dout); cudaStreamDestroy(st);
  free(h); free(o);
}

int main()
{
  std::thread th[4];
  for (int i = 0; i < 4; i++) th[i] = std::thread(worker, i);
  for (int i = 0; i < 4; i++) th[i].join();
  EXPECT_EQ("failed rounds", 0, bad.load(), 0);
  return qa_done("host_threads");
}
