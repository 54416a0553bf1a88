/* dot.cu: dot product of two float vectors. Each block accumulates a*b over
 * a grid-stride loop, reduces its threads' sums in shared memory with a tree
 * and __syncthreads, and writes one partial; the host adds the partials. */

#define DOT_THREADS 256 /* threads per block: a power of two */

__global__ void dotPartial(const float *a, const float *b, float *partial, int n)
{
  __shared__ float acc[DOT_THREADS];
  unsigned int t = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    sum += a[i] * b[i];
  acc[t] = sum;
  __syncthreads();
  /* halve the active range each step: t adds the element `half` above it */
  for (unsigned int half = DOT_THREADS / 2; half > 0; half /= 2) {
    if (t < half) acc[t] += acc[t + half];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = acc[0];
}
