/* stencil1d.cu: a 1-D stencil of radius 3 with a shared tile and halo:
 * the first RADIUS threads of a block also load the left and right halo. */
#include "prog.h"

#define RADIUS 3
#define BLOCK 128

__global__ void stencil(const int *in, int *out, int n)
{
  __shared__ int tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    tile[l - RADIUS] = left >= 0 ? in[left] : 0;
    tile[l + BLOCK] = right < n ? in[right] : 0;
  }
  __syncthreads();
  int acc = 0;
  for (int o = -RADIUS; o <= RADIUS; o++) acc += (o + 4) * tile[l + o];
  if (g < n) out[g] = acc;
}

int main()
{
  const int n = 30000, blocks = (n + BLOCK - 1) / BLOCK;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned s = 59;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 100);
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  stencil<<<blocks, BLOCK>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int acc = 0;
    for (int k = -RADIUS; k <= RADIUS; k++)
      if (i + k >= 0 && i + k < n) acc += (k + 4) * h[i + k];
    bad += o[i] != acc;
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("stencil1d", bad, "blocks %d hash %08x", blocks, fnv(o, n));
}
