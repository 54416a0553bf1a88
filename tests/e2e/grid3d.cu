/* grid3d.cu (e2e corpus): a 3-D grid of 3-D blocks whose size (24 threads)
 * is not a multiple of the warp: every thread reports its coordinates, the
 * launch shape and its lane, at its linear position in the grid. */

#define G3_OUT 6

__global__ void grid3d(const unsigned *in, unsigned *out, int n)
{
  unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  unsigned gid = bid * nthreads + tid;
  unsigned lane, *o = out + gid * G3_OUT;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  o[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  o[1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  o[2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  o[3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
  o[4] = lane | (tid / 32) << 8;
  o[5] = in[gid] ^ gid;
}
