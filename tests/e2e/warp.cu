/* warp.cu (e2e corpus): warp intrinsics: shuffles (idx, up, down, xor, with
 * and without width), votes, __activemask in a divergent branch, sm_80+
 * reductions, match, and a shuffle reduction; warpPartial runs in a block
 * whose last warp is incomplete and builds its masks from __activemask. */

#define WP_OUT 24
#define FULL 0xffffffffu

__global__ void warpOps(const unsigned *in, unsigned *out, int n)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned v = in[gid];
  unsigned *o = out + gid * WP_OUT;
  o[0] = __shfl_sync(FULL, v, (lane * 7 + 3) & 31);
  o[1] = __shfl_up_sync(FULL, v, 3);
  o[2] = __shfl_down_sync(FULL, v, 5);
  o[3] = __shfl_xor_sync(FULL, v, 9);
  o[4] = __shfl_sync(FULL, v, lane + 1, 8);      /* within groups of 8 */
  o[5] = __shfl_up_sync(FULL, v, 2, 16);
  o[6] = __shfl_down_sync(FULL, v, 3, 8);
  o[7] = __ballot_sync(FULL, v & 1);
  o[8] = (unsigned)__all_sync(FULL, (v & 7) != 0) | (unsigned)__any_sync(FULL, (v & 0xff) == 0) << 1 |
         (unsigned)__all_sync(FULL, lane < 32) << 2 | (unsigned)__any_sync(FULL, lane == 40) << 3;
  if (v & 2)
    o[9] = __activemask();           /* the lanes that took this branch */
  else
    o[9] = ~__activemask();
  o[10] = __reduce_add_sync(FULL, v & 0xffff);
  o[11] = __reduce_min_sync(FULL, v);
  o[12] = (unsigned)__reduce_max_sync(FULL, (int)v);
  o[13] = __reduce_and_sync(FULL, v | 0x80808080u) ^ __reduce_or_sync(FULL, v & 0x01010101u);
  o[14] = __reduce_xor_sync(FULL, v);
  o[15] = __match_any_sync(FULL, v & 3);
  int pred;
  unsigned m = __match_all_sync(FULL, lane < 32 ? 5u : v, &pred);
  o[16] = m ^ (unsigned)pred;
  m = __match_all_sync(FULL, v, &pred);
  o[17] = m | (unsigned)pred;
  unsigned sum = v;
  for (int off = 16; off > 0; off /= 2)  /* butterfly sum: every lane gets it */
    sum += __shfl_xor_sync(FULL, sum, off);
  o[18] = sum;
  double d = (double)v * 0.5 + (double)lane; /* a 64-bit shuffle */
  double dn = __shfl_down_sync(FULL, d, 1);
  o[19] = (unsigned)__double_as_longlong(dn);
  o[20] = (unsigned)(__double_as_longlong(dn) >> 32);
  if (lane < 16)                   /* a shuffle among half of the warp */
    o[21] = __shfl_sync(0x0000ffffu, v, 15 - lane);
  else
    o[21] = __shfl_sync(0xffff0000u, v, 47 - lane);
  o[22] = __shfl_sync(FULL, (unsigned)__popc(__ballot_sync(FULL, v > 0x80000000u)), 0);
  o[23] = __shfl_sync(FULL, v, lane ^ 31) + __shfl_up_sync(FULL, v, 31);
}

/* Launched with a block that is not a multiple of 32: lanes past the end
 * do not exist, so masks come from __activemask. */
__global__ void warpPartial(const unsigned *in, unsigned *out, int n)
{
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned v = in[gid];
  unsigned *o = out + gid * 6;
  unsigned m = __activemask();
  unsigned cnt = (unsigned)__popc(m);
  o[0] = m;
  o[1] = __shfl_sync(m, v, (lane + 1) % cnt);
  o[2] = __reduce_add_sync(m, v >> 4);
  o[3] = __ballot_sync(m, v & 1);
  o[4] = __shfl_sync(m, v, cnt - 1 - lane);  /* reversed among the existing lanes */
  o[5] = (unsigned)__any_sync(m, v < 0x01000000u) | (unsigned)__all_sync(m, v >= 0x00100000u) << 1;
}
