// cub's block, warp and device algorithms instantiated for common types:
// a body of real library device code for the corpus lint (compiled to PTX
// only, never run here). Each kernel is a thin wrapper, so the PTX is
// what cub itself emits for sm_90a.
#include <cub/cub.cuh>
#include <cuda/std/cstdint>

template <typename T, int THREADS, int ITEMS>
__global__ void block_algos(const T *in, T *out, int *flags) {
  using Load = cub::BlockLoad<T, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<T, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<T, THREADS>;
  using ReduceRaking = cub::BlockReduce<T, THREADS, cub::BLOCK_REDUCE_RAKING>;
  using Scan = cub::BlockScan<T, THREADS>;
  using ScanWarp = cub::BlockScan<T, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  using Sort = cub::BlockRadixSort<T, THREADS, ITEMS>;
  using Disc = cub::BlockDiscontinuity<T, THREADS>;
  using Exch = cub::BlockExchange<T, THREADS, ITEMS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Reduce::TempStorage reduce;
    typename ReduceRaking::TempStorage reduce_raking;
    typename Scan::TempStorage scan;
    typename ScanWarp::TempStorage scan_warp;
    typename Sort::TempStorage sort;
    typename Disc::TempStorage disc;
    typename Exch::TempStorage exch;
  } tmp;
  T items[ITEMS];
  int head[ITEMS];
  Load(tmp.load).Load(in + blockIdx.x * THREADS * ITEMS, items);
  __syncthreads();
  T sum = Reduce(tmp.reduce).Sum(items);
  __syncthreads();
  T mx = ReduceRaking(tmp.reduce_raking).Reduce(items, cuda::maximum<>{});
  __syncthreads();
  Scan(tmp.scan).ExclusiveSum(items, items);
  __syncthreads();
  ScanWarp(tmp.scan_warp).InclusiveScan(items, items, cuda::minimum<>{});
  __syncthreads();
  Sort(tmp.sort).Sort(items);
  __syncthreads();
  Sort(tmp.sort).SortDescendingBlockedToStriped(items);
  __syncthreads();
  Disc(tmp.disc).FlagHeads(head, items, cuda::std::not_equal_to<T>{});
  __syncthreads();
  Exch(tmp.exch).StripedToBlocked(items);
  __syncthreads();
  Store(tmp.store).Store(out + blockIdx.x * THREADS * ITEMS, items);
  if (threadIdx.x == 0) {
    out[0] = sum + mx;
    flags[blockIdx.x] = head[0];
  }
}

template <typename T>
__global__ void warp_algos(const T *in, T *out) {
  using WReduce = cub::WarpReduce<T>;
  using WScan = cub::WarpScan<T>;
  using WSort = cub::WarpMergeSort<T, 4, 32>;
  __shared__ typename WReduce::TempStorage r[4];
  __shared__ typename WScan::TempStorage s[4];
  __shared__ typename WSort::TempStorage m[4];
  int w = threadIdx.x / 32;
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  T a = WReduce(r[w]).Sum(v);
  T b = WReduce(r[w]).Reduce(v, cuda::maximum<>{});
  T c;
  WScan(s[w]).ExclusiveSum(v, c);
  T keys[4] = {v, a, b, c};
  WSort(m[w]).Sort(keys, cuda::std::less<T>{});
  out[blockIdx.x * blockDim.x + threadIdx.x] = keys[0] + keys[3];
}

template <typename T>
void device_algos(T *d, T *o, int *idx, int n, void *tmp, size_t bytes, cudaStream_t s) {
  cub::DeviceReduce::Sum(tmp, bytes, d, o, n, s);
  cub::DeviceReduce::Max(tmp, bytes, d, o, n, s);
  cub::DeviceReduce::ArgMin(tmp, bytes, d, o, idx, n, s);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, d, o, n, s);
  cub::DeviceScan::InclusiveScan(tmp, bytes, d, o, cuda::maximum<>{}, n, s);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, d, o, n, 0, int(sizeof(T) * 8), s);
  cub::DeviceRadixSort::SortPairs(tmp, bytes, d, o, idx, idx, n, 0, int(sizeof(T) * 8), s);
  cub::DeviceSelect::If(tmp, bytes, d, o, idx, n, [] __device__(T x) { return x > T(0); }, s);
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, d, o, 4, idx, idx + 1, s);
  cub::DeviceMergeSort::SortKeys(tmp, bytes, d, n, cuda::std::less<T>{}, s);
}

void histogram(const int *samples, int *hist, int n, void *tmp, size_t bytes) {
  cub::DeviceHistogram::HistogramEven(tmp, bytes, samples, hist, 257, 0, 256, n);
  const unsigned char *px = reinterpret_cast<const unsigned char *>(samples);
  int *h[4] = {hist, hist + 256, hist + 512, hist + 768};
  int levels[4] = {257, 257, 257, 257};
  int lo[4] = {0, 0, 0, 0}, hi[4] = {256, 256, 256, 256};
  cub::DeviceHistogram::MultiHistogramEven<4, 3>(tmp, bytes, px, h, levels, lo, hi, n / 4);
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, samples, hist, hist + 1, hist + 2, n);
}

template __global__ void block_algos<int, 128, 4>(const int *, int *, int *);
template __global__ void block_algos<unsigned, 256, 2>(const unsigned *, unsigned *, int *);
template __global__ void block_algos<float, 128, 4>(const float *, float *, int *);
template __global__ void block_algos<double, 64, 2>(const double *, double *, int *);
template __global__ void block_algos<long long, 128, 2>(const long long *, long long *, int *);
template __global__ void warp_algos<int>(const int *, int *);
template __global__ void warp_algos<float>(const float *, float *);
template __global__ void warp_algos<double>(const double *, double *);
template void device_algos<int>(int *, int *, int *, int, void *, size_t, cudaStream_t);
template void device_algos<unsigned>(unsigned *, unsigned *, int *, int, void *, size_t, cudaStream_t);
template void device_algos<float>(float *, float *, int *, int, void *, size_t, cudaStream_t);
template void device_algos<double>(double *, double *, int *, int, void *, size_t, cudaStream_t);
template void device_algos<long long>(long long *, long long *, int *, int, void *, size_t, cudaStream_t);
