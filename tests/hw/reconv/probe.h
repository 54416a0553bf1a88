// probe.h: the probe of the reconvergence kernels (reconv.cu, loops.cu):
// P(out, s, v) writes, for each lane that reaches it, what the warp-wide
// operations see there (reconv.cu's header says which fields).
#ifndef RECONV_PROBE_H
#define RECONV_PROBE_H

#define RC_SLOTS 16
#define RC_FIELDS 5
#define RC_THREADS 64

__device__ __forceinline__ void P(unsigned *out, int s, unsigned v) {
  unsigned am = __activemask();
  unsigned *o = out + (s * RC_THREADS + threadIdx.x) * RC_FIELDS;
  o[0] = am;
  o[1] = __ballot_sync(am, (v >> 16) & 1);
  o[2] = __shfl_sync(am, v, __ffs(am) - 1);
  o[3] = __match_any_sync(am, (v >> 17) & 3);
  o[4] = __reduce_add_sync(am, v >> 8);
}

#endif
