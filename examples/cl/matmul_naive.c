/* matmul_naive.c: runs matmulNaive (examples/cl/matmul_naive.cl) on the
 * 256 x 256 product and on 200 x 150 times 150 x 120, with the matrices of
 * examples/matmul.c; C must match, bit for bit, a CPU product accumulated
 * with fmaf in k order (clang contracts acc += a * b into fma.rn.f32, as
 * OpenCL's default FP_CONTRACT allows). Prints SKIP without clang-14 and
 * libclc-14. */
#include "smemu.h"
#include "clc.h"
#include "cl_example.h"
#include "matmul_ref.h"

int main(int argc, char **argv)
{
  return clx_main(argc, argv, "cl_matmul_naive", clx_matmul_reference);
}
