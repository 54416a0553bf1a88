// Thrust as most CUDA users first meet it: device_vector, transform,
// reduce, inclusive_scan, sort_by_key and a custom functor (its kernels use
// CUB's shared-memory primitives underneath); CPU reference.
#include "qa.h"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <algorithm>
#include <vector>

struct Sq { __host__ __device__ int operator()(int x) const { return x * x % 1000; } };

int main()
{
  const int n = 5000;
  std::vector<int> h(n), k(n);
  unsigned seed = 47;
  for (int i = 0; i < n; i++) { h[i] = (int)(qa_lcg(&seed) % 2000) - 1000; k[i] = (int)(qa_lcg(&seed) % 100000); }
  thrust::device_vector<int> d(h.begin(), h.end()), sq(n), sc(n), keys(k.begin(), k.end()), vals(n);
  thrust::transform(d.begin(), d.end(), sq.begin(), Sq());
  long long sum = thrust::reduce(sq.begin(), sq.end(), 0LL);
  thrust::inclusive_scan(d.begin(), d.end(), sc.begin());
  thrust::sequence(vals.begin(), vals.end());
  thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin());
  thrust::host_vector<int> hsc = sc, hk = keys, hv = vals;
  long long want = 0;
  int s = 0;
  for (int i = 0; i < n; i++) { want += h[i] * h[i] % 1000; s += h[i]; EXPECT_EQ("scan", i, hsc[i], s); }
  EXPECT_EQ("reduce", 0, sum, want);
  std::vector<int> idx(n);
  for (int i = 0; i < n; i++) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return k[a] < k[b]; });
  for (int i = 0; i < n; i++) { EXPECT_EQ("keys", i, hk[i], k[idx[i]]); EXPECT_EQ("vals", i, hv[i], idx[i]); }
  return qa_done("thrust_basic");
}
