// thrust_sort.cu: a library's kernels, unmodified: thrust::sequence,
// reduce and sort on a device_vector. Expected by arithmetic: the sum of
// 0..999 is 499500; i * 7919 mod 1000 is a permutation of 0..999 (7919 is
// prime to 1000), so the sorted vector runs from 0 to 999.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

int main() {
  thrust::device_vector<int> v(1000);
  thrust::sequence(v.begin(), v.end());
  long s = thrust::reduce(v.begin(), v.end(), 0L);
  for (int i = 0; i < 1000; i++) v[i] = (i * 7919) % 1000;
  thrust::sort(v.begin(), v.end());
  int ok = 1;
  for (int i = 0; i < 1000; i++) ok &= v[i] == i;
  printf("sum %ld first %d last %d sorted %s\n", s, (int)v[0], (int)v[999], ok ? "yes" : "no");
  return ok ? 0 : 1;
}
