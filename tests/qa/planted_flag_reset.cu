// The BFS loop of frontier_loop.cu as it is often first written: thread 0
// resets the shared `changed` flag at the top of the next round while
// other warps may still be reading it at the bottom of this one (no barrier
// between that read and the reset). Warps then leave the loop at different
// rounds and the distances come out wrong; the race check must name the
// reset (line 25) against the read (line 36). The values are not checked.
// qa-expect: ^Error: Race reported between (Write|Read) access at .*planted_flag_reset.cu:(21|32)
// qa-expect: and (Write|Read) access at .*planted_flag_reset.cu:(21|32)
#include "qa.h"

#define W 16
#define N (W * W)
__global__ void bfs(const int *cost, int *dist, int src)
{
  __shared__ int d[N];
  __shared__ int changed;
  int v = threadIdx.x;
  d[v] = v == src ? 0 : 1 << 29;
  int rounds = 0;
  for (;;) {
    if (v == 0) changed = 0;
    __syncthreads();                      /* d[] and the reset flag are visible */
    int x = v % W, y = v / W, best = d[v];
    if (x > 0) best = min(best, d[v - 1] + cost[v]);
    if (x < W - 1) best = min(best, d[v + 1] + cost[v]);
    if (y > 0) best = min(best, d[v - W] + cost[v]);
    if (y < W - 1) best = min(best, d[v + W] + cost[v]);
    __syncthreads();                      /* everyone read before anyone writes */
    if (best < d[v]) { d[v] = best; changed = 1; }
    __syncthreads();                      /* the flag is final */
    rounds++;
    if (!changed) break;
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
  (void)out;
  return qa_done("planted_flag_reset");
}
