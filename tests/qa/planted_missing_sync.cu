// A student's tiled 1-D stencil that forgot the __syncthreads() between
// loading the halo and using it: warps read halo cells other warps write.
// The result may even be right under a fixed warp order; the race check
// must report an error between warps (Write at the load, Read at the use).
// qa-expect: ^Error: Race reported between (Write|Read) access at .*planted_missing_sync.cu:(1[4-9]|2[01])
// qa-expect: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \([1-9][0-9]* errors?
#include "qa.h"

#define R 2
__global__ void stencil(const int *in, int *out, int n)
{
  __shared__ int tile[256 + 2 * R];
  int g = blockIdx.x * 256 + threadIdx.x, l = threadIdx.x + R;
  tile[l] = g < n ? in[g] : 0;
  if (threadIdx.x < R) {
    tile[l - R] = g >= R ? in[g - R] : 0;
    tile[l + 256] = g + 256 < n ? in[g + 256] : 0;
  }
  /* __syncthreads() missing here */
  int s = 0;
  for (int k = -R; k <= R; k++) s += tile[l + k];
  if (g < n) out[g] = s;
}

int main()
{
  const int n = 512;
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = i % 10;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  stencil<<<n / 256, 256>>>(d, dout, n);
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  return qa_done("planted_missing_sync"); /* the values are not the point */
}
