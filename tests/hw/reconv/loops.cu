// loops.cu: more loop shapes for the reconvergence probes of reconv.cu (same
// probe P, same inputs, one block of 64 threads): exits at the loop's top,
// breaks in an else arm, a break out of an inner loop, a return and a break
// in one loop, and continue + break in a do-while. driver.cu runs them on a
// GPU (driver MODULE OUTDIR KERNEL...), test_reconv.c on smemu.

#include "probe.h"

// a while loop whose test leaves at the top, an if/else in the body
extern "C" __global__ void while_top(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  unsigned i = 0;
#pragma unroll 1
  while (((v >> i) & 3) != 0 && i < 6) {
    if ((v >> (8 + i)) & 1) P(out, i, v);
    else P(out, 6 + i, v);
    P(out, 12, v);
    i++;
  }
  P(out, 13, v);
}

// the break sits in the else arm; the arms join before the latch
extern "C" __global__ void break_else(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#pragma unroll 1
  for (unsigned i = 0; i < 6; i++) {
    if ((v >> i) & 1) {
      P(out, i, v);
    } else {
      P(out, 6, v);
      if ((v >> (8 + i)) & 1) break;
      P(out, 7, v);
    }
    P(out, 8 + (i & 3), v);
  }
  P(out, 12, v);
}

// a break out of an inner loop, a continue of the outer one
extern "C" __global__ void nested_break(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#pragma unroll 1
  for (unsigned i = 0; i < 3; i++) {
    if (((v >> (20 + i)) & 1) == 0) continue;
#pragma unroll 1
    for (unsigned j = 0; j < 4; j++) {
      if ((v >> (i * 4 + j)) & 1) break;
      P(out, i * 4 + j, v);
    }
    P(out, 12 + i, v);
  }
  P(out, 15, v);
}

// a return and a break in one loop
extern "C" __global__ void return_break(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
#pragma unroll 1
  for (unsigned i = 0; i < 5; i++) {
    if (((v >> (2 * i)) & 3) == 3) return;
    P(out, i, v);
    if (((v >> (2 * i)) & 3) == 0) break;
    P(out, 5 + i, v);
  }
  P(out, 10, v);
}

// continue and break in a do-while whose trip count differs per lane
extern "C" __global__ void do_continue(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  unsigned i = 0, n = (v & 7) + 1;
#pragma unroll 1
  do {
    i++;
    if ((v >> (4 + i)) & 1) continue;
    P(out, i, v);
    if ((v >> (12 + i)) & 1) break;
    P(out, 9 + (i & 3), v);
  } while (i < n);
  P(out, 14, v);
}
