/* test_wmma.c: wmma.load/store/mma (src/exec/wmma.c) through the library:
 * a kernel of hand-written PTX that loads A and B from shared memory and C
 * from global memory, multiplies and stores D (m16n16k16 f16 -> f32, A
 * column-major, B row-major, strides wider than the matrices, an address
 * offset), against a CPU reference of small exact values; b1 xor.popc and
 * u4 against their definitions; a partial warp and an address outside
 * any allocation fail with the GPU's error codes; the race check sees
 * wmma.load's shared reads; lint accepts every form
 * of the recording program and rejects bad forms at their line:col. The
 * fragment mapping and the numerics against the GPU are the suite wmma-hw
 * (tests/hw/wmma). */
#include "ptxrun.h"
#include "smemu.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(c, ...)                                                                                        \
  do {                                                                                                       \
    if (!(c)) {                                                                                              \
      failures++;                                                                                            \
      printf("FAIL: " __VA_ARGS__);                                                                          \
      printf("\n");                                                                                          \
    }                                                                                                        \
  } while (0)

static char err[512];

#define HDR ".version 8.0\n.target sm_90a\n.address_size 64\n"

/* A (16x16, column-major, stride 24, f16) and B (row-major, stride 32) go
 * through shared memory; C (row-major f32, stride 16) and D from global. */
static const char gemm_ptx[] = HDR
    ".visible .entry gemm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 nthr)\n"
    "{\n"
    "  .shared .align 32 .b8 sa[768];\n"
    "  .shared .align 32 .b8 sb[1088];\n"
    "  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<10>;\n  .reg .pred %p;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 "
    "%rd4, [pd];\n"
    "  ld.param.u32 %r39, [nthr];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p, %r1, %r39;\n"
    "  @%p bra DONE;\n"
    "  mov.u32 %r2, %r1;\n"
    "COPYA:\n"
    "  setp.ge.u32 %p, %r2, 192;\n  @%p bra CA_END;\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n  add.u64 %rd6, %rd1, %rd5;\n  ld.global.b32 %r3, [%rd6];\n"
    "  mov.u32 %r4, sa;\n  cvt.u32.u64 %r5, %rd5;\n  add.u32 %r4, %r4, %r5;\n  st.shared.b32 [%r4], %r3;\n"
    "  add.u32 %r2, %r2, 32;\n  bra COPYA;\n"
    "CA_END:\n"
    "  mov.u32 %r2, %r1;\n"
    "COPYB:\n"
    "  setp.ge.u32 %p, %r2, 272;\n  @%p bra CB_END;\n"
    "  mul.wide.u32 %rd5, %r2, 4;\n  add.u64 %rd6, %rd2, %rd5;\n  ld.global.b32 %r3, [%rd6];\n"
    "  mov.u32 %r4, sb;\n  cvt.u32.u64 %r5, %rd5;\n  add.u32 %r4, %r4, %r5;\n  st.shared.b32 [%r4], %r3;\n"
    "  add.u32 %r2, %r2, 32;\n  bra COPYB;\n"
    "CB_END:\n"
    "  bar.warp.sync -1;\n"
    "  mov.u32 %r30, sa;\n  mov.u32 %r31, sb;\n"
    "  wmma.load.a.sync.aligned.col.m16n16k16.shared.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%r30], "
    "24;\n"
    "  mov.u32 %r32, 32;\n"
    "  wmma.load.b.sync.aligned.row.m16n16k16.shared.f16 {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27}, "
    "[%r31+64], "
    "%r32;\n"
    "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd3];\n"
    "  wmma.mma.sync.aligned.col.row.m16n16k16.f32.f32 {%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18}, "
    "{%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27}, "
    "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd4], {%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18}, 16;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

static uint16_t f16_of(int v) { /* small integers / 4: exact in f16 */
  if (v == 0) return 0;
  double x = v / 4.0;
  uint16_t s = x < 0 ? 0x8000 : 0;
  if (x < 0) x = -x;
  int e = 0;
  while (x >= 2) x /= 2, e++;
  while (x < 1) x *= 2, e--;
  return (uint16_t)(s | (uint16_t)(e + 15) << 10 | (uint16_t)((x - 1) * 1024));
}

static int run_gemm(uint32_t nthr, float *D, int *status) {
  static uint16_t A[384], B[544];
  static float C[256];
  memset(A, 0, sizeof A);
  memset(B, 0, sizeof B);
  for (int i = 0; i < 16; i++)
    for (int k = 0; k < 16; k++) A[k * 24 + i] = f16_of((i * 5 + k * 3) % 11 - 5);
  for (int k = 0; k < 16; k++)
    for (int j = 0; j < 16; j++) B[32 + k * 32 + j] = f16_of((k * 7 + j) % 9 - 4);
  for (int i = 0; i < 256; i++) C[i] = (float)(i % 7) - 3;
  void *da = dev_in(A, sizeof A), *db = dev_in(B, sizeof B), *dc = dev_in(C, sizeof C),
       *dd = dev_alloc(1024, 0);
  void *args[] = {&da, &db, &dc, &dd, &nthr};
  *status = ptxrun(gemm_ptx, "gemm", 1, 32, 0, args, err, sizeof err);
  smemu_memcpy(ptxrun_ctx(), D, dd, 1024);
  dev_free(da);
  dev_free(db);
  dev_free(dc);
  dev_free(dd);
  return 1;
}

static void test_gemm(void) {
  float D[256];
  int st;
  if (!run_gemm(32, D, &st)) return;
  CHECK(st == SMEMU_OK, "gemm: %s", err);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      double s = (double)((i * 16 + j) % 7) - 3;
      for (int k = 0; k < 16; k++) s += (((i * 5 + k * 3) % 11 - 5) / 4.0) * (((k * 7 + j) % 9 - 4) / 4.0);
      if (D[i * 16 + j] != (float)s) bad++;
    }
  CHECK(bad == 0, "gemm: %d of 256 results differ from the CPU reference", bad);
  /* half a warp: the GPU's illegal instruction */
  if (!run_gemm(16, D, &st)) return;
  CHECK(st == SMEMU_ERR_ILLEGAL_INSTRUCTION, "partial warp: status %d (%s)", st, err);
}

/* b1 xor.popc and u4 m8n8k32 from registers set by the kernel itself:
 * A row i = pattern, B column j = pattern; D = popc(a ^ b) + C. */
static const char popc_ptx[] = HDR
    ".visible .entry popc(.param .u64 pa, .param .u64 pd, .param .u64 pe)\n"
    "{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pd];\n  ld.param.u64 %rd3, [pe];\n"
    "  wmma.load.a.sync.aligned.row.m8n8k128.b1 {%r1}, [%rd1], 128;\n"
    "  add.u64 %rd4, %rd1, 128;\n"
    "  wmma.load.b.sync.aligned.col.m8n8k128.global.b1 {%r2}, [%rd4], 256;\n"
    "  mov.b32 %r3, 5;\n  mov.b32 %r4, -2;\n"
    "  wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r5,%r6}, {%r1}, {%r2}, {%r3,%r4};\n"
    "  wmma.store.d.sync.aligned.row.m8n8k128.s32 [%rd2], {%r5,%r6}, 8;\n"
    "  wmma.load.a.sync.aligned.row.m8n8k32.u4 {%r7}, [%rd1];\n"
    "  wmma.load.b.sync.aligned.col.m8n8k32.u4 {%r8}, [%rd1+128];\n"
    "  wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32 {%r9,%r10}, {%r7}, {%r8}, {%r3,%r3};\n"
    "  wmma.store.d.sync.aligned.col.m8n8k32.s32 [%rd3], {%r9,%r10}, 8;\n"
    "  ret;\n"
    "}\n";

static void test_popc(void) {
  uint8_t mem[512];
  for (int i = 0; i < 512; i++) mem[i] = (uint8_t)(i * 37 + (i >> 3) * 11);
  void *da = dev_in(mem, sizeof mem), *dd = dev_alloc(256, 0), *de = dev_alloc(256, 0);
  void *args[] = {&da, &dd, &de};
  CHECK(ptxrun(popc_ptx, "popc", 1, 32, 0, args, err, sizeof err) == SMEMU_OK, "popc: %s", err);
  int32_t D[64], E[64];
  smemu_memcpy(ptxrun_ctx(), D, dd, 256);
  smemu_memcpy(ptxrun_ctx(), E, de, 256);
  int bad = 0, bad4 = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      /* b1: A row i = 16 bytes at 16i (stride 128 bits); B column j = 16
       * bytes at 128 + 32j (stride 256 bits) */
      int s = (i * 8 + j) % 2 ? -2 : 5;
      for (int b = 0; b < 16; b++)
        s += __builtin_popcount((unsigned)(mem[16 * i + b] ^ mem[128 + 32 * j + b]));
      if (D[i * 8 + j] != s) bad++;
      /* u4: A row i = 16 bytes at 16i (the default stride: 32 elements),
       * B column j at 128 + 16j; nibbles low first; D column-major */
      int u = 5;
      for (int kk = 0; kk < 32; kk++) {
        int a = mem[16 * i + kk / 2] >> (4 * (kk % 2)) & 15,
            b = mem[128 + 16 * j + kk / 2] >> (4 * (kk % 2)) & 15;
        u += a * b;
      }
      if (E[j * 8 + i] != u) bad4++;
    }
  CHECK(bad == 0, "b1 xor.popc: %d of 64 results differ from the definition", bad);
  CHECK(bad4 == 0, "u4: %d of 64 results differ from the definition", bad4);
  /* an address outside any allocation: the GPU's illegal address */
  void *bogus = (void *)(uintptr_t)0x10;
  void *args2[] = {&bogus, &dd, &de};
  int st = ptxrun(popc_ptx, "popc", 1, 32, 0, args2, err, sizeof err);
  CHECK(st == SMEMU_ERR_ILLEGAL_ADDRESS, "bad address: status %d (%s)", st, err);
  dev_free(da);
  dev_free(dd);
  dev_free(de);
}

/* Warp 1 writes shared memory that warp 0 then reads with wmma.load.a:
 * without a barrier between them the race check reports a hazard, with
 * bar.sync none. */
static const char race_ptx[] = HDR
    ".visible .entry race(.param .u32 sync)\n"
    "{\n"
    "  .shared .align 32 .b8 sa[512];\n"
    "  .reg .b32 %r<20>;\n  .reg .pred %p, %q;\n"
    "  ld.param.u32 %r19, [sync];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sa;\n"
    "  setp.lt.u32 %p, %r1, 32;\n  setp.ne.u32 %q, %r19, 0;\n"
    "  @%p bra READ;\n"
    "  sub.u32 %r3, %r1, 32;\n  shl.b32 %r3, %r3, 4;\n  add.u32 %r3, %r3, %r2;\n"
    "  st.shared.v4.b32 [%r3], {%r1, %r1, %r1, %r1};\n"
    "  @%q bar.sync 0;\n"
    "  bra DONE;\n"
    "READ:\n"
    "  @%q bar.sync 0;\n"
    "  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%r2];\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

static void test_race(void) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_RACES;
  smemu_ctx *c2;
  smemu_module *mod;
  smemu_kernel *k;
  if (smemu_create(&o, &c2) || smemu_module_load_data(c2, race_ptx, sizeof race_ptx - 1, "race.ptx", &mod) ||
      smemu_module_get_kernel(mod, "race", &k)) {
    CHECK(0, "race.ptx: %s", smemu_errmsg(c2));
    return;
  }
  for (uint32_t sync = 0; sync < 2; sync++) {
    void *args[] = {&sync};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    int rc = smemu_launch(c2, k, grid, block, 0, args);
    CHECK(rc == SMEMU_OK, "race (sync %u): %s", sync, smemu_errmsg(c2));
    int nh = smemu_hazard_count(c2);
    CHECK(sync ? nh == 0 : nh > 0, "race (sync %u): %d hazards reported", sync, nh);
  }
  smemu_module_unload(mod);
  smemu_destroy(c2);
}

static char lint_msg[4096];
static void lint_cb(void *user, const char *kernel, const char *message) {
  (void)user;
  (void)kernel;
  size_t n = strlen(lint_msg);
  snprintf(lint_msg + n, sizeof lint_msg - n, "%s\n", message);
}

/* One statement in a kernel; returns lint's problem count. */
static int lint_one(const char *stmt) {
  char ptx[2048];
  snprintf(ptx, sizeof ptx,
           HDR ".visible .entry k()\n{\n  .reg .b32 %%r<40>;\n  .reg .f32 %%f<20>;\n  .reg .f64 %%fd<4>;\n"
               "  .reg .b64 %%rd<4>;\n  %s\n  ret;\n}\n",
           stmt);
  lint_msg[0] = 0;
  return smemu_lint_ptx(ptx, strlen(ptx), "t.ptx", lint_cb, NULL, NULL);
}

static void test_lint(void) {
  static const struct {
    const char *stmt, *want; /* want: NULL = accepted, else part of the message */
  } cases[] = {
      {"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], %r9;", NULL},
      {"wmma.load.a.sync.aligned.row.m32n8k16.bf16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];", NULL},
      {"wmma.load.b.sync.aligned.col.m16n16k8.shared.tf32 {%r1,%r2,%r3,%r4}, [%r5], 8;", NULL},
      {"wmma.load.c.sync.aligned.col.m8n8k4.global.f64 {%fd1,%fd2}, [%rd1];", NULL},
      {"wmma.mma.sync.aligned.row.row.m8n8k4.rz.f64.f64.f64.f64 {%fd1,%fd2}, {%fd1}, {%fd2}, {%fd1,%fd2};",
       NULL},
      {"wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r3}, {%r4}, {%r1,%r2};",
       NULL},
      {"wmma.mma.sync.aligned.row.col.m8n32k16.s32.u8.u8.s32.satfinite {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, "
       "{%r9}, "
       "{%r10,%r11,%r12,%r13}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};",
       NULL},
      /* bad forms */
      {"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4}, [%rd1];", "vector of 8 registers"},
      {"wmma.load.a.sync.aligned.row.m16n16k8.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];",
       "does not go with"},
      {"wmma.load.a.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];", ".sync.aligned"},
      {"wmma.load.a.sync.aligned.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];", "layout"},
      {"wmma.load.a.sync.aligned.col.m8n8k32.s4 {%r1}, [%rd1];", "row only"},
      {"wmma.store.a.sync.aligned.row.m16n16k16.f32 [%rd1], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};", "takes .d"},
      {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32.satfinite "
       "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
       "{%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
       "integer forms"},
      {"wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r3}, {%r4}, {%r1,%r2};", "popc"},
      {"wmma.mma.sync.aligned.row.m16n16k16.f32.f32 {%f1}, {%r1}, {%r2}, {%f2};", "two layouts"},
      {"wmma.mma.sync.aligned.row.row.m8n8k32.s32.s4.s4.s32 {%r1,%r2}, {%r3}, {%r4}, {%r1,%r2};",
       "row.col only"},
      {"wmma.load.a.sync.aligned.row.m16n16k16.x9.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];",
       "unexpected modifier .x9"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int n = lint_one(cases[i].stmt);
    if (!cases[i].want)
      CHECK(n == 0, "lint rejects '%s': %s", cases[i].stmt, lint_msg);
    else
      CHECK(n == 1 && strstr(lint_msg, cases[i].want) && strstr(lint_msg, "t.ptx:"),
            "lint of '%s': %d problems, '%s' (want '%s' at a line:col)", cases[i].stmt, n, lint_msg,
            cases[i].want);
  }
}

int main(void) {
  test_gemm();
  test_popc();
  test_race();
  test_lint();
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
