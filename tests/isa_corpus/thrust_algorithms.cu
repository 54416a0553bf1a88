// thrust's sort, reduce, transform, scan and friends for common types: a
// body of real library device code for the corpus lint (compiled to PTX
// only, never run here).
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

template <typename T>
struct square {
  __host__ __device__ T operator()(T x) const { return x * x; }
};

template <typename T>
struct positive {
  __host__ __device__ bool operator()(T x) const { return x > T(0); }
};

template <typename T>
T run(T *raw, T *out, int *keys, int n) {
  thrust::device_ptr<T> d(raw), o(out);
  thrust::device_ptr<int> k(keys);
  thrust::sequence(thrust::device, d, d + n);
  thrust::sort(thrust::device, d, d + n);
  thrust::sort(thrust::device, d, d + n, thrust::greater<T>());
  thrust::stable_sort_by_key(thrust::device, k, k + n, d);
  thrust::transform(thrust::device, d, d + n, o, square<T>());
  thrust::transform(thrust::device, d, d + n, o, o, thrust::plus<T>());
  thrust::inclusive_scan(thrust::device, d, d + n, o);
  thrust::exclusive_scan(thrust::device, d, d + n, o);
  thrust::reduce_by_key(thrust::device, k, k + n, d, k, o);
  auto e = thrust::unique(thrust::device, d, d + n);
  auto r = thrust::remove_if(thrust::device, d, e, positive<T>());
  T s = thrust::reduce(thrust::device, d, r);
  s += thrust::transform_reduce(thrust::device, d, d + n, square<T>(), T(0), thrust::plus<T>());
  s += T(thrust::count_if(thrust::device, d, d + n, positive<T>()));
  s += *thrust::max_element(thrust::device, d, d + n);
  return s;
}

template int run<int>(int *, int *, int *, int);
template unsigned run<unsigned>(unsigned *, unsigned *, int *, int);
template float run<float>(float *, float *, int *, int);
template double run<double>(double *, double *, int *, int);
template long long run<long long>(long long *, long long *, int *, int);
