/* events.cu: timing with events (the figures vary, so only their sanity is
 * printed), queries, synchronisation, and the errors of misuse: an event
 * without timing, an event never recorded. */
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

__global__ void busy(float *x, int n, int iters)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int k = 0; k < iters; k++) v = v * 0.999f + 0.001f * (float)k;
  x[i] = v;
}

int main(void)
{
  const int n = 4096;
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  cudaEvent_t start, stop, mid, notime, never;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&mid, cudaEventBlockingSync));
  CHECK(cudaEventCreateWithFlags(&notime, cudaEventDisableTiming));
  CHECK(cudaEventCreate(&never));

  printf("query of an event never recorded: %s\n", cudaGetErrorName(cudaEventQuery(never)));
  CHECK(cudaEventRecord(start, 0));
  busy<<<n / 256, 256>>>(d, n, 200);
  CHECK(cudaEventRecord(mid, 0));
  busy<<<n / 256, 256>>>(d, n, 200);
  CHECK(cudaEventRecord(stop, 0));
  CHECK(cudaEventRecord(notime, 0));
  CHECK(cudaEventSynchronize(stop));
  float a = -1.0f, b = -1.0f, c = -1.0f;
  CHECK(cudaEventElapsedTime(&a, start, mid));
  CHECK(cudaEventElapsedTime(&b, mid, stop));
  CHECK(cudaEventElapsedTime(&c, start, stop));
  printf("elapsed: non-negative %s, additive %s\n", a >= 0.0f && b >= 0.0f && c >= 0.0f ? "yes" : "no",
         c >= a && c >= b ? "yes" : "no");
  printf("query after synchronize: %s\n", cudaGetErrorName(cudaEventQuery(stop)));
  float x;
  printf("elapsed with a DisableTiming event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&x, start, notime)));
  printf("elapsed with an unrecorded event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&x, start, never)));
  printf("last error after those: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("then: %s\n", cudaGetErrorName(cudaGetLastError()));

  /* an event recorded on a stream, waited for by the host */
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  busy<<<n / 256, 256, 0, s>>>(d, n, 10);
  CHECK(cudaEventRecordWithFlags(mid, s, 0));
  CHECK(cudaEventSynchronize(mid));
  printf("stream event query: %s\n", cudaGetErrorName(cudaEventQuery(mid)));
  float h[4];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("x[0..3] = %.6f %.6f %.6f %.6f\n", h[0], h[1], h[2], h[3]);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(mid));
  CHECK(cudaEventDestroy(notime));
  CHECK(cudaEventDestroy(never));
  CHECK(cudaFree(d));
  printf("done\n");
  return 0;
}
