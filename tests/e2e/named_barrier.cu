/* named_barrier.cu (e2e corpus): producer/consumer warps synchronised with a
 * named barrier through inline PTX: warps 0-1 fill shared memory and
 * bar.arrive on barrier 1; warps 2-3 bar.sync on it and consume. */

#define NB_OUT 2

__global__ void namedBarrier(const int *in, int *out, int n)
{
  __shared__ int stage[64];
  int t = threadIdx.x;
  int *o = out + (blockIdx.x * blockDim.x + t) * NB_OUT;
  if (t < 64) {                           /* producers */
    stage[t] = in[blockIdx.x * 64 + t] * 3 + 1;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
    o[0] = -t;                            /* producers do not wait */
    o[1] = 0;
  } else {                                /* consumers */
    asm volatile("bar.sync 1, 128;" ::: "memory");
    int k = t - 64;
    o[0] = stage[63 - k] + stage[k];
    o[1] = stage[(k * 5) & 63];
  }
  __syncthreads();                        /* barrier 0 for everyone at the end */
}
