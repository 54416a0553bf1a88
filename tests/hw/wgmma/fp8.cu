// fp8.cu: fp8 mma.sync (m16n8k32 .e4m3/.e5m2, sm_89+) and the fp8
// conversions on an sm_90 GPU.
//   ./fp8 mma   per config, trial and lane: the A, B, C fragment words and
//               the D words (hex); inputs from an integer hash as in mma.cu
//   ./fp8 cvt   per conversion and input: the input words and the result
#include <cstdio>
#include <cstdint>
#include <cstring>

#define TRIALS 32

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
// one fp8 byte: mode 0 moderate exponents, 1 the whole range (no NaN),
// 2 moderate with special values
__device__ uint32_t rnd8(int e5, int mode, uint32_t h) {
  if (mode == 2 && (h >> 28) == 0) {
    const uint8_t s4[8] = {0x00, 0x80, 0x7f, 0xff, 0x01, 0x7e, 0xfe, 0x07};
    const uint8_t s5[8] = {0x00, 0x80, 0x7c, 0xfc, 0x7e, 0x01, 0x7b, 0x03};
    return e5 ? s5[(h >> 24) & 7] : s4[(h >> 24) & 7];
  }
  if (e5) {
    uint32_t e = mode == 1 ? (h >> 16) % 31 : 10 + (h >> 16) % 11;
    return ((h >> 8) & 0x80) | (e << 2) | (h & 3);
  }
  uint32_t e = mode == 1 ? (h >> 16) % 16 : 4 + (h >> 16) % 8;
  uint32_t v = ((h >> 8) & 0x80) | (e << 3) | (h & 7);
  if ((v & 0x7f) == 0x7f) v ^= 1;
  return v;
}
__device__ uint32_t rnd_f32(int mode, uint32_t h, uint32_t h2) {
  if (mode == 2 && (h >> 28) == 0) {
    const uint32_t s[8] = {0x0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x1u, 0x7f7fffffu, 0x007fffffu};
    return s[(h >> 24) & 7];
  }
  uint32_t e = mode == 1 ? 90 + (h >> 16) % 70 : 122 + (h >> 16) % 12;
  return (h & 0x80000000u) | (e << 23) | (h2 & 0x7fffffu);
}
__device__ uint32_t rnd_f16(int mode, uint32_t h) {
  if (mode == 2 && (h >> 28) == 0) {
    const uint16_t s[8] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x03ff};
    return s[(h >> 24) & 7];
  }
  uint32_t e = mode == 1 ? 1 + (h >> 16) % 30 : 10 + (h >> 16) % 11;
  return (h & 0x8000) | (e << 10) | ((h >> 3) & 0x3ff);
}

// cfg (types a.b, dtype; mode = cfg / 8): 0 e4m3.e4m3 f32, 1 e5m2.e5m2 f32,
// 2 e4m3.e5m2 f32, 3 e5m2.e4m3 f32, 4 e4m3.e4m3 f16, 5 e5m2.e5m2 f16,
// 6 e4m3.e5m2 f16, 7 e5m2.e4m3 f16; + 8: wide exponents, + 16: specials
#define MMA8(T, AT, BT, CT)                                                                                 \
  asm volatile("mma.sync.aligned.m16n8k32.row.col." T " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                                   \
               : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]),           \
                 "r"(w[8]), "r"(w[9]))
#define MMA8H(T)                                                                                   \
  asm volatile("mma.sync.aligned.m16n8k32.row.col." T " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" \
               : "=r"(d[0]), "=r"(d[1])                                                            \
               : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]))

__global__ void mma8_k(int cfg, uint32_t *out) {
  int t = blockIdx.x, lane = threadIdx.x, ty = cfg % 8, mode = cfg / 8;
  int ea = ty == 1 || ty == 3 || ty == 5 || ty == 7, eb = ty == 1 || ty == 2 || ty == 5 || ty == 6;
  uint32_t w[16], d[4] = {0, 0, 0, 0};
  for (int i = 0; i < 16; i++) {
    uint32_t h = hsh((uint32_t)cfg * 0x01000193u + t * 0x9e3779b9u + lane * 0x85ebca6bu + i * 0xc2b2ae35u + 7);
    uint32_t h2 = hsh(h ^ 0x27d4eb2fu);
    w[i] = 0;
    if (i < 6) {  // A words 0..3, B words 4..5: four bytes each
      int e5 = i < 4 ? ea : eb;
      for (int b = 0; b < 4; b++) w[i] |= rnd8(e5, mode, hsh(h + b * 0x632be5abu)) << (8 * b);
    } else if (ty < 4) {
      w[i] = rnd_f32(mode, h, h2);  // C (6..9)
    } else {
      w[i] = rnd_f16(mode, h) | rnd_f16(mode, h2) << 16;  // C (6..7)
    }
  }
  switch (ty) {
  case 0: MMA8("f32.e4m3.e4m3.f32", 0, 0, 0); break;
  case 1: MMA8("f32.e5m2.e5m2.f32", 0, 0, 0); break;
  case 2: MMA8("f32.e4m3.e5m2.f32", 0, 0, 0); break;
  case 3: MMA8("f32.e5m2.e4m3.f32", 0, 0, 0); break;
  case 4: MMA8H("f16.e4m3.e4m3.f16"); break;
  case 5: MMA8H("f16.e5m2.e5m2.f16"); break;
  case 6: MMA8H("f16.e4m3.e5m2.f16"); break;
  case 7: MMA8H("f16.e5m2.e4m3.f16"); break;
  }
  uint32_t *o = out + (t * 32 + lane) * 16;
  for (int i = 0; i < 10; i++) o[i] = w[i];
  for (int i = 0; i < 4; i++) o[10 + i] = d[i];
}

// conversions: 0 cvt.rn.satfinite.e4m3x2.f32  1 cvt.rn.satfinite.e5m2x2.f32
// 2 cvt.rn.satfinite.relu.e4m3x2.f32  3 cvt.rn.satfinite.e4m3x2.f16x2
// 4 cvt.rn.satfinite.e5m2x2.f16x2  5 cvt.rn.f16x2.e4m3x2  6 cvt.rn.f16x2.e5m2x2
// 7 cvt.rn.relu.f16x2.e4m3x2 ; inputs a, b per index
#define NCVT 8
#define NIN 2048
__device__ uint32_t cvt_in(int c, int i, int which) {
  uint32_t h = hsh(i * 0x9e3779b9u + which * 0x85ebca6bu + c * 0xc2b2ae35u + 3), h2 = hsh(h ^ 0x27d4eb2fu);
  if (c >= 5) return i & 0xffff;  // every fp8 pair (the low 256: every byte in both halves)
  if (c <= 2) {
    // edges near the fp8 ranges, then random over a wide range
    if (i < 64) {
      const uint32_t s[16] = {0x0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x43e00000u /*448*/,
                              0x43e80000u /*464*/, 0x43f00000u /*480*/, 0x47600000u /*57344*/, 0x47700000u /*61440*/,
                              0x3b000000u /*2^-9*/, 0x3a800000u /*2^-10*/, 0x37800000u /*2^-16*/, 0x37000000u,
                              0x3bc00000u, 0x1u};
      return s[(i + which * 5) & 15] ^ ((i >> 4) & 1 ? 0x80000000u : 0) ^ (i >= 32 ? (h2 & 0x3fff) : 0);
    }
    uint32_t e = 100 + (h >> 16) % 50;
    return (h & 0x80000000u) | (e << 23) | (h2 & 0x7fffffu);
  }
  // f16x2
  uint32_t lo, hi;
  if (i < 64) {
    const uint16_t s[16] = {0x0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x5f00 /*448*/, 0x5f40, 0x5f80, 0x7b00 /*57344*/,
                            0x7b80, 0x1800 /*2^-9*/, 0x1400, 0x0001, 0x03ff, 0x1e00, 0x7bff};
    lo = s[(i + which) & 15] ^ (h2 & 0x7);
    hi = s[(i * 3 + which) & 15] ^ (h & 0x8000);
  } else {
    lo = (h & 0x8000) | ((1 + (h >> 16) % 30) << 10) | ((h >> 3) & 0x3ff);
    hi = (h2 & 0x8000) | ((1 + (h2 >> 16) % 30) << 10) | ((h2 >> 3) & 0x3ff);
  }
  return lo | hi << 16;
}
__global__ void cvt_k(uint32_t *out) {
  int c = blockIdx.x, i = threadIdx.x + blockIdx.y * blockDim.x;
  uint32_t a = cvt_in(c, i, 0), b = cvt_in(c, i, 1);
  uint16_t r16 = 0;
  uint32_t r32 = 0;
  switch (c) {
  case 0: asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r16) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); r32 = r16; break;
  case 1: asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r16) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); r32 = r16; break;
  case 2: asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(r16) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); r32 = r16; break;
  case 3: asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r16) : "r"(a)); r32 = r16; break;
  case 4: asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r16) : "r"(a)); r32 = r16; break;
  case 5: asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r32) : "h"((uint16_t)a)); break;
  case 6: asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r32) : "h"((uint16_t)a)); break;
  case 7: asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(r32) : "h"((uint16_t)a)); break;
  }
  uint32_t *o = out + (c * NIN + i) * 3;
  o[0] = a; o[1] = b; o[2] = r32;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "mma";
  if (!strcmp(what, "mma")) {
    uint32_t *d_out, h[TRIALS * 32 * 16];
    cudaMalloc(&d_out, sizeof h);
    for (int cfg = 0; cfg < 24; cfg++) {
      cudaMemset(d_out, 0, sizeof h);
      mma8_k<<<TRIALS, 32>>>(cfg, d_out);
      cudaError_t e = cudaDeviceSynchronize();
      cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
      printf("cfg %d %s\n", cfg, e ? cudaGetErrorString(e) : "ok");
      if (e) return 1;
      for (int t = 0; t < TRIALS; t++)
        for (int l = 0; l < 32; l++) {
          printf("%d %d", t, l);
          for (int i = 0; i < 14; i++) printf(" %08x", h[(t * 32 + l) * 16 + i]);
          printf("\n");
        }
    }
    return 0;
  }
  static uint32_t h[NCVT * NIN * 3];
  uint32_t *d_out;
  cudaMalloc(&d_out, sizeof h);
  cvt_k<<<dim3(NCVT, NIN / 256), 256>>>(d_out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  printf("cvt %s\n", e ? cudaGetErrorString(e) : "ok");
  for (int c = 0; c < NCVT; c++)
    for (int i = 0; i < NIN; i++) {
      const uint32_t *o = h + (c * NIN + i) * 3;
      printf("%d %d %08x %08x %08x\n", c, i, o[0], o[1], o[2]);
    }
  return e ? 1 : 0;
}
