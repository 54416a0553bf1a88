"""numba_dot.py N: the dot product of examples/dot.cu (32 blocks of 256
threads, a grid-stride loop, a shared-memory tree per block) as a Numba
kernel, timed on Numba's CUDA simulator (run with NUMBA_ENABLE_CUDASIM=1,
Debian's python3-numba). Prints "numba N SECONDS": the launch to its
synchronize, after the import and the copies. Checks the sum against numpy."""
import sys
import time
import numpy as np
from numba import cuda, float32

THREADS = 256
BLOCKS = 32


@cuda.jit
def dot(a, b, partial):
    acc = cuda.shared.array(THREADS, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    s = float32(0.0)
    while i < a.shape[0]:
        s += a[i] * b[i]
        i += cuda.blockDim.x * cuda.gridDim.x
    acc[t] = s
    cuda.syncthreads()
    half = THREADS // 2
    while half > 0:
        if t < half:
            acc[t] += acc[t + half]
        cuda.syncthreads()
        half //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = acc[0]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 16
    rng = np.random.default_rng(1)
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    da, db = cuda.to_device(a), cuda.to_device(b)
    partial = cuda.device_array(BLOCKS, dtype=np.float32)
    t0 = time.monotonic()
    dot[BLOCKS, THREADS](da, db, partial)
    cuda.synchronize()
    secs = time.monotonic() - t0
    got = float(partial.copy_to_host().sum(dtype=np.float64))
    want = float(np.dot(a.astype(np.float64), b.astype(np.float64)))
    if abs(got - want) > 1e-4 * abs(want):
        print("numba_dot: got %.6g, want %.6g" % (got, want), file=sys.stderr)
        return 1
    print("numba %d %.6f" % (n, secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
