// scan.cu: exclusive prefix sum of 256K unsigned ints, repeated 100 times,
// in the classic three-kernel form: a work-efficient (up-sweep/down-sweep)
// scan of 1024 elements per block in shared memory, padded against bank
// conflicts, a scan of the block sums, and a uniform add.
#include "common.cuh"
#include <vector>

#define N (256 * 1024)
#define B 1024                      // elements per block (512 threads)
#define PAD(i) ((i) + ((i) >> 5))   // one padding word per 32

__global__ void scanBlocks(const unsigned *in, unsigned *out, unsigned *sums, int n) {
  __shared__ unsigned s[PAD(B) + 1];
  int t = threadIdx.x, base = blockIdx.x * B;
  int a = t, b = t + B / 2;
  s[PAD(a)] = base + a < n ? in[base + a] : 0;
  s[PAD(b)] = base + b < n ? in[base + b] : 0;
  int off = 1;
  for (int d = B >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int i = off * (2 * t + 1) - 1, j = off * (2 * t + 2) - 1;
      s[PAD(j)] += s[PAD(i)];
    }
    off <<= 1;
  }
  if (t == 0) {
    if (sums) sums[blockIdx.x] = s[PAD(B - 1)];
    s[PAD(B - 1)] = 0;
  }
  for (int d = 1; d < B; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int i = off * (2 * t + 1) - 1, j = off * (2 * t + 2) - 1;
      unsigned x = s[PAD(i)];
      s[PAD(i)] = s[PAD(j)];
      s[PAD(j)] += x;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[PAD(a)];
  if (base + b < n) out[base + b] = s[PAD(b)];
}

__global__ void addSums(unsigned *out, const unsigned *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += sums[i / B];
}

int main() {
  std::vector<unsigned> h(N), ref(N), got(N);
  uint64_t seed = 1;
  for (int i = 0; i < N; i++) h[i] = rng(&seed) & 15;
  unsigned acc = 0;
  for (int i = 0; i < N; i++) { ref[i] = acc; acc += h[i]; }
  unsigned *in, *out, *sums, *sums2;
  int nb = N / B;
  CK(cudaMalloc(&in, N * 4)); CK(cudaMalloc(&out, N * 4));
  CK(cudaMalloc(&sums, nb * 4)); CK(cudaMalloc(&sums2, nb * 4));
  CK(cudaMemcpy(in, h.data(), N * 4, cudaMemcpyHostToDevice));
  for (int rep = 0; rep < 100; rep++) {
    scanBlocks<<<nb, B / 2>>>(in, out, sums, N);
    scanBlocks<<<1, B / 2>>>(sums, sums2, nullptr, nb);
    addSums<<<N / 256, 256>>>(out, sums2, N);
  }
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), out, N * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < N && ok; i++) ok = got[i] == ref[i];
  return report("scan 256K x100", ok);
}
