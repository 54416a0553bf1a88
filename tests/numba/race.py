"""race.py: a shift through shared memory that forgets its barrier: each
thread stores its element and then reads its neighbour's, which another
warp may not have stored yet (a read-after-write hazard between warps at
each warp boundary). The answer may still come out right on a CPU and on
a GPU; smemu's race check finds the bug."""
import sys
import numpy as np
from numba import config, cuda, int32

N = 128

# source lines in the PTX, for smemu's reports (Numba's simulator takes no
# lineinfo option)
LINES = {} if config.ENABLE_CUDASIM else {"lineinfo": True}


@cuda.jit(**LINES)
def shift_left(a, out):
    s = cuda.shared.array(N, dtype=int32)
    t = cuda.threadIdx.x
    s[t] = a[t]  # the write
    # missing: cuda.syncthreads()
    if t < N - 1:
        out[t] = s[t + 1]  # the read


def main():
    a = np.arange(N, dtype=np.int32)
    out = cuda.to_device(np.zeros(N, dtype=np.int32))
    shift_left[1, N](cuda.to_device(a), out)
    got = out.copy_to_host()
    print("race: out[:4] =", [int(v) for v in got[:4]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
