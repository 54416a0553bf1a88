/* atomics_shared.cu (e2e corpus): atomics on shared memory inside one block:
 * add (int, float, double, u64), min/max (signed, unsigned), and/or/xor,
 * inc/dec with wrap, exch, a CAS loop and a histogram. All order-independent. */

#define AS_OUT 48

/* max of floats by compare-and-swap on the bit pattern */
__device__ void atomicMaxF(float *addr, float v)
{
  int *p = (int *)addr;
  int old = *p, seen;
  while (__int_as_float(old) < v) {
    seen = atomicCAS(p, old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
}

__global__ void atomicsShared(const unsigned *in, unsigned *out, int n)
{
  __shared__ int s_sum, s_imin, s_imax;
  __shared__ unsigned s_umin, s_umax, s_and, s_or, s_xor, s_inc, s_dec, s_exch, s_ticket;
  __shared__ unsigned s_exsum;
  __shared__ float s_fsum, s_fmax;
  __shared__ double s_dsum;
  __shared__ unsigned long long s_u64, s_prod;
  __shared__ int s_hist[16];
  __shared__ int s_hits[1024];
  unsigned t = threadIdx.x;
  if (t == 0) {
    s_sum = 0; s_imin = 0x7fffffff; s_imax = -0x7fffffff - 1;
    s_umin = 0xffffffffu; s_umax = 0; s_and = 0xffffffffu; s_or = 0; s_xor = 0;
    s_inc = 0; s_dec = 10; s_exch = 0; s_ticket = 0; s_exsum = 0;
    s_fsum = 0.0f; s_fmax = -1.0e30f; s_dsum = 0.0; s_u64 = 0; s_prod = 1;
  }
  if (t < 16) s_hist[t] = 0;
  for (unsigned i = t; i < 1024; i += blockDim.x) s_hits[i] = 0;
  __syncthreads();

  unsigned v = in[blockIdx.x * blockDim.x + t];
  atomicAdd(&s_sum, (int)(v & 0xffff) - 32768);
  atomicMin(&s_imin, (int)v);
  atomicMax(&s_imax, (int)v);
  atomicMin(&s_umin, v);
  atomicMax(&s_umax, v);
  atomicAnd(&s_and, v | 0x10204080u);
  atomicOr(&s_or, v & 0x01010101u);
  atomicXor(&s_xor, v);
  atomicInc(&s_inc, 100u);        /* wraps to 0 after 100 */
  atomicDec(&s_dec, 50u);         /* 0 (or > 50) wraps to 50 */
  atomicAdd(&s_fsum, (float)(v & 0xff) * 0.25f);  /* exact: order does not matter */
  atomicAdd(&s_dsum, (double)(v >> 8) * 0.5);
  atomicAdd(&s_u64, (unsigned long long)v << 20);
  atomicMaxF(&s_fmax, (float)(int)v * 0.001f);
  {
    unsigned long long old = s_prod, seen;   /* product of odd numbers mod 2^64 */
    for (;;) {
      seen = atomicCAS(&s_prod, old, old * (unsigned long long)(v | 1u));
      if (seen == old) break;
      old = seen;
    }
  }
  atomicAdd(&s_hist[v & 15], 1);
  unsigned ticket = atomicAdd(&s_ticket, 1u);
  atomicAdd(&s_hits[ticket], 1);             /* every ticket taken exactly once */
  unsigned prev = atomicExch(&s_exch, t + 1);
  atomicAdd(&s_exsum, prev);                 /* sum of old values + final = sum of t+1 */
  __syncthreads();

  int all_once = __syncthreads_and(t >= blockDim.x || s_hits[t] == 1);
  if (t == 0) {
    unsigned *o = out + blockIdx.x * AS_OUT;
    o[0] = (unsigned)s_sum; o[1] = (unsigned)s_imin; o[2] = (unsigned)s_imax;
    o[3] = s_umin; o[4] = s_umax; o[5] = s_and; o[6] = s_or; o[7] = s_xor;
    o[8] = s_inc; o[9] = s_dec; o[10] = __float_as_uint(s_fsum);
    o[11] = (unsigned)__double_as_longlong(s_dsum);
    o[12] = (unsigned)(__double_as_longlong(s_dsum) >> 32);
    o[13] = (unsigned)s_u64; o[14] = (unsigned)(s_u64 >> 32);
    o[15] = __float_as_uint(s_fmax);
    o[16] = (unsigned)s_prod; o[17] = (unsigned)(s_prod >> 32);
    o[18] = s_ticket; o[19] = (unsigned)all_once; o[20] = s_exsum + s_exch;
    for (int k = 0; k < 16; k++) o[21 + k] = (unsigned)s_hist[k];
    for (int k = 37; k < AS_OUT; k++) o[k] = 0;
  }
}
