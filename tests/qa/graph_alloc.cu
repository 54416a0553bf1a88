// Modern host code around a shared-memory kernel: the stream-ordered
// allocator (cudaMallocAsync/cudaFreeAsync), cudaMemcpyToSymbolAsync, stream
// capture into a CUDA graph (two kernels and copies), instantiated once and
// launched three times; CPU reference of three rounds.
#include "qa.h"

__constant__ int addend;

__global__ void stepA(int *p, int n)
{
  __shared__ int s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = i < n ? p[i] : 0;
  __syncthreads();
  if (i < n) p[i] = s[threadIdx.x] + s[(threadIdx.x + 1) % 128] % 7 + addend;
}

__global__ void stepB(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] % 100003;
}

int main()
{
  const int n = 1000, nb = (n + 127) / 128;
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = i * 31 % 1000;
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  int *d = 0, *hp;
  CHECK(cudaMallocHost(&hp, sizeof h));
  CHECK(cudaMallocAsync(&d, sizeof h, st));
  int add = 5;
  CHECK(cudaMemcpyToSymbolAsync(addend, &add, sizeof add, 0, cudaMemcpyHostToDevice, st));
  for (int i = 0; i < n; i++) hp[i] = h[i];
  CHECK(cudaMemcpyAsync(d, hp, sizeof h, cudaMemcpyHostToDevice, st));
  CHECK(cudaStreamSynchronize(st));

  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
  stepA<<<nb, 128, 0, st>>>(d, n);
  stepB<<<(n + 255) / 256, 256, 0, st>>>(d, n);
  CHECK(cudaStreamEndCapture(st, &g));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &nodes));
  EXPECT_EQ("graph nodes", 0, (int)nodes, 2);
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 3; r++) CHECK(cudaGraphLaunch(ge, st));
  CHECK(cudaMemcpyAsync(hp, d, sizeof o, cudaMemcpyDeviceToHost, st));
  CHECK(cudaFreeAsync(d, st));
  CHECK(cudaStreamSynchronize(st));
  for (int i = 0; i < n; i++) o[i] = hp[i];
  for (int r = 0; r < 3; r++) {
    int t[n];
    for (int i = 0; i < n; i++) {
      int b = i / 128, l = i % 128, j = b * 128 + (l + 1) % 128;
      t[i] = h[i] + (j < n ? h[j] : 0) % 7 + add;
    }
    for (int i = 0; i < n; i++) h[i] = t[i] % 100003;
  }
  for (int i = 0; i < n; i++) EXPECT_EQ("out", i, o[i], h[i]);
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(st));
  return qa_done("graph_alloc");
}
