"""CuPy's streams, events, memory and graphs on smemu: work on a
non-blocking stream timed by two events, pinned host memory copied
asynchronously, the stream-ordered (cudaMallocAsync) and managed
allocators, a stream captured into a CUDA graph and launched twice, and a
texture object over a CUDA array read by a RawKernel; each result against
NumPy."""
import cupy as cp
import numpy as np

from common import check

s = cp.cuda.Stream(non_blocking=True)
with s:
    a = cp.arange(1000, dtype=cp.float32) * 2
    e1 = cp.cuda.Event()
    e1.record()
    total = a.sum()
    e2 = cp.cuda.Event()
    e2.record()
s.synchronize()
check("stream sum", float(total), float((np.arange(1000, dtype=np.float32) * 2).sum()), exact=True)
check("events elapsed", cp.cuda.get_elapsed_time(e1, e2) >= 0, True, exact=True)

mem = cp.cuda.alloc_pinned_memory(4000)
h = np.frombuffer(mem, np.float32, 1000)
h[:] = np.arange(1000, dtype=np.float32) - 500
d = cp.empty(1000, cp.float32)
d.set(h, stream=s)
back = np.frombuffer(cp.cuda.alloc_pinned_memory(4000), np.float32, 1000)
(d * 3).get(out=back, stream=s)
s.synchronize()
check("pinned async copies", back, h * 3, exact=True)

for name, alloc in (("cudaMallocAsync pool", cp.cuda.MemoryAsyncPool().malloc),
                    ("managed memory", cp.cuda.malloc_managed)):
    cp.cuda.set_allocator(alloc)
    x = cp.linspace(0, 1, 257)
    check(name, (x * x).get(), np.linspace(0, 1, 257) ** 2)
cp.cuda.set_allocator(cp.cuda.MemoryPool().malloc)

g_stream = cp.cuda.Stream(non_blocking=True)
y = cp.zeros(10)
with g_stream:
    g_stream.begin_capture()
    y += 1
    y *= 2
    graph = g_stream.end_capture()
graph.launch(g_stream)
graph.launch(g_stream)
g_stream.synchronize()
check("graph launched twice", y.get(), np.full(10, 6.0), exact=True)  # (0+1)*2 = 2, (2+1)*2 = 6

from cupy.cuda import texture as tx  # noqa: E402
rt = cp.cuda.runtime
arr = tx.CUDAarray(tx.ChannelFormatDescriptor(32, 0, 0, 0, rt.cudaChannelFormatKindFloat), 64)
src = np.linspace(-3, 3, 64).astype(np.float32)
arr.copy_from(src)
tex = tx.TextureObject(tx.ResourceDescriptor(rt.cudaResourceTypeArray, cuArr=arr),
                       tx.TextureDescriptor([rt.cudaAddressModeClamp], rt.cudaFilterModePoint,
                                            rt.cudaReadModeElementType))
fetch = cp.RawKernel(r'''
extern "C" __global__ void fetch(cudaTextureObject_t t, float* out) {
  int i = threadIdx.x;
  out[i] = tex1D<float>(t, i + 0.5f);
}''', "fetch")
out = cp.zeros(64, cp.float32)
fetch((1,), (64,), (tex, out))
check("texture object", out.get(), src, exact=True)
