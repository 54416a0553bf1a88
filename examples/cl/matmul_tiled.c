/* matmul_tiled.c: runs the tiled products of examples/cl/matmul_tiled.cl:
 * matmulTiled (static __local tiles) and matmulTiledArgs (tiles passed as
 * __local arguments) on 256 x 256, matmulTiledBounds on 200 x 150 times
 * 150 x 120, with the matrices of examples/matmul.c. C must match, bit for
 * bit, a CPU product accumulated with fmaf in k order; the OK lines give the
 * bank figures (no conflicts: the same as examples/matmul.cu's). Prints SKIP
 * without clang-14 and libclc-14. */
#include "smemu.h"
#include "clc.h"
#include "cl_example.h"
#include "matmul_ref.h"

int main(int argc, char **argv)
{
  return clx_main(argc, argv, "cl_matmul_tiled", clx_matmul_reference);
}
