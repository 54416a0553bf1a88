// cub_block.cu: the cub block and warp kernels of tests/hw/sass_cub
// instantiated for more types and shapes (int, float, double; char,
// short), for the SASS-mapping corpus (tests/sass/corpus.sh). Compiled
// only: the GPU recordings are tests/hw/sass_cub's.
#include "../../hw/sass_cub/cub_kernels.cuh"

#define ALL3(M) M(int) M(float) M(double)
#define INST(T)                                                                                  \
  template __global__ void block_sum<T, 128, 4>(const T *, T *);                                 \
  template __global__ void block_sum<T, 256, 1>(const T *, T *);                                 \
  template __global__ void block_max_raking<T, 96>(const T *, T *);                              \
  template __global__ void block_scan<T, 128, 4, cub::BLOCK_SCAN_WARP_SCANS>(const T *, T *);    \
  template __global__ void block_scan<T, 128, 2, cub::BLOCK_SCAN_RAKING>(const T *, T *);        \
  template __global__ void block_scan<T, 64, 3, cub::BLOCK_SCAN_RAKING_MEMOIZE>(const T *, T *); \
  template __global__ void block_sort<T, 128, 4>(T *);                                           \
  template __global__ void warp_sum<T, 4>(const T *, T *);                                       \
  template __global__ void warp_scan<T, 4>(const T *, T *);                                      \
  template __global__ void block_exchange<T, 128, 4>(T *);
ALL3(INST)
template __global__ void block_sort_pairs<unsigned, int, 128, 4>(unsigned *, int *);
template __global__ void block_sort_pairs<unsigned long long, float, 64, 2>(unsigned long long *, float *);
template __global__ void block_hist<128, 4, 256, cub::BLOCK_HISTO_SORT>(const unsigned char *, unsigned *);
template __global__ void block_hist<64, 8, 64, cub::BLOCK_HISTO_ATOMIC>(const unsigned char *, unsigned *);
template __global__ void block_exchange<char, 128, 4>(char *);
template __global__ void block_exchange<short, 64, 8>(short *);

int main() { return 0; }
