/* scan.cu: an inclusive prefix sum of many blocks: each block scans its
 * part in dynamic shared memory (Hillis-Steele, double-buffered), a second
 * kernel scans the block totals, a third adds them back. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

__global__ void scan_block(const int *in, int *out, int *totals, int n)
{
  extern __shared__ int buf[]; /* 2 * blockDim.x ints */
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int *a = buf, *b = buf + blockDim.x;
  a[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    b[t] = t >= off ? a[t] + a[t - off] : a[t];
    __syncthreads();
    int *tmp = a;
    a = b;
    b = tmp;
  }
  if (i < n) out[i] = a[t];
  if (t == blockDim.x - 1 && totals) totals[blockIdx.x] = a[t];
}

__global__ void add_offsets(int *out, const int *scanned_totals, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

int main(void)
{
  const int n = 50000, threads = 256, blocks = (n + threads - 1) / threads; /* 196 blocks */
  std::vector<int> h(n), out(n);
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 13 - 6;
  int *in, *res, *totals, *scanned;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&res, n * sizeof(int)));
  CHECK(cudaMalloc(&totals, blocks * sizeof(int)));
  CHECK(cudaMalloc(&scanned, blocks * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_block<<<blocks, threads, 2 * threads * sizeof(int)>>>(in, res, totals, n);
  scan_block<<<1, threads, 2 * threads * sizeof(int)>>>(totals, scanned, nullptr, blocks);
  add_offsets<<<blocks, threads>>>(res, scanned, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), res, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long acc = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    acc += h[i];
    bad += out[i] != acc;
  }
  printf("scan of %d: out[0] %d, out[255] %d, out[256] %d, out[%d] %d, mismatches %d\n", n, out[0], out[255],
         out[256], n - 1, out[n - 1], bad);
  CHECK(cudaFree(in));
  CHECK(cudaFree(res));
  CHECK(cudaFree(totals));
  CHECK(cudaFree(scanned));
  return bad ? 1 : 0;
}
