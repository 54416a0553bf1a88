// thrust_compat.h: force-included (nvcc -include) when build.sh builds a
// Thrust example. Debian's examples are those of Thrust 1.17, whose
// function objects derive from thrust::unary_function and
// thrust::binary_function, and some use thrust::identity; CCCL 3 (the
// CUDA 13 toolkit's Thrust) removed all three. Here they are as the C++98
// standard library defined the adaptable-function bases (argument and
// result typedefs, nothing else) and as Thrust 1.17 documented identity
// (returns its argument), so the examples build unchanged.
#pragma once
#include <thrust/version.h>

#if THRUST_VERSION >= 300000
namespace thrust {
template <typename Argument, typename Result> struct unary_function {
  typedef Argument argument_type;
  typedef Result result_type;
};
template <typename Argument1, typename Argument2, typename Result> struct binary_function {
  typedef Argument1 first_argument_type;
  typedef Argument2 second_argument_type;
  typedef Result result_type;
};
template <typename T> struct identity {
  typedef T argument_type;
  typedef T result_type;
  __host__ __device__ const T &operator()(const T &x) const { return x; }
};
} // namespace thrust
#endif
