// CUB's block-wide primitives, as library users write them: BlockLoad,
// BlockReduce, BlockScan and BlockRadixSort sharing a union of TempStorage
// in shared memory (with __syncthreads between reuses); CPU reference.
#include "qa.h"
#include <cub/cub.cuh>

template <int BS, int IPT>
__global__ void blockOps(const int *in, int *sorted, int *scanned, int *sums)
{
  typedef cub::BlockLoad<int, BS, IPT, cub::BLOCK_LOAD_TRANSPOSE> Load;
  typedef cub::BlockReduce<int, BS> Reduce;
  typedef cub::BlockScan<int, BS> Scan;
  typedef cub::BlockRadixSort<int, BS, IPT> Sort;
  __shared__ union {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
  } tmp;
  int items[IPT];
  int base = blockIdx.x * BS * IPT;
  Load(tmp.load).Load(in + base, items);
  __syncthreads();
  int s = Reduce(tmp.reduce).Sum(items);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
  __syncthreads();
  int sc[IPT];
  Scan(tmp.scan).ExclusiveSum(items, sc);
  for (int k = 0; k < IPT; k++) scanned[base + threadIdx.x * IPT + k] = sc[k];
  __syncthreads();
  Sort(tmp.sort).Sort(items);
  for (int k = 0; k < IPT; k++) sorted[base + threadIdx.x * IPT + k] = items[k];
}

static int cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }

int main()
{
  const int BS = 128, IPT = 4, grid = 3, n = BS * IPT * grid;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4), *sc = (int *)malloc(n * 4), sums[grid];
  unsigned seed = 37;
  for (int i = 0; i < n; i++) h[i] = (int)(qa_lcg(&seed) % 200001) - 100000;
  int *d, *ds, *dsc, *dsum;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&ds, n * 4)); CHECK(cudaMalloc(&dsc, n * 4));
  CHECK(cudaMalloc(&dsum, grid * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  blockOps<BS, IPT><<<grid, BS>>>(d, ds, dsc, dsum);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, ds, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sc, dsc, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums, dsum, sizeof sums, cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; b++) {
    int *seg = h + b * BS * IPT, s = 0;
    for (int k = 0; k < BS * IPT; k++) {
      /* BLOCK_LOAD_TRANSPOSE gives thread t items t*IPT .. t*IPT+IPT-1 (blocked) */
      EXPECT_EQ("exscan", b * BS * IPT + k, sc[b * BS * IPT + k], s);
      s += seg[k];
    }
    EXPECT_EQ("sum", b, sums[b], s);
    qsort(seg, BS * IPT, 4, cmp);
    for (int k = 0; k < BS * IPT; k++) EXPECT_EQ("sorted", b * BS * IPT + k, o[b * BS * IPT + k], seg[k]);
  }
  return qa_done("cub_block");
}
