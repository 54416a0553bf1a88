// misc.cu: the last known gaps of the ISA form test with values recorded:
// lop3 with a predicate output (lop3.or / lop3.and), fma.rn{.relu,.sat}.oob
// on f16/bf16 (scalar and x2) over NaN payloads, cvt.pack.sat into 8/4/2-bit
// lanes over a third operand. 256 threads; thread i writes 16 words.
//   ./misc   prints "i w0 .. w15" per thread
#include <cstdio>
#include <cstdint>

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
// half and bfloat16 inputs: normal values, zeros, infinities and NaN payloads
__constant__ uint16_t h16[16] = {0x3c00, 0xbc00, 0x4200, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00,
                                 0x7fff, 0xffff, 0x7c01, 0xfe00, 0x3555, 0x0001, 0x7bff, 0xc500};
__constant__ uint16_t b16[16] = {0x3f80, 0xbf80, 0x4040, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0,
                                 0x7fff, 0xffff, 0x7f81, 0xffc0, 0x3eab, 0x0001, 0x7f7f, 0xc0a0};
__constant__ int32_t iv[16] = {0, 1, -1, 7, 8, -8, -9, 127, 128, -128, -129, 255, 256, 3, -2, 0x7fffffff};

__global__ void misc_k(uint32_t *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t h = hsh(i + 11), o[16];
  // lop3 with a predicate: d = lop3(a, b, c), p = (d != 0) op q
  uint32_t a = hsh(h), b = hsh(h + 1), c = hsh(h + 2);
  if (i & 4) a = 0, b = 0, c = 0; // d = 0 for lut 0x96
  int q = (i >> 1) & 1;
  uint32_t d1, d2, p1, p2;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 q, %6, 0; lop3.or.b32 %0|p, %2, %3, %4, 0x96, q; selp.u32 %1, 1, 0, p; }"
               : "=r"(d1), "=r"(p1) : "r"(a), "r"(b), "r"(c), "r"(0), "r"(q));
  asm volatile("{ .reg .pred p, q; setp.ne.s32 q, %6, 0; lop3.and.b32 %0|p, %2, %3, %4, 0xe8, q; selp.u32 %1, 1, 0, p; }"
               : "=r"(d2), "=r"(p2) : "r"(a), "r"(b), "r"(c), "r"(0), "r"(q));
  o[0] = d1; o[1] = p1; o[2] = d2; o[3] = p2;
  // fma.oob: a, b, c from the tables
  uint16_t ha = h16[i & 15], hb = h16[(i >> 4) & 15], hc = h16[(i * 7 + 3) & 15];
  uint16_t ba = b16[i & 15], bb = b16[(i >> 4) & 15], bc = b16[(i * 7 + 3) & 15];
  uint16_t r1, r2, r3, r4, r5;
  asm volatile("fma.rn.oob.f16 %0, %1, %2, %3;" : "=h"(r1) : "h"(ha), "h"(hb), "h"(hc));
  asm volatile("fma.rn.relu.oob.f16 %0, %1, %2, %3;" : "=h"(r2) : "h"(ha), "h"(hb), "h"(hc));
  asm volatile("fma.rn.sat.oob.f16 %0, %1, %2, %3;" : "=h"(r3) : "h"(ha), "h"(hb), "h"(hc));
  asm volatile("fma.rn.oob.bf16 %0, %1, %2, %3;" : "=h"(r4) : "h"(ba), "h"(bb), "h"(bc));
  asm volatile("fma.rn.relu.oob.bf16 %0, %1, %2, %3;" : "=h"(r5) : "h"(ba), "h"(bb), "h"(bc));
  o[4] = r1 | (uint32_t)r2 << 16; o[5] = r3 | (uint32_t)r4 << 16; o[6] = r5;
  uint32_t x1, x2, x3;
  uint32_t ha2 = ha | (uint32_t)hc << 16, hb2 = hb | (uint32_t)ha << 16, hc2 = hc | (uint32_t)hb << 16;
  uint32_t ba2 = ba | (uint32_t)bc << 16, bb2 = bb | (uint32_t)ba << 16, bc2 = bc | (uint32_t)bb << 16;
  asm volatile("fma.rn.oob.f16x2 %0, %1, %2, %3;" : "=r"(x1) : "r"(ha2), "r"(hb2), "r"(hc2));
  asm volatile("fma.rn.sat.oob.f16x2 %0, %1, %2, %3;" : "=r"(x2) : "r"(ha2), "r"(hb2), "r"(hc2));
  asm volatile("fma.rn.relu.oob.bf16x2 %0, %1, %2, %3;" : "=r"(x3) : "r"(ba2), "r"(bb2), "r"(bc2));
  o[7] = x1; o[8] = x2; o[9] = x3;
  // cvt.pack.sat: a, b from the table, c a pattern
  int32_t sa = iv[i & 15], sb = iv[(i >> 4) & 15];
  uint32_t cc = 0x89abcdefu ^ hsh(i);
  asm volatile("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(o[10]) : "r"(sa), "r"(sb), "r"(cc));
  asm volatile("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(o[11]) : "r"(sa), "r"(sb), "r"(cc));
  asm volatile("cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;" : "=r"(o[12]) : "r"(sa), "r"(sb), "r"(cc));
  asm volatile("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(o[13]) : "r"(sa), "r"(sb), "r"(cc));
  asm volatile("cvt.pack.sat.u2.s32.b32 %0, %1, %2, %3;" : "=r"(o[14]) : "r"(sa), "r"(sb), "r"(cc));
  asm volatile("cvt.pack.sat.s2.s32.b32 %0, %1, %2, %3;" : "=r"(o[15]) : "r"(sa), "r"(sb), "r"(cc));
  for (int k = 0; k < 16; k++) out[16 * i + k] = o[k];
}

int main() {
  uint32_t *d, h[256 * 16];
  cudaMalloc(&d, sizeof h);
  misc_k<<<2, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("status %s\n", e ? cudaGetErrorString(e) : "ok");
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; i++) {
    printf("%d", i);
    for (int k = 0; k < 16; k++) printf(" %08x", h[16 * i + k]);
    printf("\n");
  }
  return 0;
}
