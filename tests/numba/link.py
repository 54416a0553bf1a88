"""link.py: a kernel calling device functions of a CUDA C++ file
(link_funcs.cu), declared with cuda.declare_device and linked with
@cuda.jit(link=[...]): the JIT linker gets two PTX inputs and joins them.
Checked against numpy."""
import os
import numpy as np
from numba import cuda, float32, int32

here = os.path.dirname(os.path.abspath(__file__))
poly = cuda.declare_device("poly", int32(int32))
clamp_add = cuda.declare_device("clamp_add", float32(float32, float32))


@cuda.jit(link=[os.path.join(here, "link_funcs.cu")])
def apply(x, y, p, s):
    i = cuda.grid(1)
    if i < x.size:
        p[i] = poly(x[i])
        s[i] = clamp_add(y[i], y[i])


def main():
    x = np.arange(-50, 50, dtype=np.int32)
    y = np.linspace(0, 90, 100).astype(np.float32)
    p = np.zeros_like(x)
    s = np.zeros_like(y)
    apply[1, 128](x, y, p, s)
    print("poly:", "ok" if np.array_equal(p, 2 * x * x + 3) else "WRONG")
    print("clamp_add:", "ok" if np.array_equal(s, np.minimum(y + y, np.float32(100))) else "WRONG")


main()
