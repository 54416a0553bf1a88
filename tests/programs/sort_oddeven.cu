/* sort_oddeven.cu: odd-even transposition sort of 128 keys per block in
 * shared memory: 128 phases, alternately comparing (even, odd) and
 * (odd, even) neighbours, a barrier after each phase. */
#include "prog.h"

#define N 128

__global__ void oddEven(int *data)
{
  __shared__ int k[N];
  int t = threadIdx.x; /* N/2 threads: thread t owns pair 2t or 2t+1 */
  int *p = data + blockIdx.x * N;
  k[2 * t] = p[2 * t];
  k[2 * t + 1] = p[2 * t + 1];
  __syncthreads();
  for (int phase = 0; phase < N; phase++) {
    int i = 2 * t + (phase & 1);
    if (i + 1 < N) {
      int a = k[i], b = k[i + 1];
      if (a > b) k[i] = b, k[i + 1] = a;
    }
    __syncthreads();
  }
  p[2 * t] = k[2 * t];
  p[2 * t + 1] = k[2 * t + 1];
}

static int cmpi(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

int main()
{
  const int blocks = 24, n = blocks * N;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned s = 53;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 2001) - 1000;
  int *d;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  oddEven<<<blocks, N / 2>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, d, n * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) qsort(h + b * N, N, 4, cmpi);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += o[i] != h[i];
  CHECK(cudaFree(d));
  return result("sort_oddeven", bad, "min %d max %d hash %08x", o[0], o[N - 1], fnv(o, n));
}
