// The launch gives 32 ints of dynamic shared memory to a 64-thread block
// (the classic bytes-vs-elements slip): thread 32's store is out of bounds.
// smemu must stop the kernel naming the kernel, block, thread, source line,
// and the program must see cudaErrorIllegalAddress.
// qa-expect: kernel .*oobStore.*block \(0,0,0\) thread \(32,0,0\): out-of-bounds write of 4 bytes at shared
// qa-expect: at 'st\.shared.*planted_oob\.cu:13
#include "qa.h"

__global__ void oobStore(int *out)
{
  extern __shared__ int buf[];
  int t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  out[t] = buf[63 - t];
}

int main()
{
  int *d;
  CHECK(cudaMalloc(&d, 64 * 4));
  oobStore<<<1, 64, 32 * sizeof(int)>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT_EQ("error", 0, (int)e, (int)cudaErrorIllegalAddress);
  return qa_done("planted_oob");
}
