// forms.cu: the integer mma.sync shapes and cvt.pack.sat forms the CUTLASS
// examples' sub-byte and 8-bit kernels use, with inputs from a hash, so the
// GPU's results (recorded/forms.out) check smemu's bit for bit. Every case
// runs four trials: C small, C near INT32_MAX, C near INT32_MIN, C any (the
// .satfinite forms clamp in the second and third). Prints one line per
// lane: case trial lane D words (hex).
#include <cstdio>
#include <cstdint>

__device__ uint32_t hash(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

#define MMA_1_1_2(form)                                                                  \
  asm volatile("mma.sync.aligned." form " {%0,%1}, {%2}, {%3}, {%4,%5};"               \
               : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
#define MMA_2_1_4(form)                                                                  \
  asm volatile("mma.sync.aligned." form " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                          \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define MMA_4_2_4(form)                                                                  \
  asm volatile("mma.sync.aligned." form                                                  \
               " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"              \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                          \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),       \
                 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define PACK3(form) asm volatile("cvt.pack.sat." form " %0, %1, %2;" : "=r"(d[0]) : "r"(a[0]), "r"(a[1]))
#define PACK4(form)                                                                      \
  asm volatile("cvt.pack.sat." form " %0, %1, %2, %3;" : "=r"(d[0]) : "r"(a[0]), "r"(a[1]), "r"(c[0]))

#define NCASES 22
__constant__ int nwords[NCASES] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1};
static const char *names[NCASES] = {
  "m8n8k16.u8.u8", "m8n8k16.s8.u8", "m8n8k16.u8.s8", "m8n8k16.satfinite.s8.s8", "m8n8k32.s4.s4",
  "m8n8k32.u4.u4", "m8n8k32.s4.u4", "m8n8k32.satfinite.s4.s4", "m8n8k32.satfinite.u4.s4",
  "m16n8k32.s4.s4", "m16n8k32.satfinite.u4.u4", "m16n8k16.u8.u8", "m16n8k16.satfinite.u8.s8",
  "m16n8k64.satfinite.u4.s4", "pack.s16", "pack.u16", "pack.s8", "pack.u8", "pack.s4", "pack.u4",
  "pack.s2", "pack.u2"};

__global__ void forms(int cs, int trial, uint32_t *out) {
  int l = threadIdx.x;
  uint32_t a[4], b[2], c[4], d[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) a[i] = hash(cs * 100003 + trial * 1009 + l * 17 + i);
  for (int i = 0; i < 2; i++) b[i] = hash(cs * 100003 + trial * 1009 + l * 17 + 8 + i);
  for (int i = 0; i < 4; i++) {
    uint32_t h = hash(cs * 100003 + trial * 1009 + l * 17 + 12 + i);
    c[i] = trial == 0 ? (h & 0xffff) - 0x8000 : trial == 1 ? 0x7fffffffu - (h & 0x3ffff)
         : trial == 2 ? 0x80000000u + (h & 0x3ffff) : h;
  }
  if (cs >= 14) { // cvt.pack: a pair of s32 around each narrow range, or any
    for (int i = 0; i < 2; i++) {
      uint32_t h = hash(cs * 7 + trial * 3 + l * 5 + i);
      a[i] = trial == 3 ? h : (int32_t)(h % 200001) - 100000;
      if (trial == 1) a[i] = (int32_t)(h % 41) - 20;
    }
  }
  switch (cs) {
  case 0: MMA_1_1_2("m8n8k16.row.col.s32.u8.u8.s32"); break;
  case 1: MMA_1_1_2("m8n8k16.row.col.s32.s8.u8.s32"); break;
  case 2: MMA_1_1_2("m8n8k16.row.col.s32.u8.s8.s32"); break;
  case 3: MMA_1_1_2("m8n8k16.row.col.satfinite.s32.s8.s8.s32"); break;
  case 4: MMA_1_1_2("m8n8k32.row.col.s32.s4.s4.s32"); break;
  case 5: MMA_1_1_2("m8n8k32.row.col.s32.u4.u4.s32"); break;
  case 6: MMA_1_1_2("m8n8k32.row.col.s32.s4.u4.s32"); break;
  case 7: MMA_1_1_2("m8n8k32.row.col.satfinite.s32.s4.s4.s32"); break;
  case 8: MMA_1_1_2("m8n8k32.row.col.satfinite.s32.u4.s4.s32"); break;
  case 9: MMA_2_1_4("m16n8k32.row.col.s32.s4.s4.s32"); break;
  case 10: MMA_2_1_4("m16n8k32.row.col.satfinite.s32.u4.u4.s32"); break;
  case 11: MMA_2_1_4("m16n8k16.row.col.s32.u8.u8.s32"); break;
  case 12: MMA_2_1_4("m16n8k16.row.col.satfinite.s32.u8.s8.s32"); break;
  case 13: MMA_4_2_4("m16n8k64.row.col.satfinite.s32.u4.s4.s32"); break;
  case 14: PACK3("s16.s32"); break;
  case 15: PACK3("u16.s32"); break;
  case 16: PACK4("s8.s32.b32"); break;
  case 17: PACK4("u8.s32.b32"); break;
  case 18: PACK4("s4.s32.b32"); break;
  case 19: PACK4("u4.s32.b32"); break;
  case 20: PACK4("s2.s32.b32"); break;
  case 21: PACK4("u2.s32.b32"); break;
  }
  for (int i = 0; i < 4; i++) out[l * 4 + i] = d[i];
}

int main() {
  uint32_t *dev, host[128];
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) { printf("cudaMalloc failed\n"); return 1; }
  int nw[NCASES];
  cudaMemcpyFromSymbol(nw, nwords, sizeof nw);
  for (int cs = 0; cs < NCASES; cs++)
    for (int trial = 0; trial < 4; trial++) {
      forms<<<1, 32>>>(cs, trial, dev);
      cudaError_t e = cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) { printf("%s: %s\n", names[cs], cudaGetErrorString(e)); return 1; }
      for (int l = 0; l < 32; l++) {
        printf("%s %d %2d", names[cs], trial, l);
        for (int i = 0; i < nw[cs]; i++) printf(" %08x", host[l * 4 + i]);
        printf("\n");
      }
    }
  printf("forms done\n");
  return 0;
}
