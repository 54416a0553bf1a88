"""Reductions (sum, max, min, argmax, argmin, mean, along axes): run once
with CuPy's CUB accelerator and once without (cupy_test.sh sets
CUPY_ACCELERATORS), each result against NumPy's. The argument names the
run; the CUB run's kernels come from CuPy's precompiled CUB (whole-array
reductions) and NVRTC-compiled CUB block reductions (along an axis)."""
import sys

import cupy as cp
import numpy as np
from cupy._core import _accelerator

from common import check

want_cub = sys.argv[1] == "cub"
have = _accelerator.get_routine_accelerators()
print("accelerators: %s" % ("cub" if have else "none"))
if bool(have) != want_cub:
    print("accelerators: WRONG, want %s" % sys.argv[1])

rng = np.random.default_rng(11)
x = rng.uniform(-1, 1, 100000).astype(np.float32)
dx = cp.asarray(x)
# float32 tree sums of 1e5 values in [-1, 1]: an error of about
# log2(1e5) x 2^-24 x sum|x| (17 x 6e-8 x 5e4 = 0.05) at most
check("sum", float(dx.sum()), x.astype(np.float64).sum(), atol=0.1)
check("max", float(dx.max()), x.max(), exact=True)
check("min", float(dx.min()), x.min(), exact=True)
check("argmax", int(dx.argmax()), int(x.argmax()), exact=True)
check("argmin", int(dx.argmin()), int(x.argmin()), exact=True)
i = rng.integers(-1000, 1000, 50000).astype(np.int64)
check("int sum", int(cp.asarray(i).sum()), int(i.sum()), exact=True)

m = rng.uniform(-1, 1, (300, 257)).astype(np.float64)
dm = cp.asarray(m)
check("sum axis 0", dm.sum(axis=0).get(), m.sum(axis=0), rtol=1e-12)
check("sum axis 1", dm.sum(axis=1).get(), m.sum(axis=1), rtol=1e-12)
check("max axis 1", dm.max(axis=1).get(), m.max(axis=1), exact=True)
check("argmax axis 0", dm.argmax(axis=0).get(), m.argmax(axis=0), exact=True)
check("mean", float(dm.mean()), m.mean(), rtol=1e-12)
