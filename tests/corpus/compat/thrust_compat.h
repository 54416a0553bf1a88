// thrust_compat.h: force-included (nvcc -include) when build.sh builds a
// Thrust example. Debian's examples are those of Thrust 1.17, whose
// function objects derive from thrust::unary_function and
// thrust::binary_function; CCCL 3 (the CUDA 13 toolkit's Thrust) removed
// both. These are the two adaptable-function bases as the C++98 standard
// library defined them (argument and result typedefs, nothing else), so
// the examples build unchanged against the toolkit's Thrust.
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
} // namespace thrust
#endif
