// mma.cu: mma.sync and movmatrix on an sm_90 GPU with random fragments.
// Each block is one warp and one trial; every lane builds its fragment
// registers from an integer hash of (config, trial, lane, slot), so smemu can
// run the same PTX and get the same inputs. The kernel writes per lane 16
// words: the A, B, C fragment words and the D words (layout per config
// below). Every fourth trial sprinkles special values (zeros, infinities,
// NaN, subnormals, huge values) into the inputs.
//   ./mma      prints "cfg NAME" then per trial and lane the 16 words (hex)
#include <cstdio>
#include <cstdint>

#define TRIALS 32

#include "mma_inputs.cuh"

// wide exponent ranges (cfg 9-12): alignment and cancellation over the
// whole normal range of the input type
__device__ uint32_t wide_f16(uint32_t h) { return (h & 0x8000) | ((1 + (h >> 16) % 30) << 10) | ((h >> 3) & 0x3ff); }
__device__ uint32_t wide_bf16(uint32_t h) { return (h & 0x8000) | ((70 + (h >> 16) % 110) << 7) | ((h >> 3) & 0x7f); }
__device__ uint32_t wide_f32(uint32_t h, uint32_t h2) {
  return (h & 0x80000000u) | ((70 + (h >> 16) % 110) << 23) | (h2 & 0x7fffffu);
}

// cfg: 0 m16n8k16 f32.f16.f16.f32   1 m16n8k16 f32.bf16.bf16.f32
//      2 m16n8k8 f32.tf32.tf32.f32  3 m8n8k4 f64          4 m16n8k16 f16.f16.f16.f16
//      5 m16n8k8 f32.f16.f16.f32    6 m16n8k8 f32.bf16.bf16.f32
//      7 m16n8k32 s32.s8.s8.s32     8 movmatrix m8n8.trans.b16
//      9 as 0, wide exponents        10 as 1, wide   11 as 2, wide
//      12 as 4, wide                 13 m16n8k8 f16.f16.f16.f16
//      14 m16n8k32 s32.u8.s8.s32     15 m16n8k16 s32.s8.s8.s32.satfinite
//      16 m16n8k4 f32.tf32           17 m16n8k64 s32.s4.s4.s32   18 m8n8k16 s32.s8.s8.s32
__global__ void mma_k(int cfg, uint32_t *out) {
  int t = blockIdx.x, lane = threadIdx.x, sp = (t & 3) == 3;
  uint32_t w[16];
  for (int i = 0; i < 16; i++) {
    uint32_t h = hsh((uint32_t)cfg * 0x01000193u + t * 0x9e3779b9u + lane * 0x85ebca6bu + i * 0xc2b2ae35u + 1);
    uint32_t h2 = hsh(h ^ 0x27d4eb2fu);
    w[i] = 0;
    switch (cfg) {
    case 0: case 4: case 5: w[i] = rnd_f16(h, sp) | rnd_f16(h2, sp) << 16; break;
    case 1: case 6: w[i] = rnd_bf16(h, sp) | rnd_bf16(h2, sp) << 16; break;
    case 2: w[i] = rnd_f32(h, h2, sp); break;
    case 3: { uint64_t v = rnd_f64(h, h2, sp); w[i] = (i & 1) ? (uint32_t)(v >> 32) : (uint32_t)v; } break;
    case 7: w[i] = h; break;
    case 8: w[i] = h; break;
    case 9: case 12: w[i] = wide_f16(h) | wide_f16(h2) << 16; break;
    case 10: w[i] = wide_bf16(h) | wide_bf16(h2) << 16; break;
    case 11: w[i] = wide_f32(h, h2); break;
    case 13: w[i] = rnd_f16(h, sp) | rnd_f16(h2, sp) << 16; break;
    case 14: case 15: case 17: case 18: w[i] = h; break;
    case 16: w[i] = rnd_f32(h, h2, sp); break;
    }
    if ((cfg == 9 || cfg == 10 || cfg == 11) && i >= 6 && i < 10) w[i] = wide_f32(h, h2);
    // C of the .satfinite form: near the int32 limits, so that sums saturate
    if (cfg == 15 && i >= 6 && i < 10) w[i] = (h & 1) ? 0x7fffff00u + (h2 & 0xff) : 0x80000000u + (h2 & 0xff);
    // C of f32-accumulating configs: f32 values (words 6..9)
    if ((cfg <= 2 || cfg == 5 || cfg == 6) && i >= 6 && i < 10) w[i] = rnd_f32(h, h2, sp);
  }
  // for f64, the high words of a double were drawn separately: rebuild each
  // double from slots (2k, 2k+1) so that both halves come from one value
  if (cfg == 3)
    for (int i = 0; i < 16; i += 2) {
      uint32_t h = hsh((uint32_t)cfg * 0x01000193u + t * 0x9e3779b9u + lane * 0x85ebca6bu + i * 0xc2b2ae35u + 1);
      uint64_t v = rnd_f64(h, hsh(h ^ 0x27d4eb2fu), sp);
      w[i] = (uint32_t)v; w[i + 1] = (uint32_t)(v >> 32);
    }
  uint32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  switch (cfg) {
  case 0: case 9:
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 1: case 10:
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 2: case 11:
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 3: {
    // A: words 0,1  B: words 4,5  C: words 6..9  D: 10..13
    double a = __hiloint2double(w[1], w[0]), b = __hiloint2double(w[5], w[4]);
    double c0 = __hiloint2double(w[7], w[6]), c1 = __hiloint2double(w[9], w[8]), e0, e1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(e0), "=d"(e1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    d0 = __double2loint(e0); d1 = __double2hiint(e0); d2 = __double2loint(e1); d3 = __double2hiint(e1);
  } break;
  case 4: case 12:
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(d0), "=r"(d1)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]));
    break;
  case 5:
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[4]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 6:
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[4]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 7:
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 8:
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d0) : "r"(w[0]));
    break;
  case 13:
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d0), "=r"(d1) : "r"(w[0]), "r"(w[1]), "r"(w[4]), "r"(w[6]), "r"(w[7]));
    break;
  case 15:
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[4]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 16:
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[4]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 17:
    asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  case 18:
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d0), "=r"(d1) : "r"(w[0]), "r"(w[4]), "r"(w[6]), "r"(w[7]));
    break;
  case 14:
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "r"(w[4]), "r"(w[5]), "r"(w[6]), "r"(w[7]), "r"(w[8]), "r"(w[9]));
    break;
  }
  uint32_t *o = out + (t * 32 + lane) * 16;
  for (int i = 0; i < 10; i++) o[i] = w[i];
  o[10] = d0; o[11] = d1; o[12] = d2; o[13] = d3; o[14] = 0; o[15] = 0;
}

int main() {
  static const char *names[] = {"m16n8k16_f32_f16", "m16n8k16_f32_bf16", "m16n8k8_f32_tf32", "m8n8k4_f64",
                                "m16n8k16_f16_f16", "m16n8k8_f32_f16", "m16n8k8_f32_bf16", "m16n8k32_s32_s8",
                                "movmatrix_trans", "m16n8k16_f32_f16_wide", "m16n8k16_f32_bf16_wide",
                                "m16n8k8_f32_tf32_wide", "m16n8k16_f16_f16_wide", "m16n8k8_f16_f16",
                                "m16n8k32_s32_u8s8", "m16n8k16_s32_s8_satfinite",
                                "m16n8k4_f32_tf32", "m16n8k64_s32_s4", "m8n8k16_s32_s8"};
  uint32_t *d_out;
  static uint32_t h[TRIALS * 32 * 16];
  cudaMalloc(&d_out, sizeof h);
  for (int cfg = 0; cfg < 19; cfg++) {
    cudaMemset(d_out, 0, sizeof h);
    mma_k<<<TRIALS, 32>>>(cfg, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    printf("cfg %s %s\n", names[cfg], e ? cudaGetErrorString(e) : "ok");
    for (int t = 0; t < TRIALS; t++)
      for (int l = 0; l < 32; l++) {
        printf("%d %d", t, l);
        for (int i = 0; i < 14; i++) printf(" %08x", h[(t * 32 + l) * 16 + i]);
        printf("\n");
      }
  }
  return 0;
}
