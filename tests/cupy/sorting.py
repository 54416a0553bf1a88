"""Sorting and scans: cupy.sort and argsort (CuPy's precompiled thrust),
cumsum (CUB's scan), nonzero and unique (CuPy's scan kernels, which size
themselves by the device's properties), each against NumPy."""
import cupy as cp
import numpy as np

from common import check

rng = np.random.default_rng(5)
x = rng.standard_normal(3000).astype(np.float32)
d = cp.asarray(x)
check("sort", cp.sort(d).get(), np.sort(x), exact=True)
check("argsort", x[cp.argsort(d).get()], np.sort(x), exact=True)
k = rng.integers(0, 50, (20, 30)).astype(np.int32)
check("sort axis 1", cp.sort(cp.asarray(k), axis=1).get(), np.sort(k, axis=1), exact=True)
i = rng.integers(-5, 6, 5000).astype(np.int64)
check("cumsum", cp.cumsum(cp.asarray(i)).get(), np.cumsum(i), exact=True)
check("nonzero", cp.nonzero(d > 0.5)[0].get(), np.nonzero(x > 0.5)[0], exact=True)
check("unique", cp.unique(cp.asarray(k)).get(), np.unique(k), exact=True)
props = cp.cuda.runtime.getDeviceProperties(0)
print("device: %s, compute capability %d.%d" % (props["name"].decode(), props["major"], props["minor"]))
