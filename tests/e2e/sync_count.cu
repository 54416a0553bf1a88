/* sync_count.cu (e2e corpus): the barrier reductions __syncthreads_count,
 * _and and _or in a block of 100 threads (the last warp has 4 lanes), and
 * a neighbour exchange through shared memory between barriers. */

#define SC_OUT 8

__global__ void syncCount(const int *in, int *out, int n)
{
  __shared__ int ring[1024];
  int t = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + t;
  int v = in[gid];
  int *o = out + gid * SC_OUT;
  o[0] = __syncthreads_count(v & 1);
  o[1] = __syncthreads_and(v >= 10);
  o[2] = __syncthreads_or(v == 500);
  o[3] = __syncthreads_or(t == (int)blockIdx.x * 7);
  o[4] = __syncthreads_count(1);
  ring[t] = v;
  __syncthreads();
  int left = ring[(t + blockDim.x - 1) % blockDim.x];
  __syncthreads();
  ring[t] = left + v;                    /* overwrite only after everyone read */
  __syncthreads();
  o[5] = ring[(t + 1) % blockDim.x];
  o[6] = __syncthreads_count(left > v);
  o[7] = __syncthreads_and(1) + __syncthreads_or(0) * 2;
}
