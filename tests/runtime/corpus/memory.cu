/* memory.cu: the allocation kinds and copies real programs use: device,
 * pinned (cudaMallocHost, cudaHostAlloc mapped into the device),
 * managed, pitched with cudaMemcpy2D, cudaMemset / MemsetAsync,
 * device-to-device and inferred-direction copies, pointer attributes,
 * memory information, and the errors of bad copies and frees. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

__global__ void inc(int *x, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] += i;
}

/* Adds the row index to each element of a pitched width x height array. */
__global__ void rows(float *a, size_t pitch, int width, int height)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float *row = (float *)((char *)a + y * pitch);
    row[x] += (float)y;
  }
}

static const char *kind(const void *p)
{
  cudaPointerAttributes a;
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) return cudaGetErrorName(e);
  switch (a.type) {
  case cudaMemoryTypeDevice: return "device";
  case cudaMemoryTypeHost: return "host";
  case cudaMemoryTypeManaged: return "managed";
  default: return "unregistered";
  }
}

int main(void)
{
  const int n = 1000;
  int *d, *pinned, *mapped, *managed, *dmapped;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
  CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
  CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
  CHECK(cudaHostGetDevicePointer((void **)&dmapped, mapped, 0));
  int stack_buf[4];
  printf("kinds: %s %s %s %s %s\n", kind(d), kind(pinned), kind(mapped), kind(managed), kind(stack_buf));
  cudaGetLastError();

  for (int i = 0; i < n; i++) pinned[i] = mapped[i] = managed[i] = 1;
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  CHECK(cudaMemcpy(d, pinned, n * sizeof(int), cudaMemcpyHostToDevice));
  inc<<<4, 128>>>(d, n);
  inc<<<4, 128>>>(dmapped, n);
  inc<<<4, 128>>>(managed, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(pinned, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("device %d, mapped %d, managed %d\n", pinned[n - 1], mapped[n - 1], managed[n - 1]);

  /* device to device, and the direction inferred from the pointers */
  int *d2;
  CHECK(cudaMalloc(&d2, n * sizeof(int)));
  CHECK(cudaMemcpy(d2, d, n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemsetAsync(d, 0xff, 16, 0));
  CHECK(cudaMemcpy(pinned, d, 8 * sizeof(int), cudaMemcpyDefault));
  printf("after memset 0xff: %d %d %d %d %d\n", pinned[0], pinned[3], pinned[4], pinned[5], pinned[7]);
  CHECK(cudaMemcpy(pinned, d2 + 500, sizeof(int), cudaMemcpyDefault));
  printf("copied d2[500] = %d\n", pinned[0]);

  /* pitched 2D */
  const int w = 100, h = 7;
  float *pa, host[h][w];
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&pa, &pitch, w * sizeof(float), h));
  printf("pitch covers a row: %s, aligned to 128: %s\n", pitch >= w * sizeof(float) ? "yes" : "no",
         pitch % 128 == 0 ? "yes" : "no");
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) host[y][x] = (float)x * 0.5f;
  CHECK(cudaMemcpy2D(pa, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  rows<<<dim3(1, h), 128>>>(pa, pitch, w, h);
  memset(host, 0, sizeof host);
  CHECK(cudaMemcpy2D(host, w * sizeof(float), pa, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  printf("2D: [0][0] %g, [3][10] %g, [6][99] %g\n", host[0][0], host[3][10], host[6][99]);
  cudaError_t e = cudaMemcpy2D(pa, pitch, host, 8, w * sizeof(float), h, cudaMemcpyHostToDevice);
  printf("2D with width above the pitch: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaMemset2D(pa, pitch, 0, w * sizeof(float), h));

  size_t freeb = 0, total = 0;
  CHECK(cudaMemGetInfo(&freeb, &total));
  printf("memory info: free <= total %s, total > 1 GB %s\n", freeb <= total ? "yes" : "no",
         total > (1ull << 30) ? "yes" : "no");

  /* errors */
  e = cudaMemcpy(d, pinned, n * sizeof(int), (cudaMemcpyKind)7);
  printf("bad kind: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  int *huge = nullptr;
  e = cudaMalloc(&huge, (size_t)1 << 50);
  printf("malloc of 1 PB: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  cudaGetLastError();
  e = cudaMalloc(&huge, 0);
  printf("malloc of 0 bytes: %s, null %s\n", cudaGetErrorName(e), huge == nullptr ? "yes" : "no");
  e = cudaFree(nullptr);
  printf("free(nullptr): %s\n", cudaGetErrorName(e));

  CHECK(cudaFree(d));
  CHECK(cudaFree(d2));
  CHECK(cudaFree(pa));
  CHECK(cudaFree(managed));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFreeHost(mapped));
  printf("done\n");
  return 0;
}
