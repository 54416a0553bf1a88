__constant float ctab[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__constant int ptrs_src[2] = {7, 8};
__constant int gv = 5;
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i] * ctab[i & 3];
}
__kernel void lred(__global float *in, __global float *out, __local float *tmp) {
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
__kernel void sh(__global int *o) {
  __local int buf[64];
  buf[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_local_id(0)] = buf[63 - get_local_id(0)] + gv;
  atomic_add(&o[0], 1);
}
