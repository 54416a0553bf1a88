// Cooperative groups' tiles wider than a warp (tiled_partition<64> and
// <128> with block_tile_memory): on sm_80 and later they keep their
// barriers and exchange slots in the block's reserved shared memory
// (%reserved_smem_offset_1). Each kernel reduces, syncs and exchanges
// through the user's own shared memory across tile.sync(); every result is
// checked against a CPU reference computed here. With the argument "race"
// it also runs a kernel that reads a tile-mate's element before tile.sync()
// (a real race for smemu's --check races to find; its result is not
// printed).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

#define BLOCK 256
#define GRID 3

template <int T>
__global__ void tiles(const int *in, int *sums, int *mixed, int *shape) {
  __shared__ cg::block_tile_memory<BLOCK> scratch;
  __shared__ int user[BLOCK];
  cg::thread_block cta = cg::this_thread_block(scratch);
  cg::thread_block_tile<T> tile = cg::tiled_partition<T>(cta);
  unsigned t = threadIdx.x, g = blockIdx.x * BLOCK + t;
  user[t] = in[g];
  tile.sync();
  // the tile's sum of its mirror partner's value
  int mine = user[tile.meta_group_rank() * T + (T - 1 - tile.thread_rank())];
  int s = cg::reduce(tile, mine, cg::plus<int>());
  tile.sync();
  user[t] = s + (int)tile.thread_rank();
  tile.sync();
  mixed[g] = user[tile.meta_group_rank() * T + (tile.thread_rank() + 1) % T];
  int m = cg::reduce(tile, mine, cg::greater<int>());
  if (tile.thread_rank() == 0) {
    sums[blockIdx.x * (BLOCK / T) + tile.meta_group_rank()] = s * 1000 + m;
    if (blockIdx.x == 0 && tile.meta_group_rank() == 0) {
      shape[0] = (int)tile.meta_group_size();
      shape[1] = (int)tile.size();
      shape[2] = (int)tile.num_threads();
    }
  }
}

// the bug: the read of the other warp's half of the tile comes before the
// tile's sync
__global__ void tile_race(const int *in, int *out) {
  __shared__ cg::block_tile_memory<BLOCK> scratch;
  __shared__ int user[BLOCK];
  cg::thread_block cta = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cta);
  unsigned t = threadIdx.x;
  user[t] = in[t];
  int other = user[tile.meta_group_rank() * 64 + (tile.thread_rank() + 32) % 64];
  tile.sync();
  out[t] = other;
}

template <int T>
static int run(const int *din, const int *h, int *dsums, int *dmixed, int *dshape) {
  tiles<T><<<GRID, BLOCK>>>(din, dsums, dmixed, dshape);
  cudaError_t e = cudaDeviceSynchronize();
  int sums[GRID * BLOCK / T], mixed[GRID * BLOCK], shape[3];
  cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(mixed, dmixed, sizeof mixed, cudaMemcpyDeviceToHost);
  cudaMemcpy(shape, dshape, sizeof shape, cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess, first = 0, total = 0;
  for (int k = 0; k < GRID * BLOCK / T; k++) {
    int s = 0, m = -1;
    for (int i = 0; i < T; i++) {
      s += h[k * T + i];
      m = h[k * T + i] > m ? h[k * T + i] : m;
    }
    bad += sums[k] != s * 1000 + m;
    total += s;
    if (k == 0) first = s;
    for (int i = 0; i < T; i++) bad += mixed[k * T + i] != s + (i + 1) % T;
  }
  bad += shape[0] != BLOCK / T || shape[1] != T || shape[2] != T;
  printf("tile %d: %s, %d tiles of %d per block, first sum %d, total %d, %s\n", T, cudaGetErrorString(e), shape[0],
         shape[1], first, total, bad ? "FAIL" : "PASS");
  return bad;
}

int main(int argc, char **argv) {
  int h[GRID * BLOCK], *din, *dsums, *dmixed, *dshape;
  for (int i = 0; i < GRID * BLOCK; i++) h[i] = (i * 37 + 11) % 101;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dsums, sizeof h);
  cudaMalloc(&dmixed, sizeof h);
  cudaMalloc(&dshape, 3 * sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  int bad = run<64>(din, h, dsums, dmixed, dshape) + run<128>(din, h, dsums, dmixed, dshape);
  if (argc > 1 && argv[1][0] == 'r') {
    tile_race<<<1, BLOCK>>>(din, dmixed);
    bad += cudaDeviceSynchronize() != cudaSuccess;
  }
  printf("cg_tiles %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
