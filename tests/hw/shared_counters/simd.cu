// simd.cu: the SIMD intrinsics (packed bytes and halves: vabsdiff4,
// add/sub/min/max.{u16,s16}x2, ...) and __fns, for every lane on inputs from
// memory; simd_main.cu writes the results, tests/unit/test_hw_simd.c
// compares smemu's with the H200's.
#define NOPS 24
extern "C" __global__ void simd(const unsigned *a, unsigned *o) {
  unsigned t = threadIdx.x, x = a[t], y = a[t + 64];
  unsigned r[NOPS] = {
      __vadd4(x, y),   __vsub4(x, y),    __vadd2(x, y),    __vsub2(x, y),    __vabsdiffu4(x, y), __vabsdiffs4(x, y),
      __vabsdiffu2(x, y), __vabsdiffs2(x, y), __vavgu4(x, y), __vavgs2(x, y), __vminu4(x, y),  __vmaxs4(x, y),
      __vminu2(x, y),  __vmaxs2(x, y),   __vaddss4(x, y),  __vaddus2(x, y),  __vsubss2(x, y),  __vcmpeq4(x, y),
      __vcmpltu2(x, y), __vsads4(x, y),  __vsadu2(x, y),   __vneg4(x),       __fns(x, t & 31, (int)(y % 7) - 3),
      __fns(y, 31 - (t & 31), -(int)(x % 5))};
  for (int i = 0; i < NOPS; i++) o[i * 64 + t] = r[i];
}
