"""transpose.py: the tiled matrix transpose in Numba, as the CUDA C
example (examples/transpose.cu): a 32 x 32 tile is written by rows and
read by columns, a 32-way bank conflict on every read; one padding column
(32 x 33) removes it. Both kernels run; each result is checked against
numpy. The argument is the matrix size (a multiple of 32)."""
import sys
import numpy as np
from numba import config, cuda, float32

TILE = 32
ROWS = 8  # block (32, 8): each thread moves TILE / ROWS elements
PADDED = TILE + 1

# source lines in the PTX, for smemu's reports (Numba's simulator takes no
# lineinfo option)
LINES = {} if config.ENABLE_CUDASIM else {"lineinfo": True}


@cuda.jit(**LINES)
def transpose_naive(odata, idata):
    tile = cuda.shared.array((TILE, TILE), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for r in range(0, TILE, ROWS):
        tile[ty + r, tx] = idata[y + r, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for r in range(0, TILE, ROWS):
        odata[y + r, x] = tile[tx, ty + r]  # the column read


@cuda.jit(**LINES)
def transpose_padded(odata, idata):
    tile = cuda.shared.array((TILE, PADDED), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for r in range(0, TILE, ROWS):
        tile[ty + r, tx] = idata[y + r, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for r in range(0, TILE, ROWS):
        odata[y + r, x] = tile[tx, ty + r]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    a = np.random.default_rng(3).random((n, n), dtype=np.float32)
    ok = True
    for k in (transpose_naive, transpose_padded):
        out = cuda.device_array((n, n), dtype=np.float32)
        k[(n // TILE, n // TILE), (TILE, ROWS)](out, cuda.to_device(a))
        good = bool((out.copy_to_host() == a.T).all())
        ok &= good
        print("%s: n=%d %s" % (k.__name__, n, "ok" if good else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
