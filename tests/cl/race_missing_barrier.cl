/* race_missing_barrier.cl: the tutorial's reversal through __local memory,
 * once without the barrier between the write and the read (a race between
 * work-items of different warps that the race checker must report at the two
 * marked lines) and once with it (no hazard). The test finds the lines by
 * their markers. One work-group of n work-items, n <= 256. */

__kernel void reverseNoBarrier(__global int *d, int n)
{
  __local int s[256];
  int t = get_local_id(0);
  s[t] = d[t]; /* RACE-WRITE */
  /* barrier(CLK_LOCAL_MEM_FENCE) is missing here */
  d[t] = s[n - t - 1]; /* RACE-READ */
}

__kernel void reverseBarrier(__global int *d, int n)
{
  __local int s[256];
  int t = get_local_id(0);
  s[t] = d[t];
  barrier(CLK_LOCAL_MEM_FENCE);
  d[t] = s[n - t - 1];
}
