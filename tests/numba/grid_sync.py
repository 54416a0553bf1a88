"""grid_sync.py: cuda.grid/gridsize in 1 and 2 dimensions (grid-stride
loops), syncthreads and its counting forms (syncthreads_count, _and,
_or). Checked against numpy."""
import numpy as np
from numba import cuda


@cuda.jit
def stride_fill(a):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, a.size, step):
        a[i] = i * 3 + 1


@cuda.jit
def stride_2d(a):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for i in range(x0, a.shape[0], sx):
        for j in range(y0, a.shape[1], sy):
            a[i, j] = i * 100 + j


@cuda.jit
def votes(x, out):
    t = cuda.threadIdx.x
    p = 1 if x[cuda.grid(1)] > 0 else 0
    c = cuda.syncthreads_count(p)
    a = cuda.syncthreads_and(p)
    o = cuda.syncthreads_or(p)
    if t == 0:
        b = cuda.blockIdx.x
        out[b, 0] = c
        out[b, 1] = a
        out[b, 2] = o


def main():
    a = np.zeros(10007, dtype=np.int64)
    stride_fill[7, 96](a)
    print("gridsize 1d:", "ok" if np.array_equal(a, np.arange(a.size) * 3 + 1) else "WRONG")
    b = np.zeros((37, 53), dtype=np.int32)
    stride_2d[(2, 3), (4, 8)](b)
    want = np.arange(37)[:, None] * 100 + np.arange(53)[None, :]
    print("gridsize 2d:", "ok" if np.array_equal(b, want) else "WRONG")
    # block 0: 10 positives; block 1: all positive; block 2: none
    x = np.zeros(3 * 128, dtype=np.int32)
    x[:10] = 1
    x[128:256] = 5
    out = np.zeros((3, 3), dtype=np.int32)
    votes[3, 128](x, out)
    want = np.array([[10, 0, 1], [128, 1, 1], [0, 0, 0]])
    print("syncthreads_count/and/or:", "ok" if np.array_equal(out != 0, want != 0) and
          np.array_equal(out[:, 0], want[:, 0]) else "WRONG %s" % out.tolist())


main()
