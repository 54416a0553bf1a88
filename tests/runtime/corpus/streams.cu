/* streams.cu: work split over four streams: pinned buffers, asynchronous
 * copies in both directions, a kernel per stream, a cross-stream dependency
 * through an event, host callbacks, stream flags and priorities. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

__global__ void scale(float *x, int n, float a, float b)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a + b;
}

__global__ void add_from(float *dst, const float *src, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    dst[i] += src[i];
}

static void CUDART_CB on_done(void *user) { printf("host function: %s\n", (const char *)user); }

static void CUDART_CB on_callback(cudaStream_t, cudaError_t status, void *user)
{
  printf("stream callback %d: %s\n", *(int *)user, cudaGetErrorName(status));
}

int main(void)
{
  const int nstreams = 4, chunk = 1000, n = nstreams * chunk;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 97) * 0.25f;
  cudaStream_t s[nstreams];
  for (int k = 0; k < nstreams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < nstreams; k++) {
    float *hp = h + k * chunk, *dp = d + k * chunk;
    CHECK(cudaMemcpyAsync(dp, hp, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    scale<<<(chunk + 127) / 128, 128, 0, s[k]>>>(dp, chunk, (float)(k + 1), 0.5f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(hp, dp, chunk * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  for (int k = 0; k < nstreams; k++) CHECK(cudaStreamSynchronize(s[k]));
  for (int k = 0; k < nstreams; k++) {
    double sum = 0.0;
    for (int i = 0; i < chunk; i++) sum += h[k * chunk + i];
    printf("stream %d: sum %.3f, query %s\n", k, sum, cudaGetErrorName(cudaStreamQuery(s[k])));
  }

  /* stream 1 waits for an event stream 0 records after its kernel */
  float *d2;
  CHECK(cudaMalloc(&d2, n * sizeof(float)));
  CHECK(cudaMemsetAsync(d2, 0, n * sizeof(float), s[0]));
  cudaEvent_t ready;
  CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  scale<<<(n + 255) / 256, 256, 0, s[0]>>>(d, n, 2.0f, 1.0f);
  CHECK(cudaEventRecord(ready, s[0]));
  CHECK(cudaStreamWaitEvent(s[1], ready, 0));
  add_from<<<8, 128, 0, s[1]>>>(d2, d, n);
  CHECK(cudaLaunchHostFunc(s[1], on_done, (void *)"after add_from"));
  int tag = 7;
  CHECK(cudaStreamAddCallback(s[1], on_callback, &tag, 0));
  CHECK(cudaStreamSynchronize(s[1]));
  CHECK(cudaMemcpy(h, d2, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("d2[0] = %.3f, d2[%d] = %.3f, d2[%d] = %.3f\n", h[0], chunk + 1, h[chunk + 1], n - 1, h[n - 1]);

  /* the default stream and the legacy/per-thread handles */
  scale<<<1, 32>>>(d, 32, 1.0f, 1.0f);
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));

  /* flags and priorities */
  cudaStream_t nb, hi;
  unsigned flags = 99;
  int least, greatest, prio = 99;
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  CHECK(cudaStreamGetFlags(nb, &flags));
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamDefault, greatest));
  CHECK(cudaStreamGetPriority(hi, &prio));
  printf("non-blocking flags %u, priorities %d..%d, high-priority stream %d\n", flags, least, greatest, prio);
  CHECK(cudaStreamDestroy(nb));
  CHECK(cudaStreamDestroy(hi));
  for (int k = 0; k < nstreams; k++) CHECK(cudaStreamDestroy(s[k]));
  CHECK(cudaEventDestroy(ready));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  printf("done\n");
  return 0;
}
