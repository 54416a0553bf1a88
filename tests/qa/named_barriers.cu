// Named barriers as warp-specialised kernels use them (inline PTX): warps
// 0-1 produce into a shared ring, bar.arrive on barrier 1; warps 2-3 wait
// with bar.sync 1, 128, consume, then signal "slot free" on barrier 2.
#include "qa.h"

__device__ __forceinline__ void barSync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void barArrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void prodCons(const int *in, int *out, int rounds)
{
  __shared__ int ring[64];
  int t = threadIdx.x;
  bool producer = t < 64;
  for (int r = 0; r < rounds; r++) {
    if (producer) {
      if (r > 0) barSync(2, 128); /* wait until the consumers freed the slot */
      ring[t] = in[blockIdx.x * rounds * 64 + r * 64 + t] * 2;
      barArrive(1, 128);
    } else {
      barSync(1, 128); /* wait for the data */
      int c = t - 64;
      out[blockIdx.x * rounds * 64 + r * 64 + c] = ring[63 - c] + 1;
      if (r + 1 < rounds) barArrive(2, 128);
    }
  }
}

int main()
{
  const int rounds = 5, grid = 3, n = grid * rounds * 64;
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 1000;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  prodCons<<<grid, 128>>>(d, dout, rounds);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i - i % 64, c = i % 64;
    EXPECT_EQ("out", i, o[i], h[base + 63 - c] * 2 + 1);
  }
  return qa_done("named_barriers");
}
