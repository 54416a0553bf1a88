// cooperative_groups::memcpy_async into shared memory with cg::wait (cp.async
// on sm_80+), double-buffered over tiles: each block sums its rows.
#include "qa.h"
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void rowSums(const float *in, float *out, int cols)
{
  __shared__ float buf[2][256];
  cg::thread_block b = cg::this_thread_block();
  const float *row = in + blockIdx.x * cols;
  int ntiles = cols / 256;
  float acc = 0.f;
  cg::memcpy_async(b, buf[0], row, sizeof(float) * 256);
  for (int k = 0; k < ntiles; k++) {
    if (k + 1 < ntiles) {
      cg::memcpy_async(b, buf[(k + 1) & 1], row + (k + 1) * 256, sizeof(float) * 256);
      cg::wait_prior<1>(b);
    } else {
      cg::wait(b);
    }
    acc += buf[k & 1][b.thread_rank()];
    b.sync();
  }
  __shared__ float red[256];
  red[b.thread_rank()] = acc;
  b.sync();
  for (int w = 128; w > 0; w >>= 1) {
    if ((int)b.thread_rank() < w) red[b.thread_rank()] += red[b.thread_rank() + w];
    b.sync();
  }
  if (b.thread_rank() == 0) out[blockIdx.x] = red[0];
}

int main()
{
  const int rows = 6, cols = 256 * 5;
  float *h = (float *)malloc(rows * cols * 4), o[rows];
  for (int i = 0; i < rows * cols; i++) h[i] = (float)(i % 9) - 4.f;
  float *d, *dout;
  CHECK(cudaMalloc(&d, rows * cols * 4));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, rows * cols * 4, cudaMemcpyHostToDevice));
  rowSums<<<rows, 256>>>(d, dout, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) {
    float s = 0.f;
    for (int c = 0; c < cols; c++) s += h[r * cols + c];
    EXPECT_EQ("rowsum", r, o[r], s);
  }
  return qa_done("memcpy_async");
}
