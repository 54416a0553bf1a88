// A CI user's pipeline: pinned host memory, 4 streams each copying a chunk
// in, transposing it through a padded shared tile, copying out; events
// timed and a cross-stream cudaStreamWaitEvent; callbacks via
// cudaLaunchHostFunc; results against the CPU transpose.
#include "qa.h"

#define T 32
__global__ void transpose(const float *in, float *out, int w, int h)
{
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += blockDim.y)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += blockDim.y)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void addOne(float *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1.f;
}

static int callbacks = 0;
static void CUDART_CB hostFn(void *u) { (*(int *)u)++; }

int main()
{
  const int S = 4, w = 96, h = 70, sz = w * h;
  float *hin, *hout;
  CHECK(cudaMallocHost(&hin, S * sz * 4));
  CHECK(cudaHostAlloc(&hout, S * sz * 4, cudaHostAllocDefault));
  for (int i = 0; i < S * sz; i++) hin[i] = (float)(i % 1013);
  float *din, *dout;
  CHECK(cudaMalloc(&din, S * sz * 4));
  CHECK(cudaMalloc(&dout, S * sz * 4));
  cudaStream_t st[S];
  cudaEvent_t ev[S], start, stop;
  for (int s = 0; s < S; s++) {
    CHECK(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&ev[s]));
  }
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, 0));
  dim3 blk(T, 8), grd((w + T - 1) / T, (h + T - 1) / T);
  for (int s = 0; s < S; s++) {
    CHECK(cudaMemcpyAsync(din + s * sz, hin + s * sz, sz * 4, cudaMemcpyHostToDevice, st[s]));
    transpose<<<grd, blk, 0, st[s]>>>(din + s * sz, dout + s * sz, w, h);
    CHECK(cudaEventRecord(ev[s], st[s]));
  }
  /* stream 0 adds one to stream 3's result after it is done */
  CHECK(cudaStreamWaitEvent(st[0], ev[3], 0));
  addOne<<<(sz + 255) / 256, 256, 0, st[0]>>>(dout + 3 * sz, sz);
  CHECK(cudaLaunchHostFunc(st[0], hostFn, &callbacks));
  for (int s = 0; s < S; s++)
    CHECK(cudaMemcpyAsync(hout + s * sz, dout + s * sz, sz * 4, cudaMemcpyDeviceToHost, st[s == 3 ? 0 : s]));
  CHECK(cudaEventRecord(stop, 0));
  for (int s = 0; s < S; s++) CHECK(cudaStreamSynchronize(st[s]));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT_EQ("elapsed>=0", 0, ms >= 0.f, 1);
  EXPECT_EQ("query", 0, (int)cudaEventQuery(ev[2]), (int)cudaSuccess);
  EXPECT_EQ("callbacks", 0, callbacks, 1);
  for (int s = 0; s < S; s++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        EXPECT_EQ("t", (s * sz + x * h + y), hout[s * sz + x * h + y], hin[s * sz + y * w + x] + (s == 3 ? 1.f : 0.f));
  for (int s = 0; s < S; s++) { CHECK(cudaStreamDestroy(st[s])); CHECK(cudaEventDestroy(ev[s])); }
  CHECK(cudaFreeHost(hin));
  CHECK(cudaFreeHost(hout));
  return qa_done("streams_events");
}
