// Device-side malloc/free with the pointer broadcast through shared memory
// (thread 0 allocates a block-wide scratch buffer), cudaDeviceSetLimit for
// the heap, and per-thread malloc in a loop; CPU reference.
#include "qa.h"

__global__ void scratch(const int *in, int *out, int n)
{
  __shared__ int *buf;
  int t = threadIdx.x;
  if (t == 0) buf = (int *)malloc(blockDim.x * 2 * sizeof(int));
  __syncthreads();
  if (!buf) { if (t == 0) out[blockIdx.x * blockDim.x] = -1; return; }
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0;
  buf[blockDim.x + t] = t;
  __syncthreads();
  int *mine = (int *)malloc(4 * sizeof(int)); /* per-thread, freed below */
  int v = buf[blockDim.x - 1 - t] * 2 + buf[blockDim.x + t];
  if (mine) { mine[3] = v; v = mine[3]; free(mine); } else v = -2;
  if (i < n) out[i] = v;
  __syncthreads();
  if (t == 0) free(buf);
}

int main()
{
  const int n = 1000, bs = 128, nb = (n + bs - 1) / bs;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
  size_t heap = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT_EQ("heap", 0, heap >= (size_t)(16 << 20), 1);
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = i % 37;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  scratch<<<nb, bs>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = i / bs, t = i % bs, j = b * bs + bs - 1 - t;
    EXPECT_EQ("out", i, o[i], (j < n ? h[j] : 0) * 2 + t);
  }
  return qa_done("device_malloc");
}
