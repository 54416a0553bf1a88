/* conv2d.cu: a 5x5 convolution of an image with a 16x16 output tile per
 * block: the block loads a 20x20 input tile (tile plus a 2-pixel halo)
 * into shared memory in a strided loop, then each thread convolves. */
#include "prog.h"

#define TILE 16
#define R 2
#define IN_TILE (TILE + 2 * R)

__constant__ int mask[2 * R + 1][2 * R + 1];

__global__ void conv2d(const int *img, int *out, int w, int h)
{
  __shared__ int tile[IN_TILE][IN_TILE];
  int x0 = blockIdx.x * TILE - R, y0 = blockIdx.y * TILE - R;
  int t = threadIdx.y * TILE + threadIdx.x;
  for (int i = t; i < IN_TILE * IN_TILE; i += TILE * TILE) {
    int ty = i / IN_TILE, tx = i % IN_TILE, gx = x0 + tx, gy = y0 + ty;
    tile[ty][tx] = gx >= 0 && gx < w && gy >= 0 && gy < h ? img[gy * w + gx] : 0;
  }
  __syncthreads();
  int acc = 0;
  for (int dy = 0; dy <= 2 * R; dy++)
    for (int dx = 0; dx <= 2 * R; dx++) acc += mask[dy][dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = acc;
}

int main()
{
  const int w = 100, h = 70;
  int hm[2 * R + 1][2 * R + 1];
  for (int i = 0; i <= 2 * R; i++)
    for (int j = 0; j <= 2 * R; j++) hm[i][j] = (i * 3 + j) % 5 - 2;
  int *img = (int *)malloc(w * h * 4), *o = (int *)malloc(w * h * 4);
  unsigned s = 61;
  for (int i = 0; i < w * h; i++) img[i] = (int)(lcg(&s) % 256);
  int *d, *dout;
  CHECK(cudaMalloc(&d, w * h * 4));
  CHECK(cudaMalloc(&dout, w * h * 4));
  CHECK(cudaMemcpy(d, img, w * h * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(mask, hm, sizeof hm));
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, TILE);
  conv2d<<<grid, block>>>(d, dout, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, w * h * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int acc = 0;
      for (int dy = -R; dy <= R; dy++)
        for (int dx = -R; dx <= R; dx++) {
          int gx = x + dx, gy = y + dy;
          if (gx >= 0 && gx < w && gy >= 0 && gy < h) acc += hm[dy + R][dx + R] * img[gy * w + gx];
        }
      bad += o[y * w + x] != acc;
    }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("conv2d", bad, "hash %08x", fnv(o, w * h));
}
