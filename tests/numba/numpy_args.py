"""numpy_args.py: NumPy arrays passed straight to a kernel, the first
example of Numba's documentation: Numba copies them to the device (through
cuda-core's memory pool) and back. Checked against numpy."""
import numpy as np
from numba import cuda


@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@cuda.jit
def scale2d(a, k):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = a[i, j] * k + i - j


def main():
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = 2 * x
    out = np.zeros_like(x)
    add[(n + 127) // 128, 128](x, y, out)
    print("add:", "ok" if np.array_equal(out, 3 * x) else "WRONG")
    a = np.arange(48 * 40, dtype=np.int64).reshape(48, 40)
    want = a * 3 + np.arange(48)[:, None] - np.arange(40)[None, :]
    scale2d[(6, 5), (8, 8)](a, 3)
    print("scale2d:", "ok" if np.array_equal(a, want) else "WRONG")


main()
