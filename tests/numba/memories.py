"""memories.py: shared arrays (static and dynamic), local arrays and
constant arrays in kernels. Checked against numpy."""
import numpy as np
from numba import cuda, float32, int32

TABLE = np.array([1, 10, 100, 1000], dtype=np.int32)


@cuda.jit
def reverse_block(a):
    s = cuda.shared.array(128, dtype=float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 128
    s[t] = a[base + t]
    cuda.syncthreads()
    a[base + t] = s[127 - t]


@cuda.jit
def dyn_shared(a):
    s = cuda.shared.array(0, dtype=int32)
    t = cuda.threadIdx.x
    s[t] = a[t] * 2
    cuda.syncthreads()
    a[t] = s[(t + 1) % cuda.blockDim.x]


@cuda.jit
def digits(a, out):
    # a local array per thread: its decimal digits, then their weighted sum
    d = cuda.local.array(4, dtype=int32)
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        for k in range(4):
            d[k] = v % 10
            v //= 10
        c = cuda.const.array_like(TABLE)
        s = 0
        for k in range(4):
            s += d[k] * c[3 - k]
        out[i] = s


def main():
    a = np.arange(256, dtype=np.float32)
    da = cuda.to_device(a)
    reverse_block[2, 128](da)
    want = np.concatenate([a[:128][::-1], a[128:][::-1]])
    print("shared:", "ok" if np.array_equal(da.copy_to_host(), want) else "WRONG")
    b = np.arange(64, dtype=np.int32)
    db = cuda.to_device(b)
    dyn_shared[1, 64, 0, 64 * 4](db)
    print("dynamic shared:", "ok" if np.array_equal(db.copy_to_host(), 2 * np.roll(b, -1)) else "WRONG")
    x = np.arange(0, 10000, 7, dtype=np.int32)
    out = np.zeros_like(x)
    digits[(x.size + 127) // 128, 128](x, out)
    # the digits reversed: 1234 -> 4321
    want = np.array([int(str(v).zfill(4)[::-1]) for v in x], dtype=np.int32)
    print("local+const:", "ok" if np.array_equal(out, want) else "WRONG")


main()
