// generic.cu: shared memory reached through a generic pointer (it may point
// to shared or global memory, so the compiler emits plain ld, not
// ld.shared): the bank model must still see the access. Each lane reads
// p[lane * 32]: 32 words in bank 0, a 32-way conflict.
extern "C" __global__ void genericStride(float *out, int useShared)
{
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += 32) s[i] = (float)i;
  __syncwarp();
  const float *p = useShared ? s : out;
  out[threadIdx.x] = p[threadIdx.x * 32];
}
