/* ndrange.cl: every work-item records what the work-item functions return
 * (tests/unit/test_opencl.c checks them for 2-D and 3-D ranges). */

/* 20 values per work-item, at its linear global index
 * x + y * gsx + z * gsx * gsy: for d = 0, 1, 2, get_global_id(d),
 * get_local_id(d), get_group_id(d), get_local_size(d), get_num_groups(d),
 * get_global_size(d) at [6 d .. 6 d + 5]; get_global_offset(0..1) at 18, 19. */
__kernel void workItems(__global uint *out)
{
  size_t gx = get_global_size(0), gy = get_global_size(1);
  size_t lin = get_global_id(0) + get_global_id(1) * gx + get_global_id(2) * gx * gy;
  __global uint *p = out + lin * 20;
  for (uint d = 0; d < 3; d++) {
    p[6 * d + 0] = get_global_id(d);
    p[6 * d + 1] = get_local_id(d);
    p[6 * d + 2] = get_group_id(d);
    p[6 * d + 3] = get_local_size(d);
    p[6 * d + 4] = get_num_groups(d);
    p[6 * d + 5] = get_global_size(d);
  }
  p[18] = get_global_offset(0);
  p[19] = get_global_offset(1) + get_global_offset(2);
}

/* Out of range dimensions: get_global_id(3) and friends are 0, sizes 1. */
__kernel void outOfRange(__global uint *out, uint d)
{
  if (get_global_id(0) == 0) {
    out[0] = get_global_id(d);
    out[1] = get_local_id(d);
    out[2] = get_group_id(d);
    out[3] = get_local_size(d);
    out[4] = get_num_groups(d);
    out[5] = get_global_size(d);
  }
}
