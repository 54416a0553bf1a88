"""dot.py: the dot product of two vectors, each block reducing its partial
products in shared memory with a tree (the seeds' dot example as a Numba
kernel); the host adds the blocks' sums. Checked against numpy."""
import sys
import numpy as np
from numba import config, cuda, float32

THREADS = 256

# source lines in the PTX, for smemu's reports (Numba's simulator takes no
# lineinfo option)
LINES = {} if config.ENABLE_CUDASIM else {"lineinfo": True}


@cuda.jit(**LINES)
def dot(a, b, partial):
    cache = cuda.shared.array(THREADS, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s = float32(0.0)
    while i < a.shape[0]:
        s += a[i] * b[i]
        i += cuda.gridsize(1)
    cache[tid] = s
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if tid < step:
            cache[tid] += cache[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = cache[0]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 16
    blocks = 32
    rng = np.random.default_rng(1)
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    partial = cuda.device_array(blocks, dtype=np.float32)
    dot[blocks, THREADS](cuda.to_device(a), cuda.to_device(b), partial)
    got = float(partial.copy_to_host().sum(dtype=np.float64))
    want = float(np.dot(a.astype(np.float64), b.astype(np.float64)))
    ok = abs(got - want) <= 1e-4 * abs(want)
    print("dot: n=%d got %.6g want %.6g %s" % (n, got, want, "ok" if ok else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
