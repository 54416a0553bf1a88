/* atomics_global.cu (e2e corpus): atomics on global memory from every block
 * (__device__ accumulators with initializers), then the last block to finish,
 * found with __threadfence and an atomicInc ticket, publishes and resets them. */

#define AG_OUT 48

__device__ unsigned ag_done = 0;
__device__ int ag_sum = 0;
__device__ int ag_imin = 0x7fffffff;
__device__ int ag_imax = -0x7fffffff - 1;
__device__ unsigned ag_umin = 0xffffffffu;
__device__ unsigned ag_umax = 0;
__device__ unsigned ag_or = 0;
__device__ unsigned ag_xor = 0;
__device__ float ag_fsum = 0.0f;
__device__ double ag_dsum = 0.0;
__device__ unsigned long long ag_u64 = 0;
__device__ unsigned long long ag_umin64 = ~0ull;
__device__ unsigned ag_exch = 0;
__device__ unsigned long long ag_exsum = 0;
__device__ unsigned ag_inc = 0;
__device__ unsigned ag_hist[16];

__global__ void atomicsGlobal(const unsigned *in, unsigned *out, int n)
{
  __shared__ bool last;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[gid];
  atomicAdd(&ag_sum, (int)(v & 0xfff) - 2048);
  atomicMin(&ag_imin, (int)v);
  atomicMax(&ag_imax, (int)v);
  atomicMin(&ag_umin, v);
  atomicMax(&ag_umax, v);
  atomicOr(&ag_or, v & 0x11111111u);
  atomicXor(&ag_xor, v);
  atomicAdd(&ag_fsum, (float)(v & 0x3ff) * 0.125f);
  atomicAdd(&ag_dsum, (double)v * 0.25);
  atomicAdd(&ag_u64, (unsigned long long)v * v);
  atomicMin(&ag_umin64, ((unsigned long long)v << 32) | gid);
  atomicInc(&ag_inc, 0xffffffffu);
  atomicAdd_block(&ag_hist[v >> 28], 1u);   /* block scope: still atomic here */
  unsigned prev = atomicExch(&ag_exch, gid + 1);
  atomicAdd(&ag_exsum, (unsigned long long)prev);

  __threadfence();          /* our updates are visible before we take a ticket */
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicInc(&ag_done, gridDim.x - 1) == gridDim.x - 1; /* wraps back to 0 */
  __syncthreads();
  if (!last || threadIdx.x != 0) return;

  __threadfence();
  out[0] = (unsigned)atomicExch(&ag_sum, 0);
  out[1] = (unsigned)atomicExch(&ag_imin, 0x7fffffff);
  out[2] = (unsigned)atomicExch(&ag_imax, -0x7fffffff - 1);
  out[3] = atomicExch(&ag_umin, 0xffffffffu);
  out[4] = atomicExch(&ag_umax, 0u);
  out[5] = atomicExch(&ag_or, 0u);
  out[6] = atomicExch(&ag_xor, 0u);
  out[7] = __float_as_uint(atomicExch(&ag_fsum, 0.0f));
  unsigned long long d = (unsigned long long)__double_as_longlong(*(volatile double *)&ag_dsum);
  ag_dsum = 0.0;
  out[8] = (unsigned)d; out[9] = (unsigned)(d >> 32);
  unsigned long long u = atomicExch(&ag_u64, 0ull);
  out[10] = (unsigned)u; out[11] = (unsigned)(u >> 32);
  u = atomicExch(&ag_umin64, ~0ull);
  out[12] = (unsigned)u; out[13] = (unsigned)(u >> 32);
  unsigned long long ex = atomicExch(&ag_exsum, 0ull) + atomicExch(&ag_exch, 0u);
  out[14] = (unsigned)ex; out[15] = (unsigned)(ex >> 32);
  out[16] = atomicExch(&ag_inc, 0u);
  for (int k = 0; k < 16; k++) out[17 + k] = atomicExch(&ag_hist[k], 0u);
  out[33] = gridDim.x;
  for (int k = 34; k < AG_OUT; k++) out[k] = 0;
}
