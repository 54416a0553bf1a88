"""device_arrays.py: cuda.to_device, device_array(_like), copy_to_host into
a given array, slices of device arrays, device-to-device copies and
mapped/pinned host memory. Checked against numpy."""
import numpy as np
from numba import cuda


@cuda.jit
def square(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * a[i]


def main():
    n = 512
    h = np.arange(n, dtype=np.int32)
    d = cuda.to_device(h)
    o = cuda.device_array_like(d)
    square[4, 128](d, o)
    got = o.copy_to_host()
    print("to_device:", "ok" if np.array_equal(got, h * h) else "WRONG")
    into = np.zeros(n, dtype=np.int32)
    o.copy_to_host(into)
    print("copy_to_host(ary):", "ok" if np.array_equal(into, h * h) else "WRONG")
    # a slice of a device array is a device array over the same memory
    half = o[n // 2:]
    print("slice:", "ok" if np.array_equal(half.copy_to_host(), (h * h)[n // 2:]) else "WRONG")
    # device to device, then host to an existing device array
    e = cuda.device_array(n, dtype=np.int32)
    e.copy_to_device(o)
    print("d2d:", "ok" if np.array_equal(e.copy_to_host(), h * h) else "WRONG")
    e.copy_to_device(h[::-1].copy())
    print("h2d:", "ok" if np.array_equal(e.copy_to_host(), h[::-1]) else "WRONG")
    # pinned and mapped host memory
    p = cuda.pinned_array(n, dtype=np.int32)
    p[:] = h
    dp = cuda.to_device(p)
    square[4, 128](dp, o)
    print("pinned:", "ok" if np.array_equal(o.copy_to_host(), h * h) else "WRONG")
    m = cuda.mapped_array(n, dtype=np.int32)
    square[4, 128](d, m)
    cuda.synchronize()
    print("mapped:", "ok" if np.array_equal(m, h * h) else "WRONG")
    print("is_cuda_array:", "ok" if cuda.is_cuda_array(d) and not cuda.is_cuda_array(h) else "WRONG")


main()
