"""What the CuPy scripts share: a check that prints "NAME: ok" or
"NAME: WRONG ..." (cupy_test.sh counts them) against NumPy on the CPU."""
import numpy as np


def check(name, got, want, exact=False, rtol=1e-5, atol=1e-6):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        print("%s: WRONG shape %s, want %s" % (name, got.shape, want.shape))
        return
    ok = np.array_equal(got, want) if exact else np.allclose(got, want, rtol=rtol, atol=atol)
    if ok:
        print("%s: ok" % name)
    else:
        bad = np.argwhere(~np.isclose(got, want, rtol=rtol, atol=atol) if not exact else got != want)
        print("%s: WRONG at %s: %r, want %r" % (name, bad[:3].tolist(), got.flat[0:4], want.flat[0:4]))
