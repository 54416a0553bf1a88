// A BFS-style loop driven by a shared flag, as graph kernels write it:
// a shared `changed` flag read into a register, and reset only after a
// barrier that follows everyone's read (the correct form: planted_flag_reset
// is the common broken one); each round relaxes distances over a small grid
// graph held in shared memory. CPU reference (Bellman-Ford).
#include "qa.h"

#define W 16
#define N (W * W)
__global__ void bfs(const int *cost, int *dist, int src)
{
  __shared__ int d[N];
  __shared__ int changed;
  int v = threadIdx.x;
  d[v] = v == src ? 0 : 1 << 29;
  if (v == 0) changed = 0;
  int rounds = 0;
  for (;;) {
    __syncthreads();                      /* d[] and the reset flag are visible */
    int x = v % W, y = v / W, best = d[v];
    if (x > 0) best = min(best, d[v - 1] + cost[v]);
    if (x < W - 1) best = min(best, d[v + 1] + cost[v]);
    if (y > 0) best = min(best, d[v - W] + cost[v]);
    if (y < W - 1) best = min(best, d[v + W] + cost[v]);
    __syncthreads();                      /* everyone read before anyone writes */
    if (best < d[v]) { d[v] = best; changed = 1; }
    __syncthreads();                      /* the flag is final */
    int c = changed;
    __syncthreads();                      /* everyone read it before the reset */
    if (v == 0) changed = 0;
    rounds++;
    if (!c) break;
  }
  dist[v] = d[v];
  if (v == 0) dist[N] = rounds;
}

int main()
{
  int cost[N], out[N + 1];
  for (int i = 0; i < N; i++) cost[i] = 1 + (i * 7 + i / W * 3) % 9;
  int *dc, *dd;
  CHECK(cudaMalloc(&dc, sizeof cost)); CHECK(cudaMalloc(&dd, sizeof out));
  CHECK(cudaMemcpy(dc, cost, sizeof cost, cudaMemcpyHostToDevice));
  const int src = 37;
  bfs<<<1, N>>>(dc, dd, src);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dd, sizeof out, cudaMemcpyDeviceToHost));
  int d[N];
  for (int i = 0; i < N; i++) d[i] = i == src ? 0 : 1 << 29;
  for (int it = 0; it < N; it++)
    for (int v = 0; v < N; v++) {
      int x = v % W, y = v / W;
      if (x > 0 && d[v - 1] + cost[v] < d[v]) d[v] = d[v - 1] + cost[v];
      if (x < W - 1 && d[v + 1] + cost[v] < d[v]) d[v] = d[v + 1] + cost[v];
      if (y > 0 && d[v - W] + cost[v] < d[v]) d[v] = d[v - W] + cost[v];
      if (y < W - 1 && d[v + W] + cost[v] < d[v]) d[v] = d[v + W] + cost[v];
    }
  for (int v = 0; v < N; v++) EXPECT_EQ("dist", v, out[v], d[v]);
  EXPECT_EQ("rounds>1", 0, out[N] > 1, 1);
  return qa_done("frontier_loop");
}
