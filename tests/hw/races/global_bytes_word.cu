/* global_bytes_word: warp 0 stores bytes 0 and 1 of out[0..31] (chars) and
 * the low halfword of out[32..63]; then (flag) warp 1 stores bytes 2 and 3
 * and the high halfwords. No byte is written twice: no race on global
 * memory (racecheck does not track global memory; the output is judged). */
#include "races.cuh"

extern "C" __global__ void global_bytes_word(int *out, const int *in, int n)
{
  int t = threadIdx.x, lane = t & 31;
  char *b = (char *)out;
  short *h = (short *)out;
  if (t < 32) {
    b[4 * lane] = (char)in[lane];                //@G1
    b[4 * lane + 1] = (char)(lane + 1);          //@G2
    h[2 * (32 + lane)] = (short)in[lane + 32];   //@G3
    races_signal(out);
  } else {
    races_wait(out);
    b[4 * lane + 2] = (char)(lane + 2);          //@G4
    b[4 * lane + 3] = (char)(lane + 3);          //@G5
    h[2 * (32 + lane) + 1] = (short)(lane + 7);  //@G6
  }
}
