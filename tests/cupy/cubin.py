"""Run with CUPY_COMPILE_WITH_PTX=0 (which smemu run keeps): CuPy compiles
its first kernel to a cubin, SASS alone, which smemu cannot run; the load
must fail (CUDA_ERROR_INVALID_IMAGE) rather than crash."""
import cupy as cp

try:
    cp.arange(8).get()
    print("cubin: ran")
except Exception as e:
    print("cubin: stopped: %s: %s" % (type(e).__name__, e))
