/* stencil2d.cu: a 5-point 2-D stencil on 16x16 tiles with a one-cell
 * halo (18x18 shared tile; edge threads load the halo), then a variant
 * where each thread computes two horizontally adjacent outputs from a
 * 34x18 tile (reads of neighbouring words that ptxas may pair). */
#include "../../programs/prog.h"

#define T 16
#define W 128
#define H 64

__device__ float at(const float *g, int x, int y)
{
  return (x >= 0 && x < W && y >= 0 && y < H) ? g[y * W + x] : 0.f;
}

__global__ void stencil5(const float *g, float *o)
{
  __shared__ float tile[T + 2][T + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
  tile[ty + 1][tx + 1] = at(g, x, y);
  if (tx == 0) tile[ty + 1][0] = at(g, x - 1, y);
  if (tx == T - 1) tile[ty + 1][T + 1] = at(g, x + 1, y);
  if (ty == 0) tile[0][tx + 1] = at(g, x, y - 1);
  if (ty == T - 1) tile[T + 1][tx + 1] = at(g, x, y + 1);
  __syncthreads();
  o[y * W + x] = tile[ty + 1][tx + 1] * 4 - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] -
                 tile[ty + 1][tx + 2];
}

/* blocks of 16x16 threads, each two outputs: a 32x16 tile of outputs */
__global__ void stencil5_x2(const float *g, float *o)
{
  __shared__ float tile[T + 2][2 * T + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 2 * T, y = blockIdx.y * T + ty;
  for (int i = tx; i < 2 * T + 2; i += T) {
    tile[ty + 1][i] = at(g, x0 + i - 1, y);
    if (ty == 0) tile[0][i] = at(g, x0 + i - 1, y - 1);
    if (ty == T - 1) tile[T + 1][i] = at(g, x0 + i - 1, y + 1);
  }
  __syncthreads();
  int c = 2 * tx + 1;
  float l = tile[ty + 1][c - 1], m0 = tile[ty + 1][c], m1 = tile[ty + 1][c + 1], r = tile[ty + 1][c + 2];
  o[y * W + x0 + 2 * tx] = m0 * 4 - l - m1 - tile[ty][c] - tile[ty + 2][c];
  o[y * W + x0 + 2 * tx + 1] = m1 * 4 - m0 - r - tile[ty][c + 1] - tile[ty + 2][c + 1];
}

int main()
{
  float *h = (float *)malloc(W * H * 4), *o = (float *)malloc(W * H * 4);
  unsigned s = 7;
  for (int i = 0; i < W * H; i++) h[i] = (float)(lcg(&s) % 100);
  float *d, *dout;
  CHECK(cudaMalloc(&d, W * H * 4));
  CHECK(cudaMalloc(&dout, W * H * 4));
  CHECK(cudaMemcpy(d, h, W * H * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[2];
  for (int v = 0; v < 2; v++) {
    CHECK(cudaMemset(dout, 0, W * H * 4));
    if (v) stencil5_x2<<<dim3(W / (2 * T), H / T), dim3(T, T)>>>(d, dout);
    else stencil5<<<dim3(W / T, H / T), dim3(T, T)>>>(d, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o, dout, W * H * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
#define G(X, Y) (((X) >= 0 && (X) < W && (Y) >= 0 && (Y) < H) ? h[(Y) * W + (X)] : 0.f)
        float r = G(x, y) * 4 - G(x, y - 1) - G(x, y + 1) - G(x - 1, y) - G(x + 1, y);
        bad += o[y * W + x] != r;
      }
    hs[v] = fnv(o, W * H);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("stencil2d", bad, "%08x %08x", hs[0], hs[1]);
}
