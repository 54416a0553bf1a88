// Cooperative launches: grid-wide synchronisation with cooperative groups,
// sized as NVIDIA's samples size them (occupancy times SMs), a launch one
// block too large, and grid.is_valid() with and without a cooperative
// launch. Results are checked against a CPU reference here; the numbers
// printed are what the GPU printed (recorded/).
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      printf("%s: %s (%d)\n", #x, cudaGetErrorName(e_), (int)e_);                 \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

// iters smoothing steps over n points, the two buffers swapping roles
__global__ void smooth(float *a, float *b, int n, int iters) {
  cg::grid_group g = cg::this_grid();
  for (int it = 0; it < iters; it++) {
    for (int i = (int)g.thread_rank(); i < n; i += (int)g.size()) {
      float l = i > 0 ? a[i - 1] : 0.0f, r = i < n - 1 ? a[i + 1] : 0.0f;
      b[i] = 0.25f * l + 0.5f * a[i] + 0.25f * r;
    }
    g.sync();
    float *t = a;
    a = b;
    b = t;
  }
}

// a sum over the grid: blocks reduce in shared memory, then after the grid
// barrier the first thread adds the blocks' sums
__global__ void grid_sum(const int *x, int n, int *partial, long long *out) {
  extern __shared__ int s[];
  cg::grid_group g = cg::this_grid();
  cg::thread_block tb = cg::this_thread_block();
  int sum = 0;
  for (int i = (int)g.thread_rank(); i < n; i += (int)g.size()) sum += x[i];
  s[threadIdx.x] = sum;
  tb.sync();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    tb.sync();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  g.sync();
  if (g.thread_rank() == 0) {
    long long t = 0;
    for (unsigned b = 0; b < gridDim.x; b++) t += partial[b];
    *out = t;
  }
}

__global__ void valid(int *o) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *o = cg::this_grid().is_valid();
}

int main() {
  int dev = 0, sms = 0, coop = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  printf("cooperative launch: %d\n", coop);
  const int threads = 128;
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, threads * sizeof(int)));
  int blocks = per_sm * sms;
  printf("grid_sum: %d blocks per SM\n", per_sm);

  // the sum over the largest grid that fits
  const int n = 1 << 16;
  int *hx = (int *)malloc(n * sizeof(int));
  long long want = 0;
  for (int i = 0; i < n; i++) want += hx[i] = (i * 7 + 3) % 101 - 50;
  int *x, *partial;
  long long *out, got = 0;
  CHECK(cudaMalloc(&x, n * sizeof(int)));
  CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof(long long)));
  CHECK(cudaMemcpy(x, hx, n * sizeof(int), cudaMemcpyHostToDevice));
  int nn = n;
  void *args[] = {&x, &nn, &partial, &out};
  CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, blocks, threads, args, threads * sizeof(int), 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  printf("grid_sum: %lld (%s)\n", got, got == want ? "matches the CPU" : "WRONG");

  // the same through cudaLaunchKernelEx with the cooperative attribute
  CHECK(cudaMemset(out, 0, sizeof(long long)));
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cfg.gridDim = dim3(blocks / 2);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = threads * sizeof(int);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, grid_sum, (const int *)x, nn, partial, out));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  printf("grid_sum, cudaLaunchKernelEx: %lld (%s)\n", got, got == want ? "matches the CPU" : "WRONG");

  // one block more than fits
  cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_sum, blocks + 1, threads, args, threads * sizeof(int), 0);
  printf("one block too many: %s\n", cudaGetErrorName(e));
  e = cudaGetLastError();
  printf("then cudaGetLastError: %s\n", cudaGetErrorName(e));

  // smoothing with a grid barrier per step, on a smaller grid
  const int m = 1000, iters = 12;
  float *ha = (float *)malloc(m * sizeof(float)), *ref = (float *)malloc(m * sizeof(float)),
        *tmp = (float *)malloc(m * sizeof(float));
  for (int i = 0; i < m; i++) ha[i] = ref[i] = (float)((i * 37) % 17);
  for (int it = 0; it < iters; it++) {
    for (int i = 0; i < m; i++) {
      float l = i > 0 ? ref[i - 1] : 0.0f, r = i < m - 1 ? ref[i + 1] : 0.0f;
      tmp[i] = 0.25f * l + 0.5f * ref[i] + 0.25f * r;
    }
    for (int i = 0; i < m; i++) ref[i] = tmp[i];
  }
  float *a, *b;
  CHECK(cudaMalloc(&a, m * sizeof(float)));
  CHECK(cudaMalloc(&b, m * sizeof(float)));
  CHECK(cudaMemcpy(a, ha, m * sizeof(float), cudaMemcpyHostToDevice));
  int mm = m, ii = iters;
  void *sargs[] = {&a, &b, &mm, &ii};
  CHECK(cudaLaunchCooperativeKernel((void *)smooth, 4, 64, sargs, 0, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(ha, iters % 2 ? b : a, m * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < m; i++) bad += ha[i] != ref[i];
  printf("smooth: %d of %d points differ from the CPU; a[500] = %.6f\n", bad, m, ha[500]);

  // is_valid: only in a cooperative launch
  int *v, hv = -1;
  CHECK(cudaMalloc(&v, sizeof(int)));
  valid<<<2, 32>>>(v);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&hv, v, sizeof hv, cudaMemcpyDeviceToHost));
  printf("is_valid, plain launch: %d\n", hv);
  void *vargs[] = {&v};
  CHECK(cudaLaunchCooperativeKernel((void *)valid, 2, 32, vargs, 0, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&hv, v, sizeof hv, cudaMemcpyDeviceToHost));
  printf("is_valid, cooperative launch: %d\n", hv);
  return 0;
}
