/* barrier.cl: what barrier and the fences guarantee in OpenCL 1.2
 * (tests/unit/test_opencl.c); local sizes span several warps. */

/* After barrier(CLK_LOCAL_MEM_FENCE) every work-item sees the __local writes
 * of the whole work-group: out = the value of the work-item 33 places on. */
__kernel void barrierRotate(__global int *out)
{
  __local int s[512];
  uint lid = get_local_id(0), L = get_local_size(0);
  s[lid] = (int)(lid * 3 + 1 + get_group_id(0) * 1000);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[(lid + 33) % L];
}

/* Inclusive prefix sums of each work-group's slice (Hillis and Steele), in a
 * __local argument of 2 * local size ints used as two alternating halves:
 * every step waits for the previous one. */
__kernel void barrierScan(__global const int *in, __global int *out, __local int *buf)
{
  uint lid = get_local_id(0), L = get_local_size(0), src = 0;
  buf[lid] = in[get_global_id(0)];
  for (uint off = 1; off < L; off *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = buf[src * L + lid];
    if (lid >= off)
      v += buf[src * L + lid - off];
    src ^= 1;
    buf[src * L + lid] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[src * L + lid];
}

/* barrier(CLK_GLOBAL_MEM_FENCE) orders global memory inside the work-group:
 * each work-item reads what its neighbour wrote to buf. */
__kernel void barrierGlobal(__global int *buf, __global int *out)
{
  uint lid = get_local_id(0), L = get_local_size(0), base = get_group_id(0) * L;
  buf[base + lid] = (int)(base + lid) * 5 - 7;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[base + lid] = buf[base + (lid + L - 1) % L];
}

/* The fences order a work-item's own accesses and synchronise nobody: each
 * work-item reads back only what it wrote itself. */
__kernel void fences(__global int *out)
{
  __local int s[256];
  uint lid = get_local_id(0);
  s[lid] = (int)lid * 11;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  int a = s[lid];
  write_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = a;
  read_mem_fence(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] += s[lid];
}

#if __OPENCL_C_VERSION__ >= 200
/* OpenCL 2.0's work_group_barrier (built with -cl-std=CL2.0): the same as
 * barrierRotate, with both forms of the call. */
__kernel void workGroupBarrier(__global int *out)
{
  __local int s[512];
  uint lid = get_local_id(0), L = get_local_size(0);
  s[lid] = (int)(lid * 3 + 1 + get_group_id(0) * 1000);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int v = s[(lid + 33) % L];
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_device);
  s[lid] = v;
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  out[get_global_id(0)] = s[(lid + 1) % L];
}
#endif
