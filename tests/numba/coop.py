"""coop.py: cooperative groups: a grid-wide barrier (this_grid().sync())
between two phases, which needs a cooperative launch; every block reads
what the other blocks wrote before the barrier. Checked against numpy."""
import numpy as np
from numba import cuda


@cuda.jit
def two_phase(a, out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = a.size
    a[i] = i * 2
    g.sync()
    # the element of the mirror thread, in another block
    out[i] = a[n - 1 - i] + 1


def main():
    blocks, threads = 4, 64
    n = blocks * threads
    a = cuda.device_array(n, dtype=np.int32)
    out = cuda.device_array(n, dtype=np.int32)
    try:
        two_phase[blocks, threads](a, out)
    except Exception as e:  # no cooperative launch: say so, as its own line
        print("grid sync: not supported:", str(e).splitlines()[0][:120])
        return
    want = 2 * (n - 1 - np.arange(n)) + 1
    print("grid sync:", "ok" if np.array_equal(out.copy_to_host(), want) else "WRONG")
    sig = two_phase.signatures[0] if two_phase.signatures else None
    mb = two_phase.overloads[sig].max_cooperative_grid_blocks(threads) if sig else 0
    print("max cooperative blocks:", "ok" if mb >= blocks else "WRONG %d" % mb)


main()
