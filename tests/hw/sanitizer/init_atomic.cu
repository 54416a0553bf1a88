// initcheck: atomics on unwritten words, and a thread that reads back what
// it wrote in the same kernel (not an error).
#include "san.cuh"

__global__ void countUp(unsigned *counters, int *buf)
{
  unsigned t = threadIdx.x;
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counters + (t & 3)) : "memory");
  buf[t] = (int)t;
  __threadfence();
  buf[t] += (int)(old & 0);
}

int main()
{
  unsigned *counters = 0;
  int *buf = 0;
  CALL(cudaMalloc(&counters, 4 * sizeof(unsigned)));
  CALL(cudaMalloc(&buf, 32 * sizeof(int)));
  ADDR("counters", counters);
  ADDR("buf", buf);
  countUp<<<1, 32>>>(counters, buf);
  SYNC("countUp");
  CALL(cudaFree(counters));
  CALL(cudaFree(buf));
  return 0;
}
