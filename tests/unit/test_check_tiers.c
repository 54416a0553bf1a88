/* test_check_tiers.c: the analyses' whole-warp paths (src/check/race_shape.c,
 * check_mem_shape; the compiled tier's calls of them, src/jit/steps.inc
 * emit_hook) on both tiers, on shared accesses ptxas merges into one wider
 * access (the followers of a group take the halves' path too):
 *  - racy: warp 0 reads two 16-byte rows (each half-warp one row, four
 *    4-byte loads the merge pass groups into one), warp 1 then writes words
 *    0-31 with no barrier between: each of the 4 load pcs is a WAR pair
 *    with the store (4 hazard records) on the two words it read (rows 0
 *    and 1: 8 bytes), less word 0, whose store of 0.0 changes no byte of
 *    the zeroed memory (no WAR for racecheck: tests/hw/races,
 *    war_same_value): 4 + 8 + 8 + 8 = 28 bytes; and every read is of
 *    shared memory not written yet: 4 uninitialised-read records (one per
 *    load pc) of 32 lanes each;
 *  - ordered: the same with the writes first and a barrier: no hazard, no
 *    uninitialised read;
 *  - partial: warp 1 writes the odd words of 0-31, a barrier, then warp 0
 *    reads word l in lane l (each half-warp 16 consecutive words): one
 *    uninitialised-read record of the 16 even lanes (mask 55555555).
 * Each runs with the race and init checks, with the bank model added, and
 * with every check; the compiled run must agree with the interpreter in
 * everything (tests/common/tiers.c), and the interpreter's report must hold
 * the stated figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "smemu.h"

#include "tiers.h"

#define HEAD                                                                                                 \
  ".version 7.0\n.target sm_80\n.address_size 64\n"                                                          \
  ".visible .entry k(.param .u64 po)\n{\n"                                                                   \
  ".reg .b32 %r<12>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<6>;\n.reg .pred %p<2>;\n"                              \
  ".shared .align 16 .b8 s[1024];\n"                                                                         \
  "mov.u32 %r1, %tid.x;\n"

/* warp 1's store of word tid - 32 */
#define WRITE                                                                                                \
  "sub.u32 %r6, %r1, 32;\nshl.b32 %r7, %r6, 2;\nmov.u32 %r8, s;\nadd.s32 %r9, %r8, %r7;\n"                   \
  "cvt.rn.f32.u32 %f1, %r6;\nst.shared.f32 [%r9], %f1;\n"

/* warp 0: row tid / 16 (16 bytes), four loads from one base, summed to po */
#define READ                                                                                                 \
  "shr.u32 %r2, %r1, 4;\nshl.b32 %r3, %r2, 4;\nmov.u32 %r4, s;\nadd.s32 %r5, %r4, %r3;\n"                    \
  "ld.shared.f32 %f1, [%r5];\nld.shared.f32 %f2, [%r5+4];\nld.shared.f32 %f3, [%r5+8];\n"                    \
  "ld.shared.f32 %f4, [%r5+12];\nadd.f32 %f5, %f1, %f2;\nadd.f32 %f6, %f3, %f4;\nadd.f32 %f7, %f5, %f6;\n"   \
  "ld.param.u64 %rd1, [po];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"                   \
  "add.s64 %rd4, %rd2, %rd3;\nst.global.f32 [%rd4], %f7;\n"

static const char racy_ptx[] =
    HEAD "setp.ge.u32 %p1, %r1, 32;\n@%p1 bra WR;\n" READ "ret;\nWR:\n" WRITE "ret;\n}\n";

static const char ordered_ptx[] =
    HEAD "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra SYNC;\n" WRITE "SYNC:\nbar.sync 0;\n"
         "setp.ge.u32 %p1, %r1, 32;\n@%p1 bra DONE;\n" READ "DONE:\nret;\n}\n";

/* warp 1 writes the odd words, then every lane l of warp 0 reads word l */
static const char partial_ptx[] = HEAD
    "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra SYNC;\nsub.u32 %r6, %r1, 32;\nand.b32 %r10, %r6, 1;\n"
    "setp.eq.u32 %p1, %r10, 0;\n@%p1 bra SYNC;\nshl.b32 %r7, %r6, 2;\nmov.u32 %r8, s;\nadd.s32 %r9, %r8, "
    "%r7;\n"
    "cvt.rn.f32.u32 %f1, %r6;\nst.shared.f32 [%r9], %f1;\nSYNC:\nbar.sync 0;\nsetp.ge.u32 %p1, %r1, 32;\n"
    "@%p1 bra DONE;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r4, s;\nadd.s32 %r5, %r4, %r2;\n"
    "ld.shared.f32 %f1, [%r5];\nld.param.u64 %rd1, [po];\ncvta.to.global.u64 %rd2, %rd1;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.f32 [%rd4], %f1;\nDONE:\nret;\n}\n";

#define ALL_CHECKS                                                                                           \
  (SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT |                     \
   SMEMU_ANALYZE_GLOBAL_RACES)
static const uint32_t modes[] = {SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_INIT,
                                 SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_INIT, ALL_CHECKS};

/* Lines of the report starting with `key`. */
static int lines(const char *rep, const char *key) {
  int n = 0;
  size_t k = strlen(key);
  for (const char *p = rep; p && *p;) {
    n += !strncmp(p, key, k);
    p = strchr(p, '\n');
    if (p) p++;
  }
  return n;
}

/* The bytes of the report's hazard records (their " n" fields). */
static unsigned hazard_bytes(const char *rep) {
  unsigned n = 0;
  for (const char *p = rep; p && (p = strstr(p, "hazard ")); p++) {
    const char *q = strstr(p, " n");
    unsigned k;
    if (q && sscanf(q, " n%u", &k) == 1) n += k;
  }
  return n;
}

/* Both tiers in every mode: no difference; the interpreter's report has
 * `hazards` hazard records of `bytes` bytes in all and `ureads`
 * uninitialised-read records, each of the lanes `lanes` (" n<count> <mask of
 * warp 0> "). */
static void check(const char *ptx, int hazards, unsigned bytes, int ureads, const char *lanes) {
  int compiled = 0;
  for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
    tiers_launch L;
    memset(&L, 0, sizeof L);
    L.grid[0] = L.grid[1] = L.grid[2] = 1;
    L.block[0] = 64;
    L.block[1] = L.block[2] = 1;
    L.bytes = 64 * 4;
    L.seed = 7;
    L.analyses = modes[m];
    char what[64];
    snprintf(what, sizeof what, "mode %zu", m);
    assert_int_equal(tiers_both(ptx, NULL, 0, &L, what, &compiled), 0);
    tiers_outcome o;
    assert_int_equal(tiers_run(ptx, NULL, 0, SMEMU_TIER_INTERP, &L, &o), 0);
    assert_int_equal(o.status, 0);
    assert_int_equal(lines(o.rep, "hazard "), hazards);
    assert_int_equal(hazard_bytes(o.rep), bytes);
    assert_int_equal(lines(o.rep, "sync uninitialized-read "), ureads);
    for (const char *p = o.rep; (p = strstr(p, "sync uninitialized-read ")); p++)
      assert_true(strstr(p, lanes) && strstr(p, lanes) < strchr(p, '\n'));
    tiers_free(&o);
  }
  if (smemu_jit_available()) assert_true(compiled > 0);
}

static void racy(void **st) {
  (void)st;
  check(racy_ptx, 4, 28, 4, " n32 ffffffff ");
}

static void ordered(void **st) {
  (void)st;
  check(ordered_ptx, 0, 0, 0, "");
}

static void partial(void **st) {
  (void)st;
  check(partial_ptx, 0, 0, 1, " n16 55555555 ");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(racy), cmocka_unit_test(ordered),
                                     cmocka_unit_test(partial)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
