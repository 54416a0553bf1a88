/* qmatvec.cu: a quantised matrix-vector product y = scale * (W x) with
 * int8 weights: the block stages x in shared memory, each warp takes rows
 * and each lane 4 consecutive columns per step (one char4 of W, four
 * floats of x read as scalars: ptxas merges them), warp shuffles add the
 * lanes. A second kernel keeps x quantised too (int8 in shared, dp4a). */
#include "../../programs/prog.h"

#define K 512
#define ROWS 64
#define BLOCK 128

__global__ void qmv_f32x(const char4 *W, const float *x, const float *scale, float *y)
{
  __shared__ float xs[K];
  for (int k = threadIdx.x; k < K; k += BLOCK) xs[k] = x[k];
  __syncthreads();
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int r = blockIdx.x * (BLOCK / 32) + warp; r < ROWS; r += gridDim.x * (BLOCK / 32)) {
    float acc = 0;
    for (int k = lane * 4; k < K; k += 128) {
      char4 w = W[(r * K + k) / 4];
      acc += w.x * xs[k] + w.y * xs[k + 1] + w.z * xs[k + 2] + w.w * xs[k + 3];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) y[r] = acc * scale[r];
  }
}

__global__ void qmv_i8x(const int *W, const signed char *xq, const float *scale, float *y)
{
  __shared__ signed char xs[K];
  for (int k = threadIdx.x; k < K; k += BLOCK) xs[k] = xq[k];
  __syncthreads();
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int r = blockIdx.x * (BLOCK / 32) + warp; r < ROWS; r += gridDim.x * (BLOCK / 32)) {
    int acc = 0;
    for (int k = lane * 4; k < K; k += 128) {
      int xv = *(const int *)&xs[k];
      acc = __dp4a(W[(r * K + k) / 4], xv, acc);
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) y[r] = acc * scale[r];
  }
}

int main()
{
  signed char *w = (signed char *)malloc(ROWS * K), xq[K];
  float x[K], sc[ROWS], y[ROWS];
  unsigned s = 17;
  for (int i = 0; i < ROWS * K; i++) w[i] = (signed char)((int)(lcg(&s) % 255) - 127);
  for (int k = 0; k < K; k++) xq[k] = (signed char)((int)(lcg(&s) % 31) - 15), x[k] = xq[k];
  for (int r = 0; r < ROWS; r++) sc[r] = 1.0f / (1 + r % 4);
  char4 *dw;
  float *dx, *ds, *dy;
  signed char *dxq;
  CHECK(cudaMalloc(&dw, ROWS * K));
  CHECK(cudaMalloc(&dx, sizeof x));
  CHECK(cudaMalloc(&dxq, sizeof xq));
  CHECK(cudaMalloc(&ds, sizeof sc));
  CHECK(cudaMalloc(&dy, sizeof y));
  CHECK(cudaMemcpy(dw, w, ROWS * K, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dxq, xq, sizeof xq, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds, sc, sizeof sc, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[2];
  for (int v = 0; v < 2; v++) {
    if (v) qmv_i8x<<<4, BLOCK>>>((const int *)dw, dxq, ds, dy);
    else qmv_f32x<<<4, BLOCK>>>(dw, dx, ds, dy);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
    for (int r = 0; r < ROWS; r++) {
      int acc = 0; /* |acc| < 2^24: exact in float in any order */
      for (int k = 0; k < K; k++) acc += w[r * K + k] * xq[k];
      bad += y[r] != acc * sc[r];
    }
    hs[v] = fnv(y, ROWS);
  }
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dxq));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dy));
  return result("qmatvec", bad, "%08x %08x", hs[0], hs[1]);
}
