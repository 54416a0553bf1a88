"""Array creation, copies between host and device, elementwise arithmetic:
each result against NumPy's on the CPU."""
import cupy as cp
import numpy as np

from common import check

# creation
check("zeros", cp.zeros((3, 5), dtype=cp.float32).get(), np.zeros((3, 5), np.float32), exact=True)
check("ones", cp.ones(7, dtype=cp.int64).get(), np.ones(7, np.int64), exact=True)
check("full", cp.full((2, 3), 2.5).get(), np.full((2, 3), 2.5), exact=True)
check("arange", cp.arange(3, 50, 4, dtype=cp.int32).get(), np.arange(3, 50, 4, dtype=np.int32), exact=True)
check("linspace", cp.linspace(-1, 1, 33).get(), np.linspace(-1, 1, 33))
check("eye", cp.eye(4, k=1, dtype=cp.float64).get(), np.eye(4, k=1), exact=True)

# copies: host -> device -> host, device -> device, into an existing array,
# strided and transposed views made contiguous
rng = np.random.default_rng(7)
h = rng.standard_normal((64, 48)).astype(np.float32)
d = cp.asarray(h)
check("h2d2h", cp.asnumpy(d), h, exact=True)
d2 = d.copy()
d2 += 1
check("d2d copy is a copy", d.get(), h, exact=True)
out = cp.empty_like(d)
out.set(h * 2)
check("set", out.get(), h * 2, exact=True)
check("strided view", cp.ascontiguousarray(d[::3, 1::2]).get(), h[::3, 1::2], exact=True)
check("transpose copy", cp.ascontiguousarray(d.T).get(), np.ascontiguousarray(h.T), exact=True)
hb = np.empty_like(h)
d.get(out=hb)
check("get into host array", hb, h, exact=True)

# elementwise arithmetic, broadcasting, math functions, comparisons, casts
a = rng.uniform(0.5, 2.0, (32, 40)).astype(np.float32)
b = rng.uniform(0.5, 2.0, (40,)).astype(np.float32)
da, db = cp.asarray(a), cp.asarray(b)
check("add broadcast", (da + db).get(), a + b)
check("mul sub", (da * 3 - db).get(), a * 3 - b)
check("div", (da / db).get(), a / b)
check("sqrt exp", (cp.sqrt(da) + cp.exp(-db)).get(), np.sqrt(a) + np.exp(-b))
check("sin log", (cp.sin(da) * cp.log(db)).get(), np.sin(a) * np.log(b))
check("where", cp.where(da > 1, da, -da).get(), np.where(a > 1, a, -a), exact=True)
check("astype int", (da * 10).astype(cp.int32).get(), (a * 10).astype(np.int32), exact=True)
i = np.arange(-20, 20, dtype=np.int32)
di = cp.asarray(i)
check("int ops", ((di * 7) // 3 % 5 ^ 2).get(), (i * 7) // 3 % 5 ^ 2, exact=True)
check("float64", (cp.asarray(a.astype(np.float64)) ** 2.5).get(), a.astype(np.float64) ** 2.5, rtol=1e-12)
c = (rng.standard_normal(16) + 1j * rng.standard_normal(16)).astype(np.complex64)
check("complex", (cp.asarray(c) * (1 - 2j)).get(), c * (1 - 2j))
