// tail.cu: tail launches run after the launching grid and its other work
// complete, in the order they were launched; a quicksort whose halves
// go to fire-and-forget grids and whose check is a tail launch (it runs
// only after every grid of the recursion has finished).
#include <cstdio>

__device__ int order[8];
__device__ int norder;
__device__ int ff_done, named_done;

__global__ void ff_child() { atomicAdd(&ff_done, 1); }
__global__ void named_child() { atomicAdd(&named_done, 1); }
__global__ void tail_child(int id) {
  int i = atomicAdd(&norder, 1);
  // what this tail grid saw: its id, the fire-and-forget and named-stream
  // children's counts
  order[i] = id * 100 + ff_done * 10 + named_done;
}

__global__ void parent() {
  tail_child<<<1, 1, 0, cudaStreamTailLaunch>>>(1);
  ff_child<<<1, 1, 0, cudaStreamFireAndForget>>>();
  tail_child<<<1, 1, 0, cudaStreamTailLaunch>>>(2);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  named_child<<<1, 1, 0, s>>>();
  cudaStreamDestroy(s);
  tail_child<<<1, 1, 0, cudaStreamTailLaunch>>>(3);
}

__device__ int inversions;
__device__ int grids;

__global__ void check(const int *a, int n) {
  for (int i = 1; i < n; i++)
    if (a[i - 1] > a[i]) inversions++;
  printf("qsort: check ran after %d grids\n", grids);
}

__global__ void qsort_k(int *a, int lo, int hi, int depth) {
  atomicAdd(&grids, 1);
  if (hi - lo <= 16 || depth >= 12) {
    for (int i = lo + 1; i < hi; i++) {
      int v = a[i], j = i - 1;
      while (j >= lo && a[j] > v) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = v;
    }
    return;
  }
  int pivot = a[hi - 1], m = lo;
  for (int i = lo; i < hi - 1; i++)
    if (a[i] < pivot) {
      int t = a[i];
      a[i] = a[m];
      a[m] = t;
      m++;
    }
  a[hi - 1] = a[m];
  a[m] = pivot;
  qsort_k<<<1, 1, 0, cudaStreamFireAndForget>>>(a, lo, m, depth + 1);
  qsort_k<<<1, 1, 0, cudaStreamFireAndForget>>>(a, m + 1, hi, depth + 1);
}

__global__ void qsort_top(int *a, int n) {
  qsort_k<<<1, 1, 0, cudaStreamFireAndForget>>>(a, 0, n, 0);
  check<<<1, 1, 0, cudaStreamTailLaunch>>>(a, n);
}

int main() {
  parent<<<1, 1>>>();
  cudaError_t e = cudaDeviceSynchronize();
  int o[8], n = 0;
  cudaMemcpyFromSymbol(o, order, sizeof o);
  cudaMemcpyFromSymbol(&n, norder, sizeof n);
  printf("tail: sync %d, %d tail grids:", (int)e, n);
  for (int i = 0; i < n && i < 8; i++) printf(" %d", o[i]);
  printf("\n");
  const int N = 1000;
  int h[N];
  unsigned x = 12345;
  for (int i = 0; i < N; i++) {
    x = x * 1103515245u + 12345u;
    h[i] = (int)(x >> 16) % 1000;
  }
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  qsort_top<<<1, 1>>>(d, N);
  e = cudaDeviceSynchronize();
  int inv = -1;
  cudaMemcpyFromSymbol(&inv, inversions, sizeof inv);
  int s[N];
  cudaMemcpy(s, d, sizeof s, cudaMemcpyDeviceToHost);
  // the host's own check: sorted, and the same multiset (sum of squares)
  long long sh = 0, ss = 0;
  int sorted = 1;
  for (int i = 0; i < N; i++) {
    sh += (long long)h[i] * h[i];
    ss += (long long)s[i] * s[i];
    if (i && s[i - 1] > s[i]) sorted = 0;
  }
  printf("qsort: sync %d, inversions seen by the tail check %d, sorted %d, same values %d\n", (int)e, inv, sorted,
         sh == ss);
  return 0;
}
