"""streams_events.py: work on two streams, copies on a stream, events
recorded, waited for and timed, stream.synchronize and the stream's
auto_synchronize context. Checked against numpy."""
import numpy as np
from numba import cuda


@cuda.jit
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


def main():
    n = 4096
    s1, s2 = cuda.stream(), cuda.stream()
    x = np.arange(n, dtype=np.float64)
    y = np.ones(n)
    dx = cuda.to_device(x, stream=s1)
    dy = cuda.to_device(y, stream=s1)
    start, done = cuda.event(), cuda.event()
    start.record(s1)
    axpy[n // 256, 256, s1](2.0, dx, dy)
    done.record(s1)
    # s2 waits for s1's work before adding again
    done.wait(s2)
    axpy[n // 256, 256, s2](3.0, dx, dy)
    out = dy.copy_to_host(stream=s2)
    s2.synchronize()
    print("two streams:", "ok" if np.array_equal(out, 5 * x + 1) else "WRONG")
    done.synchronize()
    ms = cuda.event_elapsed_time(start, done)
    print("elapsed:", "ok" if ms >= 0 else "WRONG")
    print("query:", "ok" if done.query() else "WRONG")
    with s1.auto_synchronize():
        dz = cuda.to_device(x, stream=s1)
        axpy[n // 256, 256, s1](-1.0, dx, dz)
    print("auto_synchronize:", "ok" if not dz.copy_to_host().any() else "WRONG")
    d0 = cuda.default_stream()
    axpy[n // 256, 256, d0](1.0, dx, dy)
    print("default stream:", "ok" if np.array_equal(dy.copy_to_host(), 6 * x + 1) else "WRONG")


main()
