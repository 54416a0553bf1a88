// reconv.cu: warp-synchronous operations at the joins of divergent control
// flow. Every kernel runs on one block of 64 threads (two warps) with
// out = RC_SLOTS * 64 * RC_FIELDS words (pre-filled with 0x55 bytes) and
// in = reconv_inputs.h. At a probe P(s) each arriving lane writes, to
// out[(s * 64 + tid) * RC_FIELDS + f]:
//   f 0  __activemask()
//   f 1  __ballot_sync(am, bit 16 of v)
//   f 2  __shfl_sync(am, v, lowest lane of am)
//   f 3  __match_any_sync(am, bits 17..18 of v)
//   f 4  __reduce_add_sync(am, v >> 8)
// (am = the lanes __activemask() reported), so a probe shows which lanes
// run together there. A probe a lane never reaches keeps 0x55555555.
// Probes sit inside the branch arms too, which keeps nvcc from turning the
// branches into selects. The PTX is checked in (reconv.ptx, regen.sh);
// driver.cu runs it on a GPU, test_reconv.c runs it on smemu.

#include "probe.h"

// if { if/else; inner join } else; outer join
extern "C" __global__ void nested_if(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  P(out, 0, v);
  if (v & 1) {
    P(out, 1, v);
    if (v & 2) P(out, 2, v);
    else P(out, 3, v);
    P(out, 4, v);  // inner join
  } else {
    P(out, 5, v);
  }
  P(out, 6, v);  // outer join
}

// three levels, an if without else inside, else-if chain outside
extern "C" __global__ void nested3(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  if (v & 1) {
    if (v & 2) {
      if (v & 4) P(out, 0, v);
      else P(out, 1, v);
      P(out, 2, v);  // innermost join
    }
    P(out, 3, v);  // middle join (after an if without else)
    if (v & 8) P(out, 4, v);
    P(out, 5, v);
  } else if (v & 16) {
    P(out, 6, v);
    if (v & 2) P(out, 7, v);
    P(out, 8, v);
  } else {
    P(out, 9, v);
  }
  P(out, 10, v);  // outer join
}

// sequential regions: each join must give back the whole warp
extern "C" __global__ void sequential(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  if (v & 1) P(out, 0, v);
  P(out, 1, v);
  if (v & 2) P(out, 2, v);
  else P(out, 3, v);
  P(out, 4, v);
  if (v & 4) P(out, 5, v);
  P(out, 6, v);
  if ((v & 24) == 8) P(out, 7, v);
  else if ((v & 24) == 16) P(out, 8, v);
  P(out, 9, v);
}

// a loop with a data-dependent break and an if inside the body
extern "C" __global__ void loop_break(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < 6; i++) {
    if (((v >> (2 * i)) & 3) == 3) break;
    if ((v >> (12 + i)) & 1) P(out, 6 + i, v);
    P(out, i, v);  // join inside the body
  }
  P(out, 12, v);  // after the loop: the lanes that broke out rejoin
}

// continue and break in one loop
extern "C" __global__ void loop_continue(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  unsigned stop = (v >> 28) & 7;
#pragma unroll 1
  for (unsigned i = 0; i < 8; i++) {
    if (!((v >> i) & 1)) continue;
    P(out, i, v);
    if (i >= stop) break;
  }
  P(out, 8, v);
}

// a do-while loop whose trip count differs per lane, if/else in the body
extern "C" __global__ void do_while(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  int n = (v & 3) + 1, i = 0;
  do {
    if ((v >> (4 + i)) & 1) P(out, i, v);
    else P(out, 4 + i, v);
    P(out, 8 + i, v);
    i++;
  } while (i < n);
  P(out, 12, v);
}

// early returns: lanes leave the kernel inside divergent regions
extern "C" __global__ void early_return(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  P(out, 0, v);
  if ((v & 3) == 0) {
    P(out, 1, v);
    return;
  }
  P(out, 2, v);
  if (v & 4) {
    P(out, 3, v);
    if (v & 8) return;
    P(out, 4, v);
  }
  P(out, 5, v);
  if (v & 16) {
    if (v & 32) {
      P(out, 6, v);
      return;
    }
    P(out, 7, v);
  }
  P(out, 8, v);
}

// a switch with a fall-through and a branch inside one case
extern "C" __global__ void switch_case(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  switch (v % 5) {
  case 0: P(out, 0, v); break;
  case 1: P(out, 1, v);  // falls through
  case 2: P(out, 2, v); break;
  case 3:
    P(out, 3, v);
    if (v & 32) P(out, 4, v);
    P(out, 5, v);
    break;
  default: P(out, 6, v);
  }
  P(out, 7, v);
}

// divergence inside a function that is not inlined, called from both arms
__device__ __noinline__ void callee(unsigned *out, int s, unsigned v) {
  if (v & 64) {
    P(out, s, v);
    return;
  }
  P(out, s + 1, v);
  if (v & 128) P(out, s + 2, v);
  P(out, s + 3, v);
}

extern "C" __global__ void call_divergent(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  if (v & 1) callee(out, 0, v);
  else callee(out, 4, v);
  P(out, 8, v);
}
