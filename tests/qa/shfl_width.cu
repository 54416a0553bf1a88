// __shfl_*_sync with sub-warp widths (4, 8, 16) as segmented reductions and
// scans, results staged in shared memory and read back transposed.
#include "qa.h"

template <int W>
__global__ void seg(const int *in, int *sum, int *scan, int *bcast, int *xr)
{
  __shared__ int s[4][128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  int r = v;
  for (int o = W / 2; o > 0; o /= 2) r += __shfl_down_sync(0xffffffffu, r, o, W);
  int x = v;
  for (int o = 1; o < W; o *= 2) {
    int y = __shfl_up_sync(0xffffffffu, x, o, W);
    if ((t % W) >= o) x += y;
  }
  int b = __shfl_sync(0xffffffffu, v, W - 1, W); /* last lane of each segment */
  int z = v;
  for (int o = W / 2; o > 0; o /= 2) z = max(z, __shfl_xor_sync(0xffffffffu, z, o, W));
  s[0][t] = r; s[1][t] = x; s[2][t] = b; s[3][t] = z;
  __syncthreads();
  int u = blockDim.x - 1 - t; /* write out reversed to use shared */
  int j = blockIdx.x * blockDim.x + u;
  sum[j] = s[0][u]; scan[j] = s[1][u]; bcast[j] = s[2][u]; xr[j] = s[3][u];
}

template <int W>
static void check(const int *h, int n, const int *dIn, int *d[4])
{
  seg<W><<<n / 128, 128>>>(dIn, d[0], d[1], d[2], d[3]);
  CHECK(cudaGetLastError());
  int *o[4];
  for (int k = 0; k < 4; k++) {
    o[k] = (int *)malloc(n * 4);
    CHECK(cudaMemcpy(o[k], d[k], n * 4, cudaMemcpyDeviceToHost));
  }
  for (int i = 0; i < n; i++) {
    int s0 = i - i % W, sum = 0, sc = 0, mx = -1 << 30;
    for (int k = 0; k < W; k++) { sum += h[s0 + k]; mx = mx > h[s0 + k] ? mx : h[s0 + k]; }
    for (int k = s0; k <= i; k++) sc += h[k];
    if (i % W == 0) EXPECT_EQ("sum", W * 100000 + i, o[0][i], sum);
    EXPECT_EQ("scan", W * 100000 + i, o[1][i], sc);
    EXPECT_EQ("bcast", W * 100000 + i, o[2][i], h[s0 + W - 1]);
    EXPECT_EQ("xormax", W * 100000 + i, o[3][i], mx);
  }
  for (int k = 0; k < 4; k++) free(o[k]);
}

int main()
{
  const int n = 128 * 5;
  int *h = (int *)malloc(n * 4);
  unsigned seed = 19;
  for (int i = 0; i < n; i++) h[i] = (int)(qa_lcg(&seed) % 201) - 100;
  int *dIn, *d[4];
  CHECK(cudaMalloc(&dIn, n * 4));
  for (int k = 0; k < 4; k++) CHECK(cudaMalloc(&d[k], n * 4));
  CHECK(cudaMemcpy(dIn, h, n * 4, cudaMemcpyHostToDevice));
  check<4>(h, n, dIn, d);
  check<8>(h, n, dIn, d);
  check<16>(h, n, dIn, d);
  check<32>(h, n, dIn, d);
  return qa_done("shfl_width");
}
