/* local_args.cl: __local pointer arguments of sizes the host chooses, next to
 * static __local arrays (tests/unit/test_opencl.c). */

/* Fills a (na bytes) and b (nb bytes) with patterns of their indices and the
 * static arrays with constants, waits, and copies everything out: per group,
 * outA gets a, outB gets b. Work-item 0 of group 0 writes the addresses of s1,
 * s2, a and b to addr[0..3] and 1 to addr[4] when the static arrays survived
 * the fill (overlapping buffers would clobber them). */
__kernel void localLayout(__global ulong *addr, __global uchar *outA, __global uchar *outB,
                          __local uchar *a, uint na, __local uchar *b, uint nb)
{
  __local int s1[3];
  __local double s2[5];
  uint lid = get_local_id(0), L = get_local_size(0), g = get_group_id(0);
  if (lid < 3)
    s1[lid] = -1 - (int)g;
  if (lid < 5)
    s2[lid] = 2.5 + g;
  for (uint i = lid; i < na; i += L)
    a[i] = (uchar)(i * 7 + 1 + g);
  for (uint i = lid; i < nb; i += L)
    b[i] = (uchar)(i * 13 + 5 + g);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < na; i += L)
    outA[g * na + i] = a[i];
  for (uint i = lid; i < nb; i += L)
    outB[g * nb + i] = b[i];
  if (lid == 0 && g == 0) {
    addr[0] = (ulong)s1;
    addr[1] = (ulong)s2;
    addr[2] = (ulong)a;
    addr[3] = (ulong)b;
    addr[4] = s1[0] == -1 && s1[2] == -1 && s2[0] == 2.5 && s2[4] == 2.5;
  }
}

/* A float4 buffer after a 1-byte one: vector loads and stores need it
 * 16-byte aligned. out[gid] = the element of the next work-item, rotated. */
__kernel void localVector(__global float4 *out, __local uchar *pad, __local float4 *v)
{
  uint lid = get_local_id(0), L = get_local_size(0);
  if (lid == 0)
    pad[0] = 1;
  v[lid] = (float4)(lid, lid + 0.5f, -(float)lid, pad[0] * 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v[(lid + 1) % L];
}
