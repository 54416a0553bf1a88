/* test_rsv_smem.c: the block's reserved shared memory. The special
 * registers %reserved_smem_offset_begin/_end/_cap (an H100's values,
 * tests/hw/fidelity/recorded/sregs.txt: 0, 288, 1024) and _0/_1 (the start
 * of the system part, begin: README, reserved shared memory;
 * tests/hw/rsvsmem/record.sh records a GPU's), the reserved bytes
 * addressable (and zero in every block) to a kernel that reads _0/_1 and a
 * fault for one that does not, and accesses there neither race- nor
 * init-checked, on both tiers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"
#include "tiers.h"

/* 2 blocks of 64 threads; thread t of block b writes 8 words at
 * out[(64 b + t) * 8]: begin, end, cap, offset_0, offset_1, the reserved
 * word [offset_1 + 32 + 4t] before this block stores t + 1 there (0: the
 * block's reserved bytes start zeroed), that word read back through a
 * generic address, and user[t] (100 + t) after the stores to the reserved
 * words. Every thread also stores its t to the reserved word [offset_1 +
 * 16] with no barrier (WAW between the warps: not checked there). With
 * USER_WAW the same store goes to user[64] instead (a hazard). */
#define KERNEL(NAME, WAW_ADDR)                                                            \
  ".visible .entry " NAME "(.param .u64 po)\n"                                            \
  "{\n"                                                                                   \
  "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"                                           \
  "  .shared .align 4 .b32 user[65];\n"                                                   \
  "  ld.param.u64 %rd0, [po];\n"                                                          \
  "  mov.u32 %r0, %tid.x;\n  mov.u32 %r1, %ctaid.x;\n"                                    \
  "  mov.u32 %r2, %reserved_smem_offset_begin;\n"                                         \
  "  mov.u32 %r3, %reserved_smem_offset_end;\n"                                           \
  "  mov.u32 %r4, %reserved_smem_offset_cap;\n"                                           \
  "  mov.u32 %r5, %reserved_smem_offset_0;\n"                                             \
  "  mov.u32 %r6, %reserved_smem_offset_1;\n"                                             \
  "  mov.u32 %r10, user;\n  mul.lo.u32 %r11, %r0, 4;\n"                                   \
  "  add.u32 %r12, %r10, %r11;\n  add.u32 %r13, %r0, 100;\n"                              \
  "  st.shared.u32 [%r12], %r13;\n"                                                       \
  "  add.u32 %r7, %r6, 32;\n  add.u32 %r7, %r7, %r11;\n"                                  \
  "  ld.shared.u32 %r8, [%r7];\n"                                                         \
  "  add.u32 %r14, %r0, 1;\n  st.shared.u32 [%r7], %r14;\n"                               \
  "  " WAW_ADDR "\n"                                                                      \
  "  st.shared.u32 [%r15], %r0;\n"                                                        \
  "  cvt.u64.u32 %rd1, %r7;\n  cvta.shared.u64 %rd2, %rd1;\n  ld.u32 %r9, [%rd2];\n"      \
  "  bar.sync 0;\n"                                                                       \
  "  ld.shared.u32 %r13, [%r12];\n"                                                       \
  "  mad.lo.u32 %r14, %r1, 64, %r0;\n  mul.wide.u32 %rd3, %r14, 32;\n"                    \
  "  add.s64 %rd4, %rd0, %rd3;\n"                                                         \
  "  st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};\n"                                    \
  "  st.global.v4.u32 [%rd4+16], {%r6, %r8, %r9, %r13};\n"                                \
  "  ret;\n"                                                                              \
  "}\n"
static const char rsv_ptx[] = PTX_HEAD KERNEL("rsv", "add.u32 %r15, %r6, 16;");
static const char user_ptx[] = PTX_HEAD KERNEL("usr", "add.u32 %r15, %r10, 256;");

/* Two blocks of 64 threads, 4 KB of global buffer, the analyses given. */
static void launch_of(tiers_launch *L, uint32_t analyses) {
  memset(L, 0, sizeof *L);
  L->grid[0] = 2, L->grid[1] = L->grid[2] = 1;
  L->block[0] = 64, L->block[1] = L->block[2] = 1;
  L->bytes = 128 * 32;
  L->seed = 1;
  L->analyses = analyses;
}

static void launch(const char *ptx, int tier, uint32_t analyses, tiers_outcome *o) {
  tiers_launch L;
  launch_of(&L, analyses);
  assert_int_equal(tiers_run(ptx, NULL, 0, tier, &L, o), 0);
}

static void check_values(const tiers_outcome *o) {
  if (o->status) fail_msg("%s: %s", o->tier, o->msg);
  assert_true(o->nbufs >= 1 && o->size[0] == 128 * 32);
  for (uint32_t i = 0; i < 128; i++) {
    uint32_t v[8], t = i % 64;
    memcpy(v, o->buf[0] + i * 32, 32);
    assert_int_equal(v[0], 0);    /* begin */
    assert_int_equal(v[1], 288);  /* end: what CG may use */
    assert_int_equal(v[2], 1024); /* cap: reservedSharedMemPerBlock */
    assert_int_equal(v[3], 0);    /* offset_0 = begin */
    assert_int_equal(v[4], 0);    /* offset_1 = begin */
    assert_int_equal(v[5], 0);    /* zeroed in each block */
    assert_int_equal(v[6], t + 1);
    assert_int_equal(v[7], 100 + t);
  }
}

static void test_values_and_checks(void **state) {
  (void)state;
  static const int tiers[] = {SMEMU_TIER_INTERP, SMEMU_TIER_JIT};
  const uint32_t an = SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_BANKS;
  for (int k = 0; k < 2; k++) {
    tiers_outcome o;
    memset(&o, 0, sizeof o);
    launch(rsv_ptx, tiers[k], 0, &o);
    check_values(&o);
    tiers_free(&o);
    memset(&o, 0, sizeof o);
    launch(rsv_ptx, tiers[k], an, &o);
    check_values(&o);
    /* the WAW on the reserved word and its reads before any write: none */
    if (!o.rep || strstr(o.rep, "hazard ") || !strstr(o.rep, "uninit 0\n"))
      fail_msg("%s: reserved-memory accesses were checked:\n%s", o.tier, o.rep);
    tiers_free(&o);
    /* the control: the same WAW in the user's memory is a hazard */
    memset(&o, 0, sizeof o);
    launch(user_ptx, tiers[k], an, &o);
    check_values(&o);
    assert_non_null(o.rep);
    if (!strstr(o.rep, "hazard ") || !strstr(o.rep, "uninit 0\n")) fail_msg("%s: no hazard for the user WAW:\n%s", o.tier, o.rep);
    tiers_free(&o);
  }
  /* and both tiers agree on everything, with the checks */
  tiers_launch L;
  launch_of(&L, an);
  int compiled = 0;
  assert_int_equal(tiers_both(rsv_ptx, NULL, 0, &L, "rsv", &compiled), 0);
  assert_int_equal(tiers_both(user_ptx, NULL, 0, &L, "usr", &compiled), 0);
}

/* A kernel that does not read %reserved_smem_offset_0/1 faults below its
 * shared memory, as before; one that does still faults past its end. */
static void test_faults(void **state) {
  (void)state;
  static const char wild[] = PTX_HEAD
      ".visible .entry k(.param .u64 po)\n{\n  .reg .b32 %r<4>;\n"
      "  .shared .align 4 .b32 user[4];\n"
      "  mov.u32 %r0, %reserved_smem_offset_end;\n  st.shared.u32 [user], %r0;\n"
      "  mov.u32 %r1, 4;\n  st.shared.u32 [%r1], %r0;\n  ret;\n}\n";
  static const char past[] = PTX_HEAD
      ".visible .entry k(.param .u64 po)\n{\n  .reg .b32 %r<4>;\n"
      "  .shared .align 4 .b32 user[4];\n"
      "  mov.u32 %r0, %reserved_smem_offset_1;\n  st.shared.u32 [%r0+4], %r0;\n"
      "  st.shared.u32 [user], %r0;\n  st.shared.u32 [%r0+1040], %r0;\n  ret;\n}\n";
  char err[1024] = "";
  uint32_t *out = dev_alloc(64, 0);
  void *args[] = {&out};
  assert_int_equal(ptxrun(wild, "k", 1, 32, 0, args, err, sizeof err), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(err, "shared address 0x4 (the block has shared bytes 0x400..0x410)"));
  err[0] = 0;
  assert_int_equal(ptxrun(past, "k", 1, 32, 0, args, err, sizeof err), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(err, "shared address 0x410 (the block has shared bytes 0x0..0x410)"));
  dev_free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_values_and_checks),
      cmocka_unit_test(test_faults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
