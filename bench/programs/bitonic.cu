// bitonic.cu: bitonic sort of 1M unsigned keys (ascending), as the SDK's
// sorting networks do it: 1024-key chunks sorted in shared memory, then for
// each larger size the long strides merged in global memory and the last
// ten strides in shared memory.
#include "common.cuh"
#include <algorithm>
#include <vector>

#define N (1u << 20)
#define S 1024 // keys per shared chunk (512 threads, two keys each)

__device__ inline void cmpswap(unsigned &a, unsigned &b, bool up) {
  if ((a > b) == up) { unsigned t = a; a = b; b = t; }
}

__global__ void sortShared(unsigned *d) {
  __shared__ unsigned s[S];
  d += blockIdx.x * S;
  int t = threadIdx.x;
  s[t] = d[t];
  s[t + S / 2] = d[t + S / 2];
  for (unsigned size = 2; size <= S; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned p = 2 * t - (t & (stride - 1));
      // ascending where the key's size-block has bit `size` clear (global
      // position), so the chunks alternate at size S
      cmpswap(s[p], s[p + stride], ((blockIdx.x * S + p) & size) == 0);
    }
  __syncthreads();
  d[t] = s[t];
  d[t + S / 2] = s[t + S / 2];
}

__global__ void mergeGlobal(unsigned *d, unsigned size, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x; // one comparator
  unsigned p = 2 * i - (i & (stride - 1));
  bool up = (p & size) == 0;
  unsigned a = d[p], b = d[p + stride];
  cmpswap(a, b, up);
  d[p] = a;
  d[p + stride] = b;
}

__global__ void mergeShared(unsigned *d, unsigned size) {
  __shared__ unsigned s[S];
  unsigned base = blockIdx.x * S;
  int t = threadIdx.x;
  s[t] = d[base + t];
  s[t + S / 2] = d[base + t + S / 2];
  bool up = (base & size) == 0;
  for (unsigned stride = S / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned p = 2 * t - (t & (stride - 1));
    cmpswap(s[p], s[p + stride], up);
  }
  __syncthreads();
  d[base + t] = s[t];
  d[base + t + S / 2] = s[t + S / 2];
}

int main() {
  std::vector<unsigned> h(N), got(N);
  uint64_t seed = 5;
  for (auto &x : h) x = rng(&seed);
  unsigned *d;
  CK(cudaMalloc(&d, N * 4));
  CK(cudaMemcpy(d, h.data(), N * 4, cudaMemcpyHostToDevice));
  sortShared<<<N / S, S / 2>>>(d);
  for (unsigned size = 2 * S; size <= N; size <<= 1) {
    for (unsigned stride = size / 2; stride >= S; stride >>= 1) mergeGlobal<<<N / 2 / 256, 256>>>(d, size, stride);
    mergeShared<<<N / S, S / 2>>>(d, size);
  }
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), d, N * 4, cudaMemcpyDeviceToHost));
  std::sort(h.begin(), h.end());
  return report("bitonic sort 1M", got == h);
}
