// memcheck across blocks and loops: are the bad accesses of every block
// reported, and each loop iteration's, or one per thread?
//   spread: 4 blocks of 64 write p[gid] to 200 ints, then __syncthreads()
//           and a second in-bounds write: gids 200..255 (block 3 threads
//           8..63) are out of bounds.
//   loop:   one block of 32 writes p[200 + t] three times in a loop.
#include "san.cuh"

__global__ void spread(int *p, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = i;
  __syncthreads();
  p[i % n] = 1;
}

__global__ void loop(int *p, int n)
{
  for (int k = 0; k < 3; k++)
    p[n + threadIdx.x] = k;
}

int main()
{
  const int n = 200;
  int *p = 0;
  CALL(cudaMalloc(&p, n * sizeof(int)));
  ADDR("p", p);
  spread<<<4, 64>>>(p, n);
  SYNC("spread");
  loop<<<1, 32>>>(p, n);
  SYNC("loop");
  CALL(cudaFree(p));
  return 0;
}
