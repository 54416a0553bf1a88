// race.cu: a reversal that forgets its barrier: thread t reads the element
// thread 63 - t (another warp, for half the threads) writes, unordered.
extern "C" __global__ void missingBarrier(int *d)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = d[t];
  d[t] = s[63 - t];
}
