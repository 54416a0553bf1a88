// link_funcs.cu: device functions link.py links into its kernel (Numba
// compiles this file with NVRTC to a second PTX input of the linker).
// Numba's calling convention: the result through the first pointer, 0 for
// success.
static __device__ int twice(int x) { return 2 * x; }
extern "C" __device__ int poly(int *out, int x) {
  *out = twice(x) * x + 3; // 2x^2 + 3
  return 0;
}
extern "C" __device__ int clamp_add(float *out, float a, float b) {
  float s = a + b;
  *out = s > 100.0f ? 100.0f : s;
  return 0;
}
