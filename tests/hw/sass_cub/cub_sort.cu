// cub_sort.cu: cub::BlockRadixSort (keys; key-value pairs), cub::BlockExchange
// (char, short) and cub::BlockHistogram from the toolkit's CCCL; checked
// against std::sort, the CPU transpose and a CPU histogram.
#include "cub_kernels.cuh"
#include <algorithm>
#include "../../programs/prog.h"

enum { GRID = 2 };

template <typename K, int BLOCK, int ITEMS>
static int run_sort(const char *name) {
  const int tile = BLOCK * ITEMS, n = GRID * tile;
  K *h = new K[n], *g = new K[n], *d;
  unsigned s = 3;
  for (int i = 0; i < n; i++) h[i] = (K)((int)(lcg(&s) % 20000) - 10000);
  CHECK(cudaMalloc(&d, n * sizeof(K)));
  CHECK(cudaMemcpy(d, h, n * sizeof(K), cudaMemcpyHostToDevice));
  block_sort<K, BLOCK, ITEMS><<<GRID, BLOCK>>>(d);
  CHECK(cudaMemcpy(g, d, n * sizeof(K), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    std::sort(h + b * tile, h + (b + 1) * tile);
    for (int i = 0; i < tile; i++) bad |= g[b * tile + i] != h[b * tile + i];
  }
  double first = (double)g[0];
  cudaFree(d);
  delete[] h;
  delete[] g;
  return result(name, bad, "%g", first);
}

template <typename K, typename V, int BLOCK, int ITEMS>
static int run_pairs(const char *name) {
  const int tile = BLOCK * ITEMS, n = GRID * tile;
  K *hk = new K[n], *gk = new K[n], *dk;
  V *hv = new V[n], *gv = new V[n], *dv;
  unsigned s = 21;
  for (int i = 0; i < n; i++) {
    hk[i] = (K)(lcg(&s) % 1000000);
    hv[i] = (V)(hk[i] % 977);
  }
  CHECK(cudaMalloc(&dk, n * sizeof(K)));
  CHECK(cudaMalloc(&dv, n * sizeof(V)));
  CHECK(cudaMemcpy(dk, hk, n * sizeof(K), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, hv, n * sizeof(V), cudaMemcpyHostToDevice));
  block_sort_pairs<K, V, BLOCK, ITEMS><<<GRID, BLOCK>>>(dk, dv);
  CHECK(cudaMemcpy(gk, dk, n * sizeof(K), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gv, dv, n * sizeof(V), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    std::sort(hk + b * tile, hk + (b + 1) * tile);
    for (int i = 0; i < tile; i++)
      bad |= gk[b * tile + i] != hk[b * tile + i] || gv[b * tile + i] != (V)(gk[b * tile + i] % 977);
  }
  double first = (double)gk[0];
  cudaFree(dk);
  cudaFree(dv);
  delete[] hk;
  delete[] gk;
  delete[] hv;
  delete[] gv;
  return result(name, bad, "%g", first);
}

template <typename T, int BLOCK, int ITEMS>
static int run_exchange(const char *name) {
  const int tile = BLOCK * ITEMS, n = GRID * tile;
  T *h = new T[n], *g = new T[n], *d;
  for (int i = 0; i < n; i++) h[i] = (T)(i * 7 + 1);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  block_exchange<T, BLOCK, ITEMS><<<GRID, BLOCK>>>(d);
  CHECK(cudaMemcpy(g, d, n * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  /* blocked to striped, stored striped: every element back in its place */
  for (int i = 0; i < n; i++) bad |= g[i] != h[i];
  int second = (int)g[1];
  cudaFree(d);
  delete[] h;
  delete[] g;
  return result(name, bad, "%d", second);
}

template <int BLOCK, int ITEMS, int BINS, cub::BlockHistogramAlgorithm A>
static int run_hist(const char *name) {
  const int tile = BLOCK * ITEMS, n = GRID * tile;
  unsigned char *h = new unsigned char[n], *d;
  unsigned g[GRID * BINS], *o;
  unsigned s = 17;
  for (int i = 0; i < n; i++) h[i] = (unsigned char)(lcg(&s) % BINS);
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&o, sizeof g));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  block_hist<BLOCK, ITEMS, BINS, A><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(g, o, sizeof g, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    unsigned e[BINS] = {0};
    for (int i = 0; i < tile; i++) e[h[b * tile + i]]++;
    for (int i = 0; i < BINS; i++) bad |= g[b * BINS + i] != e[i];
  }
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  return result(name, bad, "%u", g[0]);
}

int main() {
  int bad = 0;
  bad |= run_sort<int, 128, 4>("sort_int");
  bad |= run_sort<float, 64, 4>("sort_float");
  bad |= run_sort<double, 64, 2>("sort_double");
  bad |= run_pairs<unsigned, int, 128, 4>("sort_pairs_u32_int");
  bad |= run_pairs<unsigned long long, float, 64, 2>("sort_pairs_u64_float");
  bad |= run_exchange<char, 128, 4>("exchange_char");
  bad |= run_exchange<short, 64, 8>("exchange_short");
  bad |= run_exchange<int, 128, 4>("exchange_int");
  bad |= run_hist<128, 4, 256, cub::BLOCK_HISTO_SORT>("hist_sort_256");
  bad |= run_hist<64, 8, 64, cub::BLOCK_HISTO_ATOMIC>("hist_atomic_64");
  return bad;
}
