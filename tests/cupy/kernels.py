"""CuPy's user kernels: RawKernel, RawModule (with a C++ template through
name_expressions), ElementwiseKernel and ReductionKernel, each against
NumPy."""
import cupy as cp
import numpy as np

from common import check

rng = np.random.default_rng(3)

saxpy = cp.RawKernel(r'''
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}''', "saxpy")
n = 1000
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
out = cp.empty(n, cp.float32)
saxpy(((n + 127) // 128,), (128,), (np.float32(2.5), cp.asarray(x), cp.asarray(y), out, np.int32(n)))
check("RawKernel saxpy", out.get(), np.float32(2.5) * x + y)

mod = cp.RawModule(code=r'''
template <typename T>
__global__ void scale(T* a, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}
extern "C" __global__ void iota(int* a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = i;
}''', name_expressions=["scale<double>", "scale<int>"])
d = cp.asarray(np.arange(100, dtype=np.float64))
mod.get_function("scale<double>")((1,), (128,), (d, np.float64(0.5), np.int32(100)))
check("RawModule scale<double>", d.get(), np.arange(100) * 0.5, exact=True)
di = cp.zeros(300, cp.int32)
mod.get_function("iota")((2,), (64,), (di, np.int32(300)))
mod.get_function("scale<int>")((3,), (128,), (di, np.int32(-3), np.int32(300)))
check("RawModule iota, scale<int>", di.get(), np.arange(300, dtype=np.int32) * -3, exact=True)

squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
a = rng.standard_normal((20, 30)).astype(np.float32)
b = rng.standard_normal(30).astype(np.float32)
check("ElementwiseKernel broadcast", squared_diff(cp.asarray(a), cp.asarray(b)).get(), (a - b) ** 2)
clamp = cp.ElementwiseKernel("T x, T lo, T hi", "T y", "y = x < lo ? lo : (x > hi ? hi : x)", "clamp")
i = np.arange(-50, 50, dtype=np.int64)
check("ElementwiseKernel generic", clamp(cp.asarray(i), -7, 9).get(), np.clip(i, -7, 9), exact=True)

l2norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
m = rng.standard_normal((40, 500)).astype(np.float64)
check("ReductionKernel axis 1", l2norm(cp.asarray(m), axis=1).get(), np.sqrt((m * m).sum(axis=1)), rtol=1e-12)
check("ReductionKernel all", float(l2norm(cp.asarray(m))), np.sqrt((m * m).sum()), rtol=1e-12)
count_pos = cp.ReductionKernel("T x", "int64 n", "x > 0 ? 1 : 0", "a + b", "n = a", "0", "count_pos")
v = rng.standard_normal((7, 5000))
check("ReductionKernel count", count_pos(cp.asarray(v), axis=1).get(), (v > 0).sum(axis=1), exact=True)
