// qa-manual: run by run.sh's schedule check, not as a corpus program.
// A racy kernel whose result depends on the warp order (each warp reads the
// next warp's slot with no barrier): SMEMU_SCHEDULE=random:SEED must change
// the order (another checksum than the fixed schedule's) reproducibly.
#include <cstdio>
__global__ void k(int *out)
{
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x + 1;
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256];
}
int main()
{
  int *d, h[256];
  cudaMalloc(&d, sizeof h);
  k<<<1, 256>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  unsigned long long s = 0;
  for (int i = 0; i < 256; i++) s = s * 1000003 + (unsigned)h[i];
  printf("checksum %llu\n", s);
  return 0;
}
