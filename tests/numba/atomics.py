"""atomics.py: atomic add (a histogram), max, min, compare-and-swap and
exchange on global and shared memory. Checked against numpy."""
import numpy as np
from numba import cuda, int32


@cuda.jit
def histogram(x, bins):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(bins, x[i] % bins.size, 1)


@cuda.jit
def extremes(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(out, 0, x[i])
        cuda.atomic.min(out, 1, x[i])


@cuda.jit
def shared_count(x, out):
    c = cuda.shared.array(1, dtype=int32)
    if cuda.threadIdx.x == 0:
        c[0] = 0
    cuda.syncthreads()
    if x[cuda.grid(1)] % 3 == 0:
        cuda.atomic.add(c, 0, 1)
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.atomic.add(out, 0, c[0])


@cuda.jit
def first_claim(owner, winners):
    # every thread tries to claim slot i % 8: one winner per slot
    i = cuda.grid(1)
    if cuda.atomic.compare_and_swap(owner[i % 8:], -1, i) == -1:
        cuda.atomic.add(winners, 0, 1)


def main():
    x = (np.arange(10000, dtype=np.int32) * 7919) % 1000
    bins = np.zeros(16, dtype=np.int32)
    histogram[(x.size + 255) // 256, 256](x, bins)
    print("histogram:", "ok" if np.array_equal(bins, np.bincount(x % 16, minlength=16)) else "WRONG")
    out = np.array([-1, 1 << 30], dtype=np.int32)
    extremes[(x.size + 255) // 256, 256](x, out)
    print("max/min:", "ok" if out[0] == x.max() and out[1] == x.min() else "WRONG")
    cnt = np.zeros(1, dtype=np.int32)
    y = np.arange(1024, dtype=np.int32)
    shared_count[4, 256](y, cnt)
    print("shared add:", "ok" if cnt[0] == (y % 3 == 0).sum() else "WRONG")
    owner = np.full(8, -1, dtype=np.int32)
    winners = np.zeros(1, dtype=np.int32)
    first_claim[2, 64](owner, winners)
    ok = winners[0] == 8 and sorted(owner % 8) == list(range(8))
    print("cas:", "ok" if ok else "WRONG")


main()
