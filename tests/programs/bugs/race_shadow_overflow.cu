/* race_shadow_overflow.cu: smemu bug reproducer (found by the corpus,
 * last_block.cu). A kernel whose shared memory size is not a multiple of 4
 * (here one __shared__ bool, 1 byte) crashes `smemu run --check races`
 * with "double free or corruption": race_access (src/check/race.c) splits
 * a word's shadow into 4 byte shadows, r->sh[wd * 4 + 0..3], but race_init
 * allocates r->sh with sh_size entries (1 here), so the split writes past
 * the end (valgrind: "Invalid write of size 8 ... 0 bytes after a block").
 *   nvcc -arch=sm_90 -cudart shared -lineinfo -o r race_shadow_overflow.cu
 *   build/smemu run --check races -- ./r      # expected: "done", 0 hazards */
#include <cstdio>

__device__ unsigned ticket;

__global__ void flagFromGlobal(int *result)
{
  __shared__ bool amLast;
  if (threadIdx.x == 0) amLast = ticket == 0;
  __syncthreads();
  if (amLast) *result = 1;
}

int main()
{
  int *r;
  cudaMalloc(&r, 4);
  flagFromGlobal<<<1, 32>>>(r);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
