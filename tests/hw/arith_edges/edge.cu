// edge.cu: PTX instructions whose results the ISA leaves undefined or
// states in a way worth checking: integer division by zero and overflow,
// float-to-integer conversion of NaN, infinities and out-of-range values.
// Each thread runs one case; the result goes to out[case]. The inputs come
// from memory (in[]) so nothing is folded at compile time. Recorded on a
// GPU by record.sh; tests/unit/test_hw_edge.c runs edge.ptx on smemu and
// compares with the recording.
#include <stdint.h>

#define CASE(n, body) if (t == n) { body; }

extern "C" __global__ void edge(unsigned long long *out, const unsigned long long *in) {
  int t = threadIdx.x;
  unsigned long long r = 0;
  uint32_t a32 = (uint32_t)in[0], z32 = (uint32_t)in[1], m32 = (uint32_t)in[2], n1 = (uint32_t)in[3];
  uint64_t a64 = in[4], z64 = in[5], m64 = in[6], n164 = in[7];
  float fnan = __int_as_float((int)in[8]), finf = __int_as_float((int)in[9]), fbig = __int_as_float((int)in[10]);
  double dnan = __longlong_as_double((long long)in[11]), dinf = __longlong_as_double((long long)in[12]);
  uint32_t o32; uint64_t o64; uint16_t o16;
  // integer division and remainder by zero, and MIN / -1 (a32 = 7, m32 = INT_MIN, n1 = -1)
  CASE(0, asm("div.u32 %0, %1, %2;" : "=r"(o32) : "r"(a32), "r"(z32)); r = o32)
  CASE(1, asm("rem.u32 %0, %1, %2;" : "=r"(o32) : "r"(a32), "r"(z32)); r = o32)
  CASE(2, asm("div.s32 %0, %1, %2;" : "=r"(o32) : "r"(a32), "r"(z32)); r = o32)
  CASE(3, asm("rem.s32 %0, %1, %2;" : "=r"(o32) : "r"(a32), "r"(z32)); r = o32)
  CASE(4, asm("div.s32 %0, %1, %2;" : "=r"(o32) : "r"(0u - a32), "r"(z32)); r = o32)
  CASE(5, asm("rem.s32 %0, %1, %2;" : "=r"(o32) : "r"(0u - a32), "r"(z32)); r = o32)
  CASE(6, asm("div.s32 %0, %1, %2;" : "=r"(o32) : "r"(m32), "r"(n1)); r = o32)
  CASE(7, asm("rem.s32 %0, %1, %2;" : "=r"(o32) : "r"(m32), "r"(n1)); r = o32)
  CASE(8, asm("div.u64 %0, %1, %2;" : "=l"(o64) : "l"(a64), "l"(z64)); r = o64)
  CASE(9, asm("rem.u64 %0, %1, %2;" : "=l"(o64) : "l"(a64), "l"(z64)); r = o64)
  CASE(10, asm("div.s64 %0, %1, %2;" : "=l"(o64) : "l"(a64), "l"(z64)); r = o64)
  CASE(11, asm("rem.s64 %0, %1, %2;" : "=l"(o64) : "l"(a64), "l"(z64)); r = o64)
  CASE(12, asm("div.s64 %0, %1, %2;" : "=l"(o64) : "l"(0 - a64), "l"(z64)); r = o64)
  CASE(13, asm("div.s64 %0, %1, %2;" : "=l"(o64) : "l"(m64), "l"(n164)); r = o64)
  CASE(14, asm("rem.s64 %0, %1, %2;" : "=l"(o64) : "l"(m64), "l"(n164)); r = o64)
  CASE(15, asm("div.u16 %0, %1, %2;" : "=h"(o16) : "h"((uint16_t)a32), "h"((uint16_t)z32)); r = o16)
  CASE(16, asm("div.s16 %0, %1, %2;" : "=h"(o16) : "h"((uint16_t)a32), "h"((uint16_t)z32)); r = o16)
  // float to integer: NaN, infinity, out of range
  CASE(20, asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(o32) : "f"(fnan)); r = o32)
  CASE(21, asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(o32) : "f"(fnan)); r = o32)
  CASE(22, asm("cvt.rzi.s64.f32 %0, %1;" : "=l"(o64) : "f"(fnan)); r = o64)
  CASE(23, asm("cvt.rzi.u64.f32 %0, %1;" : "=l"(o64) : "f"(fnan)); r = o64)
  CASE(24, asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(o32) : "d"(dnan)); r = o32)
  CASE(25, asm("cvt.rzi.u32.f64 %0, %1;" : "=r"(o32) : "d"(dnan)); r = o32)
  CASE(26, asm("cvt.rzi.s64.f64 %0, %1;" : "=l"(o64) : "d"(dnan)); r = o64)
  CASE(27, asm("cvt.rzi.u64.f64 %0, %1;" : "=l"(o64) : "d"(dnan)); r = o64)
  CASE(28, asm("cvt.rzi.s16.f32 %0, %1;" : "=h"(o16) : "f"(fnan)); r = o16)
  CASE(29, asm("cvt.rzi.u16.f32 %0, %1;" : "=h"(o16) : "f"(fnan)); r = o16)
  CASE(30, asm("cvt.rzi.s16.f64 %0, %1;" : "=h"(o16) : "d"(dnan)); r = o16)
  CASE(31, asm("cvt.rni.s32.f32 %0, %1;" : "=r"(o32) : "f"(finf)); r = o32)
  CASE(32, asm("cvt.rni.s32.f32 %0, %1;" : "=r"(o32) : "f"(-finf)); r = o32)
  CASE(33, asm("cvt.rni.u32.f32 %0, %1;" : "=r"(o32) : "f"(-fbig)); r = o32)
  CASE(34, asm("cvt.rni.s64.f32 %0, %1;" : "=l"(o64) : "f"(fbig)); r = o64)
  CASE(35, asm("cvt.rzi.s64.f64 %0, %1;" : "=l"(o64) : "d"(dinf)); r = o64)
  CASE(36, asm("cvt.rzi.u64.f64 %0, %1;" : "=l"(o64) : "d"(-dinf)); r = o64)
  CASE(37, asm("cvt.rzi.s8.f32 %0, %1;" : "=h"(o16) : "f"(fbig)); r = o16)
  CASE(38, asm("cvt.rzi.u8.f32 %0, %1;" : "=h"(o16) : "f"(fnan)); r = o16)
  // float arithmetic on NaN: the bit pattern of the result
  CASE(40, { float x; asm("add.f32 %0, %1, %2;" : "=f"(x) : "f"(fnan), "f"(fbig)); r = (uint32_t)__float_as_int(x); })
  CASE(41, { float x; asm("mul.f32 %0, %1, %2;" : "=f"(x) : "f"(finf), "f"(0.0f * fbig)); r = (uint32_t)__float_as_int(x); })
  CASE(42, { double x; asm("add.f64 %0, %1, %2;" : "=d"(x) : "d"(dnan), "d"(dinf)); r = (uint64_t)__double_as_longlong(x); })
  CASE(43, { float x; asm("sqrt.rn.f32 %0, %1;" : "=f"(x) : "f"(-fbig)); r = (uint32_t)__float_as_int(x); })
  CASE(44, { float x; asm("cvt.rn.f32.f64 %0, %1;" : "=f"(x) : "d"(dnan) ); r = (uint32_t)__float_as_int(x); })
  CASE(45, { float x; asm("min.f32 %0, %1, %2;" : "=f"(x) : "f"(fnan), "f"(fnan)); r = (uint32_t)__float_as_int(x); })
  CASE(46, { float x; asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"((uint16_t)0x7e01)); r = (uint32_t)__float_as_int(x); })
  // shifts at and past the width
  CASE(50, asm("shl.b32 %0, %1, %2;" : "=r"(o32) : "r"(a32), "r"(32u + z32)); r = o32)
  CASE(51, asm("shr.s32 %0, %1, %2;" : "=r"(o32) : "r"(m32), "r"(40u + z32)); r = o32)
  CASE(52, asm("shr.u64 %0, %1, %2;" : "=l"(o64) : "l"(m64), "r"(64u + z32)); r = o64)
  CASE(53, asm("bfe.s32 %0, %1, %2, %3;" : "=r"(o32) : "r"(m32), "r"(28u + z32), "r"(8u + z32)); r = o32)
  CASE(54, asm("bfe.u32 %0, %1, %2, %3;" : "=r"(o32) : "r"(m32), "r"(0u + z32), "r"(0u + z32)); r = o32)
  out[t] = r;
}
