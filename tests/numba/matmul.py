"""matmul.py: C = A x B with 16 x 16 tiles staged in shared memory
(cuda.shared.array), Numba's documented tiled product. Checked against
numpy. The argument is the matrix size (a multiple of 16)."""
import sys
import numpy as np
from numba import config, cuda, float32

TPB = 16

# source lines in the PTX, for smemu's reports (Numba's simulator takes no
# lineinfo option)
LINES = {} if config.ENABLE_CUDASIM else {"lineinfo": True}


@cuda.jit(**LINES)
def matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.0)
    for i in range(A.shape[1] // TPB):
        sA[ty, tx] = A[y, tx + i * TPB]
        sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    C[y, x] = tmp


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    rng = np.random.default_rng(2)
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    c = cuda.device_array((n, n), dtype=np.float32)
    matmul[(n // TPB, n // TPB), (TPB, TPB)](cuda.to_device(a), cuda.to_device(b), c)
    got = c.copy_to_host()
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.max(np.abs(got - want)))
    ok = err <= 1e-4 * n
    print("matmul: n=%d max error %.3g %s" % (n, err, "ok" if ok else "WRONG"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
