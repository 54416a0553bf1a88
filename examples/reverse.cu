/* reverse.cu: reverses an array of n ints (n <= 64, one block of n threads)
 * through shared memory, once with a fixed-size __shared__ array and once
 * with dynamic shared memory sized by the launch. Driver: reverse.c. */

/* Every thread stores its element at its own index, waits for the whole
 * block, then reads back the element mirrored around the middle. */
__global__ void staticReverse(int *d, int n)
{
  __shared__ int s[64];
  int mine = threadIdx.x;
  int mirror = n - 1 - mine;
  s[mine] = d[mine];
  __syncthreads();
  d[mine] = s[mirror];
}

/* Same, but the array is the dynamic shared memory of the launch, which
 * must be at least n * sizeof(int) bytes. */
__global__ void dynamicReverse(int *d, int n)
{
  extern __shared__ int s[];
  int mine = threadIdx.x;
  int mirror = n - 1 - mine;
  s[mine] = d[mine];
  __syncthreads();
  d[mine] = s[mirror];
}
