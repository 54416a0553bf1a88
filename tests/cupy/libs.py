"""CuPy operations that call NVIDIA's libraries, which smemu does not
provide: each must stop with an error that names its library (smemu's
message on stderr when the library is installed, the loader's when it is
not), never crash or return a wrong result. cuRAND is the exception: its
kernels carry PTX and run; its numbers are checked against cuRAND's own
host generator (curandCreateGeneratorHost, the same XORWOW sequence on the
CPU). Prints "NAME: stopped: ..." or "NAME: ok" per operation."""
import ctypes

import cupy as cp
import numpy as np

from common import check


def attempt(name, fn):
    try:
        fn()
        print("%s: ran" % name)
    except Exception as e:  # the library's error, or the loader's
        print("%s: stopped: %s: %s" % (name, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))


m = cp.asarray(np.arange(16, dtype=np.float32).reshape(4, 4))
attempt("cublas", lambda: cp.dot(m, m).get())
attempt("cufft", lambda: cp.fft.fft(cp.arange(8, dtype=cp.complex64)).get())


def sparse():
    import cupyx.scipy.sparse as sp
    a = sp.csr_matrix((cp.asarray([1.0, 2.0, 3.0], cp.float32), cp.asarray([0, 2, 1], cp.int32),
                       cp.asarray([0, 1, 2, 3], cp.int32)), shape=(3, 3))
    (a @ cp.ones(3, cp.float32)).get()


attempt("cusparse", sparse)


def curand():
    dev = cp.random.RandomState(1234).random_sample(1000).get()
    lib = ctypes.CDLL("libcurand.so.10")
    g = ctypes.c_void_p()
    assert lib.curandCreateGeneratorHost(ctypes.byref(g), 101) == 0  # CURAND_RNG_PSEUDO_XORWOW
    assert lib.curandSetPseudoRandomGeneratorSeed(g, ctypes.c_ulonglong(1234)) == 0
    host = np.zeros(1000, np.float64)
    assert lib.curandGenerateUniformDouble(g, host.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(1000)) == 0
    lib.curandDestroyGenerator(g)
    check("curand", dev, host, exact=True)


try:
    curand()
except Exception as e:
    print("curand: stopped: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
