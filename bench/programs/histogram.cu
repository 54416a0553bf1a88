// histogram.cu: 64- and 256-bin histograms of 64 MB of bytes. Each warp
// keeps its own sub-histogram in shared memory updated with shared atomics;
// each block writes its partial histogram and a second kernel sums them.
#include "common.cuh"
#include <vector>

#define BYTES (64u << 20)
#define WARPS 6
#define PARTIALS 240

template <int BINS>
__global__ void histo(unsigned *partial, const unsigned *data, unsigned words) {
  __shared__ unsigned s[WARPS * BINS];
  for (int i = threadIdx.x; i < WARPS * BINS; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned *mine = s + (threadIdx.x / warpSize) * BINS;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += blockDim.x * gridDim.x) {
    unsigned v = data[i];
    for (int k = 0; k < 4; k++, v >>= 8) atomicAdd(&mine[(v & 0xff) % BINS], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned sum = 0;
    for (int w = 0; w < WARPS; w++) sum += s[w * BINS + b];
    partial[blockIdx.x * BINS + b] = sum;
  }
}

__global__ void merge(unsigned *hist, const unsigned *partial, int bins, int n) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= bins) return;
  unsigned sum = 0;
  for (int i = 0; i < n; i++) sum += partial[i * bins + b];
  hist[b] = sum;
}

template <int BINS>
static bool run(const unsigned *d, const std::vector<unsigned> &ref, unsigned *partial, unsigned *hist) {
  histo<BINS><<<PARTIALS, WARPS * 32>>>(partial, d, BYTES / 4);
  merge<<<(BINS + 63) / 64, 64>>>(hist, partial, BINS, PARTIALS);
  CK(cudaGetLastError());
  std::vector<unsigned> got(BINS);
  CK(cudaMemcpy(got.data(), hist, BINS * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < BINS; b++) {
    unsigned r = 0;
    for (int v = b; v < 256; v += BINS) r += ref[v];
    if (got[b] != r) return false;
  }
  return true;
}

int main() {
  std::vector<unsigned> h(BYTES / 4), ref(256, 0);
  uint64_t seed = 11;
  for (auto &x : h) {
    x = rng(&seed);
    for (int k = 0; k < 4; k++) ref[(x >> (8 * k)) & 0xff]++;
  }
  unsigned *d, *partial, *hist;
  CK(cudaMalloc(&d, BYTES)); CK(cudaMalloc(&partial, PARTIALS * 256 * 4)); CK(cudaMalloc(&hist, 256 * 4));
  CK(cudaMemcpy(d, h.data(), BYTES, cudaMemcpyHostToDevice));
  int fail = report("histogram64 64MB", run<64>(d, ref, partial, hist));
  fail |= report("histogram256 64MB", run<256>(d, ref, partial, hist));
  return fail;
}
