"""RawKernels that use shared memory, compiled with -lineinfo so that
smemu's reports name their lines: a tiled transpose whose column read of a
32 x 32 tile of 32-float rows is a 32-way bank conflict, the same with
33-float rows (none), and a planted race (a read of another warp's write
with no __syncthreads between). cupy_test.sh checks smemu's figures and
report; this checks the results against NumPy and prints the source lines
of the column read and of the race's write and read ("lines: ..."),
counted in the source text below."""
import cupy as cp
import numpy as np

from common import check

TRANSPOSE = r'''
// a 32 x 32 tile with rows of STRIDE floats: 32, or 33 (padded)
template <int STRIDE>
__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[32 * STRIDE];
  const int tx = threadIdx.x, bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int row = threadIdx.y; row < 32; row += blockDim.y) tile[row * STRIDE + tx] = in[(by + row) * n + bx + tx];
  __syncthreads();
  for (int row = threadIdx.y; row < 32; row += blockDim.y)
    out[(bx + row) * n + by + tx] = tile[tx * STRIDE + row];  // the column read
}
'''

RACE = r'''
extern "C" __global__ void planted_race(const float* in, float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = in[t];  // the write
  out[t] = s[(t + 32) % 128];  // the read: another warp's element, no __syncthreads before it
}
'''

n = 64
h = np.arange(n * n, dtype=np.float32).reshape(n, n)
mod = cp.RawModule(code=TRANSPOSE, options=("-lineinfo",), name_expressions=["transpose<32>", "transpose<33>"])
for name in ("transpose<32>", "transpose<33>"):
    out = cp.zeros((n, n), cp.float32)
    mod.get_function(name)((n // 32, n // 32), (32, 8), (cp.asarray(h), out, np.int32(n)))
    check(name, out.get(), h.T, exact=True)

race = cp.RawKernel(RACE, "planted_race", options=("-lineinfo",))
x = np.arange(128, dtype=np.float32)
out = cp.zeros(128, cp.float32)
race((1,), (128,), (cp.asarray(x), out))
cp.cuda.Device().synchronize()
# smemu runs the warps in order: warp k reads warp k+1's element before
# that warp wrote it (the last warp reads warp 0's, written): no result
# is checked, the race is what is looked for
def line_of(code, mark):
    return next(i for i, t in enumerate(code.split("\n")) if mark in t) + 1


print("lines: column read %d" % line_of(TRANSPOSE, "// the column read"))
print("lines: write %d read %d" % (line_of(RACE, "// the write"), line_of(RACE, "// the read")))
