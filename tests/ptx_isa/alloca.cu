// alloca.cu: a buffer from alloca per thread; out[t] = t * sum_{k=1..n} (n-k)*k
// (165 t for n = 10). alloca.ptx is nvcc -arch=sm_90a -ptx of it.
#include <cstdint>
extern "C" __global__ void va(int *out, int n) {
  int *buf = (int *)alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) buf[i] = i * threadIdx.x;
  int s = 0;
  for (int i = 0; i < n; i++) s += buf[n - 1 - i] * (i + 1);
  out[threadIdx.x] = s;
}
