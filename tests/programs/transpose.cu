/* transpose.cu: matrix transpose through a 32x32 shared tile, 32x8
 * threads per block, once with tile[32][32] (column reads conflict 32 ways)
 * and once padded to tile[32][33] (no conflicts). */
#include "prog.h"

#define TILE 32
#define ROWS 8

template <int PAD>
__global__ void transpose(const float *in, float *out, int w, int h)
{
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
  const int w = 192, h = 96;
  float *a = (float *)malloc(w * h * 4), *o1 = (float *)malloc(w * h * 4), *o2 = (float *)malloc(w * h * 4);
  for (int i = 0; i < w * h; i++) a[i] = (float)i;
  float *d, *dout;
  CHECK(cudaMalloc(&d, w * h * 4));
  CHECK(cudaMalloc(&dout, w * h * 4));
  CHECK(cudaMemcpy(d, a, w * h * 4, cudaMemcpyHostToDevice));
  dim3 grid(w / TILE, h / TILE), block(TILE, ROWS);
  transpose<0><<<grid, block>>>(d, dout, w, h);
  CHECK(cudaMemcpy(o1, dout, w * h * 4, cudaMemcpyDeviceToHost));
  transpose<1><<<grid, block>>>(d, dout, w, h);
  CHECK(cudaMemcpy(o2, dout, w * h * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) bad += o1[x * h + y] != a[y * w + x] || o2[x * h + y] != a[y * w + x];
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("transpose", bad, "%dx%d hash %08x %08x", w, h, fnv(o1, w * h), fnv(o2, w * h));
}
