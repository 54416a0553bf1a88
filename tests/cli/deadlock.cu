// deadlock.cu: the two warps of a block wait at two different named
// barriers, each needing all 64 threads: neither can ever complete.
extern "C" __global__ void twoBarriers(int *d)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  if (t < 32) asm volatile("bar.sync 1, 64;");
  else asm volatile("bar.sync 2, 64;");
  d[t] = s[63 - t];
}
