/* raw_two_readers: after a barrier, warp 0 overwrites s[0..31]; then
 * (flag 0) warp 1 reads them, then (flag 1) warp 2 reads them. Both reads
 * race with the write; whether racecheck names the second one shows
 * whether it keeps the last write apart from the last read. */
#include "races.cuh"

extern "C" __global__ void raw_two_readers(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    s[lane] = -in[lane];                         //@W
    races_signal_n(out, 0);
  } else if (t < 64) {
    races_wait_n(out, 0);
    out[t] = s[lane];                            //@R1
    races_signal_n(out, 1);
  } else {
    races_wait_n(out, 1);
    out[t] = s[lane] + 1;                        //@R2
  }
}
