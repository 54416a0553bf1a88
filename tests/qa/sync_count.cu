// __syncthreads_count / _and / _or as a student uses them: count elements
// above a threshold per block, test "all sorted", "any negative", then a
// warp-level __ballot_sync/__popc check of the same count via shared memory.
#include "qa.h"

__global__ void votes(const int *in, int n, int thr, int *cnt, int *allPos, int *anyNeg, int *ballotCnt)
{
  __shared__ unsigned wcount[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : thr; /* padding counts as not above */
  int c = __syncthreads_count(v > thr);
  int a = __syncthreads_and(i >= n || v > 0);
  int o = __syncthreads_or(i < n && v < 0);
  unsigned b = __ballot_sync(0xffffffffu, v > thr);
  if ((threadIdx.x & 31) == 0) wcount[threadIdx.x >> 5] = __popc(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)(blockDim.x + 31) / 32; w++) s += wcount[w];
    cnt[blockIdx.x] = c;
    allPos[blockIdx.x] = a;
    anyNeg[blockIdx.x] = o;
    ballotCnt[blockIdx.x] = s;
  }
}

int main()
{
  const int bs = 192, grid = 6, n = bs * grid - 50, thr = 40;
  int *h = (int *)malloc(n * 4);
  unsigned seed = 13;
  for (int i = 0; i < n; i++) h[i] = (int)(qa_lcg(&seed) % 100);
  for (int i = 0; i < n; i++) if (i / bs == 2 && i % 37 == 5) h[i] = -(i % 7) - 1; /* block 2 has negatives */
  for (int i = 0; i < n; i++) if (i / bs == 4 && h[i] == 0) h[i] = 1;               /* block 4 all positive */
  for (int i = 0; i < n; i++) if (i / bs != 4 && i % bs == 3) h[i] = 0;
  int *d, *dc, *da, *dn, *db;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dc, grid * 4)); CHECK(cudaMalloc(&da, grid * 4));
  CHECK(cudaMalloc(&dn, grid * 4)); CHECK(cudaMalloc(&db, grid * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  votes<<<grid, bs>>>(d, n, thr, dc, da, dn, db);
  CHECK(cudaGetLastError());
  int hc[grid], ha[grid], hn[grid], hb[grid];
  CHECK(cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hn, dn, sizeof hn, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; b++) {
    int c = 0, a = 1, o = 0;
    for (int i = b * bs; i < (b + 1) * bs && i < n; i++) { c += h[i] > thr; a &= h[i] > 0; o |= h[i] < 0; }
    EXPECT_EQ("count", b, hc[b], c);
    EXPECT_EQ("and", b, ha[b] != 0, a);
    EXPECT_EQ("or", b, hn[b] != 0, o);
    EXPECT_EQ("ballot", b, hb[b], c);
  }
  return qa_done("sync_count");
}
