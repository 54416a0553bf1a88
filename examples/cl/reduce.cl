/* reduce.cl: sums of float arrays, one partial sum per work-group, in a
 * __local scratch buffer that the host sizes (a __local float * argument of
 * local-size floats). Two ways to pair the elements in the tree:
 *
 *   reduceSequential   step s adds scratch[i + s] into scratch[i] for i < s:
 *                      the active work-items are contiguous and read
 *                      consecutive words, so there are no bank conflicts;
 *   reduceInterleaved  step s (1, 2, 4, ...) has work-item i add
 *                      scratch[2*s*i + s] into scratch[2*s*i]: the stride
 *                      doubles every step and so do the bank conflicts.
 *
 * Both need a power-of-two local size. Each work-item first loads one element
 * (0 past the end of the input); work-item 0 writes the group's sum. */

__kernel void reduceSequential(__global const float *in, __global float *partial,
                               __local float *scratch, uint n)
{
  uint lid = get_local_id(0), gid = get_global_id(0);
  scratch[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}

__kernel void reduceInterleaved(__global const float *in, __global float *partial,
                                __local float *scratch, uint n)
{
  uint lid = get_local_id(0), gid = get_global_id(0);
  scratch[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < get_local_size(0); s *= 2) {
    uint i = 2 * s * lid;
    if (i < get_local_size(0))
      scratch[i] += scratch[i + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
