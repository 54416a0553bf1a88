// initcheck: bytes written by one kernel, read by the next. The first kernel
// writes bytes 0..5 one at a time; the second has four threads read ints
// 0..3: int 0 is written, int 1 half written (bytes 4,5 of 4..7), ints 2
// and 3 unwritten. A third kernel reads shorts 0..7 (shorts 0..2 written).
#include "san.cuh"

__global__ void writeBytes(unsigned char *p)
{
  for (int k = 0; k < 6; k++)
    p[k] = (unsigned char)(k + 1);
}

__global__ void readInts(int *out, const int *p)
{
  int t = threadIdx.x;
  out[t] = p[t];
}

__global__ void readShorts(int *out, const short *p)
{
  int t = threadIdx.x;
  out[t] = p[t];
}

int main()
{
  unsigned char *p = 0;
  int *out = 0;
  CALL(cudaMalloc(&p, 64));
  CALL(cudaMalloc(&out, 64));
  ADDR("p", p);
  ADDR("out", out);
  writeBytes<<<1, 1>>>(p);
  SYNC("writeBytes");
  readInts<<<1, 4>>>(out, (const int *)p);
  SYNC("readInts");
  readShorts<<<1, 8>>>(out, (const short *)p);
  SYNC("readShorts");
  int h[8];
  CALL(cudaMemcpy(h, out, 4, cudaMemcpyDeviceToHost));
  printf("h[0] %d\n", h[0]);
  CALL(cudaFree(p));
  CALL(cudaFree(out));
  return 0;
}
