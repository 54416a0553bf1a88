"""RawKernels that use shared memory, compiled with -lineinfo so that
smemu's reports name their lines: a tiled transpose whose column read of a
float[32][32] tile is a 32-way bank conflict, the same with the padded
[32][33] tile (none), and a planted race (a read of another warp's write
with no __syncthreads between). cupy_test.sh checks smemu's figures and
report; this checks the results against NumPy and prints the source lines
of the column read and of the race's write and read ("lines: ..."),
counted in the source text below."""
import cupy as cp
import numpy as np

from common import check

TRANSPOSE = r'''
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_naive(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];  // the column read
}
extern "C" __global__ void transpose_padded(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];
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
mod = cp.RawModule(code=TRANSPOSE, options=("-lineinfo",))
for name in ("transpose_naive", "transpose_padded"):
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
