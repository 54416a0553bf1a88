// Device printf of shared-memory values (formats %d %u %f %x %s %c %lld %p
// omitted: pointers vary) and a passing assert; then a second kernel's
// failing assert must give cudaErrorAssert, sticky until cudaDeviceReset.
#include "qa.h"
#include <cassert>

__global__ void show(const int *in)
{
  __shared__ int s[8];
  __shared__ double d[8];
  s[threadIdx.x] = in[threadIdx.x] * 10;
  d[threadIdx.x] = in[threadIdx.x] / 4.0;
  __syncthreads();
  assert(s[7 - threadIdx.x] == in[7 - threadIdx.x] * 10);
  if (threadIdx.x < 2)
    printf("t%u s=%d rev=%d d=%.3f hex=%#x str=%s ch=%c ll=%lld\n", threadIdx.x, s[threadIdx.x],
           s[7 - threadIdx.x], d[threadIdx.x], (unsigned)s[threadIdx.x], "ok", 'A' + (int)threadIdx.x,
           (long long)s[threadIdx.x] * 1000000000LL);
}

__global__ void failing(const int *in)
{
  __shared__ int s[32];
  s[threadIdx.x] = in[threadIdx.x % 8];
  __syncthreads();
  assert(s[threadIdx.x] < 5); /* in[] holds 1..8: threads 4.. fail */
}

int main()
{
  int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int *d;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  show<<<1, 8>>>(d);
  CHECK(cudaDeviceSynchronize());
  fflush(stdout);
  failing<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT_EQ("assert error", 0, (int)e, (int)cudaErrorAssert);
  EXPECT_EQ("sticky", 0, (int)cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost), (int)cudaErrorAssert);
  CHECK(cudaDeviceReset());
  int *d2;
  CHECK(cudaMalloc(&d2, 4));
  CHECK(cudaFree(d2));
  return qa_done("printf_assert");
}
// qa-stdout: t0 s=10 rev=80 d=0.250 hex=0xa str=ok ch=A ll=10000000000
// qa-stdout: t1 s=20 rev=70 d=0.500 hex=0x14 str=ok ch=B ll=20000000000
// qa-allow: Assertion|assert|failing|SMEMU_ERR|printf_assert.cu|error: kernel|^  at|ERROR SUMMARY: 1 error$
