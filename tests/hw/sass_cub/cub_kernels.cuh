// cub_kernels.cuh: the kernels of the sass_cub programs (cub block and
// warp primitives of the toolkit's CCCL), shared with the static corpus
// tests/sass/corpus/cub_block.cu, which instantiates more of them.
#ifndef CUB_KERNELS_CUH
#define CUB_KERNELS_CUH
#include <cub/cub.cuh>

template <typename T, int BLOCK, int ITEMS>
__global__ void block_sum(const T *in, T *out) {
  using R = cub::BlockReduce<T, BLOCK>;
  __shared__ typename R::TempStorage tmp;
  T v[ITEMS];
  for (int i = 0; i < ITEMS; i++) v[i] = in[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
  T s = R(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

template <typename T, int BLOCK>
__global__ void block_max_raking(const T *in, T *out) {
  using R = cub::BlockReduce<T, BLOCK, cub::BLOCK_REDUCE_RAKING>;
  __shared__ typename R::TempStorage tmp;
  T s = R(tmp).Reduce(in[blockIdx.x * BLOCK + threadIdx.x], ::cuda::maximum<>{});
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

template <typename T, int WARPS>
__global__ void warp_sum(const T *in, T *out) {
  using W = cub::WarpReduce<T>;
  __shared__ typename W::TempStorage tmp[WARPS];
  int w = threadIdx.x / 32;
  T s = W(tmp[w]).Sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[blockIdx.x * WARPS + w] = s;
}

template <typename T, int BLOCK, int ITEMS, cub::BlockScanAlgorithm A>
__global__ void block_scan(const T *in, T *out) {
  using L = cub::BlockLoad<T, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using S = cub::BlockScan<T, BLOCK, A>;
  using St = cub::BlockStore<T, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename L::TempStorage l;
    typename S::TempStorage s;
    typename St::TempStorage st;
  } tmp;
  T v[ITEMS];
  L(tmp.l).Load(in + blockIdx.x * BLOCK * ITEMS, v);
  __syncthreads();
  S(tmp.s).ExclusiveSum(v, v);
  __syncthreads();
  St(tmp.st).Store(out + blockIdx.x * BLOCK * ITEMS, v);
}

template <typename T, int WARPS>
__global__ void warp_scan(const T *in, T *out) {
  using W = cub::WarpScan<T>;
  __shared__ typename W::TempStorage tmp[WARPS];
  int w = threadIdx.x / 32;
  T v;
  W(tmp[w]).InclusiveSum(in[blockIdx.x * blockDim.x + threadIdx.x], v);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template <typename K, int BLOCK, int ITEMS>
__global__ void block_sort(K *keys) {
  using L = cub::BlockLoad<K, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
  using S = cub::BlockRadixSort<K, BLOCK, ITEMS>;
  __shared__ union {
    typename L::TempStorage l;
    typename S::TempStorage s;
  } tmp;
  K v[ITEMS];
  L(tmp.l).Load(keys + blockIdx.x * BLOCK * ITEMS, v);
  __syncthreads();
  S(tmp.s).SortBlockedToStriped(v);
  for (int i = 0; i < ITEMS; i++) keys[blockIdx.x * BLOCK * ITEMS + i * BLOCK + threadIdx.x] = v[i];
}

template <typename K, typename V, int BLOCK, int ITEMS>
__global__ void block_sort_pairs(K *keys, V *vals) {
  using S = cub::BlockRadixSort<K, BLOCK, ITEMS, V>;
  __shared__ typename S::TempStorage tmp;
  K k[ITEMS];
  V v[ITEMS];
  for (int i = 0; i < ITEMS; i++) {
    k[i] = keys[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
    v[i] = vals[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
  }
  S(tmp).Sort(k, v);
  for (int i = 0; i < ITEMS; i++) {
    keys[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i] = k[i];
    vals[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i] = v[i];
  }
}

template <typename T, int BLOCK, int ITEMS>
__global__ void block_exchange(T *data) {
  using E = cub::BlockExchange<T, BLOCK, ITEMS>;
  __shared__ typename E::TempStorage tmp;
  T v[ITEMS];
  for (int i = 0; i < ITEMS; i++) v[i] = data[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
  E(tmp).BlockedToStriped(v);
  for (int i = 0; i < ITEMS; i++) data[blockIdx.x * BLOCK * ITEMS + i * BLOCK + threadIdx.x] = v[i];
}

template <int BLOCK, int ITEMS, int BINS, cub::BlockHistogramAlgorithm A>
__global__ void block_hist(const unsigned char *in, unsigned *out) {
  using H = cub::BlockHistogram<unsigned char, BLOCK, ITEMS, BINS, A>;
  __shared__ typename H::TempStorage tmp;
  __shared__ unsigned bins[BINS];
  unsigned char v[ITEMS];
  for (int i = 0; i < ITEMS; i++) v[i] = in[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
  H(tmp).Histogram(v, bins);
  __syncthreads();
  for (int i = threadIdx.x; i < BINS; i += BLOCK) out[blockIdx.x * BINS + i] = bins[i];
}

#endif
