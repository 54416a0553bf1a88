#!/usr/bin/env python3
"""numba_gen.py: regenerates numba_reverse.ptx, the PTX Numba (numba-cuda,
through CUDA's NVVM) makes of a shared-memory reversal, for sm_90. Needs
`pip install numba numba-cuda` and the CUDA toolkit; no GPU.
A Numba array argument becomes 7 parameters (meminfo, parent, nitems,
itemsize, data, shape, stride), tests/cli.sh passes them by hand."""
from numba import cuda, int32

@cuda.jit
def reverse(d, n):
    s = cuda.shared.array(64, int32)
    t = cuda.threadIdx.x
    s[t] = d[t]
    cuda.syncthreads()
    d[t] = s[n - t - 1]

ptx, _ = cuda.compile_ptx(reverse, (int32[:], int32), cc=(9, 0), lineinfo=True)
open(__file__.rsplit("/", 1)[0] + "/numba_reverse.ptx", "w").write(ptx)
