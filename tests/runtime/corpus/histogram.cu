/* histogram.cu: a 256-bin histogram of pseudo-random bytes: each block
 * counts into shared memory with shared atomics over a grid-stride loop,
 * then merges into the global histogram with global atomics. */
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

__global__ void histo(const unsigned char *in, int n, unsigned *bins)
{
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main(void)
{
  const int n = 1 << 17;
  std::vector<unsigned char> h(n);
  unsigned s = 99u;
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    unsigned r = (s >> 16) & 0xff;
    h[i] = (unsigned char)(i % 5 == 0 ? r / 4 : r); /* low bins are fuller */
  }
  unsigned char *d;
  unsigned *bins, out[256], ref[256] = {0};
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&bins, sizeof out));
  CHECK(cudaMemcpy(d, h.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(bins, 0, sizeof out));
  histo<<<24, 256>>>(d, n, bins);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[h[i]]++;
  int bad = 0;
  unsigned total = 0;
  for (int b = 0; b < 256; b++) {
    bad += out[b] != ref[b];
    total += out[b];
  }
  printf("total %u, bins 0..3: %u %u %u %u, bin 255: %u, mismatches %d\n", total, out[0], out[1], out[2], out[3],
         out[255], bad);
  CHECK(cudaFree(d));
  CHECK(cudaFree(bins));
  return bad ? 1 : 0;
}
