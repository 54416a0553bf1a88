/* test_race_readers.c: the readers the shared race check keeps per word
 * (src/check/race.c), on the access shapes its fast paths take: every
 * warp's half-warps reading 16 consecutive words (the words' readers kept
 * as one run), then writes that take the words out of it whole, by
 * halves and by bytes.
 *
 * Four warps (128 threads, run in order 0, 1, 2, 3) each read sh[tid % 16]
 * at one pc with no barrier; warp 3 then writes. By the keep rule (race.c:
 * a word keeps the last reads of two different threads, and reads of other
 * warps pushed out of them go to two cold slots, the oldest replaced), word
 * j is left with readers 112+j and 96+j (warp 3), then cold 80+j (warp 2)
 * and 48+j (warp 1). A write by thread 96+l to word l skips its own read,
 * and meets one reader per pc and class: 112+l (same warp: a warning) and
 * 80+l (another warp: an error; 48+l is of that pc and class too). So each
 * written word counts 2 hazards of its bytes (8 for a whole word), all in
 * one record (read pc, write pc), an error, whose instance is the first:
 * word 0, reader 112, writer 96. The checker before the fast paths
 * (main 431faf6, lane by lane) gives these same figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ptxrun.h"

/* Each kernel starts with every thread reading sh[tid % 16] into %r6
 * (%r4: sh, %r5: that word's address). */
#define KHEAD(name)                                                                                  \
  ".visible .entry " name "()\n{\n  .reg .b32 %r<10>;\n  .reg .pred %p<3>;\n"                       \
  "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 15;\n  shl.b32 %r3, %r2, 2;\n  mov.u32 %r4, sh;\n" \
  "  add.u32 %r5, %r4, %r3;\n  ld.shared.u32 %r6, [%r5];\n"

static const char *ptx = PTX_HEAD ".shared .align 4 .b32 sh[64];\n"
    /* warp 3 writes sh[tid % 32] whole (one store of the whole warp, words 16..31 unread) */
    KHEAD("full") "  setp.ge.u32 %p1, %r1, 96;\n  and.b32 %r7, %r1, 31;\n  shl.b32 %r7, %r7, 2;\n"
    "  add.u32 %r8, %r4, %r7;\n  @%p1 st.shared.u32 [%r8], %r1;\n  ret;\n}\n"
    /* its lanes 0..15 write sh[tid % 16] (half a warp) */
    KHEAD("half") "  setp.ge.u32 %p1, %r1, 96;\n  setp.lt.u32 %p2, %r1, 112;\n  and.pred %p1, %p1, %p2;\n"
    "  @%p1 st.shared.u32 [%r5], %r1;\n  ret;\n}\n"
    /* thread 96 writes byte 1 of word 5, then thread 97 all of word 6 */
    KHEAD("split") "  setp.eq.u32 %p1, %r1, 96;\n  mov.u32 %r7, 255;\n  @%p1 st.shared.u8 [sh+21], %r7;\n"
    "  setp.eq.u32 %p2, %r1, 97;\n  @%p2 st.shared.u32 [sh+24], %r7;\n  ret;\n}\n"
    /* a barrier; warp 3 (the last to arrive, the first to go on) reads
     * sh[tid % 16] again (the run's readers of before the barrier are
     * ordered, these are not), then warp 0 writes sh[tid % 32] whole */
    KHEAD("epoch") "  bar.sync 0;\n  setp.ge.u32 %p1, %r1, 96;\n  @%p1 ld.shared.u32 %r9, [%r5];\n"
    "  setp.lt.u32 %p2, %r1, 32;\n  and.b32 %r7, %r1, 31;\n  shl.b32 %r7, %r7, 2;\n  add.u32 %r8, %r4, %r7;\n"
    "  @%p2 st.shared.u32 [%r8], %r1;\n  ret;\n}\n"
    /* a barrier; warp 3 writes sh[tid % 32] whole (every reader so far
     * ordered before it), then warp 0 reads sh[tid % 16] */
    KHEAD("rawdrop") "  bar.sync 0;\n  setp.ge.u32 %p1, %r1, 96;\n  and.b32 %r7, %r1, 31;\n  shl.b32 %r7, %r7, 2;\n"
    "  add.u32 %r8, %r4, %r7;\n  @%p1 st.shared.u32 [%r8], %r1;\n  setp.lt.u32 %p2, %r1, 32;\n"
    "  @%p2 ld.shared.u32 %r9, [%r5];\n  ret;\n}\n";

/* Runs kernel k on 128 threads with the race check; returns the context. */
static smemu_ctx *run(const char *k) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_RACES;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *kn;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_data(c, ptx, strlen(ptx), "readers.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, k, &kn) != SMEMU_OK)
    fail_msg("%s: %s", k, smemu_errmsg(c));
  const uint32_t g[3] = {1, 1, 1}, b[3] = {128, 1, 1};
  if (smemu_launch(c, kn, g, b, 0, NULL) != SMEMU_OK) fail_msg("%s: %s", k, smemu_errmsg(c));
  return c;
}

/* Hazard i of c is a WAR error of `count` bytes at sh + off between reader
 * thread rd and writer thread wr. */
static void war(smemu_ctx *c, int i, uint64_t count, uint64_t off, uint32_t rd, uint32_t wr) {
  const smemu_hazard *h = smemu_hazard_get(c, i);
  assert_non_null(h);
  assert_string_equal(h->type, "WAR");
  assert_int_equal(h->error, 1);
  assert_int_equal(h->count, count);
  assert_string_equal(h->variable, "sh");
  assert_int_equal(h->var_offset, off);
  assert_int_equal(h->first_thread[0], rd);
  assert_int_equal(h->second_thread[0], wr);
}

/* 16 read words x 2 hazards x 4 bytes; the unread words 16..31 none. */
static void test_whole_warp_store(void **state) {
  (void)state;
  smemu_ctx *c = run("full");
  assert_int_equal(smemu_hazard_count(c), 1);
  war(c, 0, 128, 0, 112, 96);
  smemu_destroy(c);
}

/* The same words by half a warp (lane by lane): the same figures. */
static void test_half_warp_store(void **state) {
  (void)state;
  smemu_ctx *c = run("half");
  assert_int_equal(smemu_hazard_count(c), 1);
  war(c, 0, 128, 0, 112, 96);
  smemu_destroy(c);
}

/* A byte of word 5 (2 hazards of 1 byte: readers 117 and 85), then word 6
 * whole (2 of 4 bytes: readers 118 and 86), which a run must still hold
 * after word 5 left it. */
static void test_byte_then_word(void **state) {
  (void)state;
  smemu_ctx *c = run("split");
  assert_int_equal(smemu_hazard_count(c), 2);
  war(c, 0, 2, 21, 117, 96);
  war(c, 1, 8, 24, 118, 97);
  smemu_destroy(c);
}

/* Words 0..15's run holds warp 3's reads of after the barrier (r[0] lane
 * 16, r[1] lane 0, both of one pc and warp) and older ones: warp 0's
 * store of word j (thread j) meets one reader per pc and class, thread
 * 112 + j, an error (another warp): 4 bytes a word in one record, except
 * word 0, where thread 0 stores the 0 it holds (no WAR: race.c), so 15
 * words from word 1 (readers 113, writer 1); the words 16..31 nobody read
 * none. A store that dropped the run as if all its readers were ordered
 * would report nothing. */
static void test_read_after_barrier(void **state) {
  (void)state;
  smemu_ctx *c = run("epoch");
  assert_int_equal(smemu_hazard_count(c), 1);
  war(c, 0, 60, 4, 113, 1);
  smemu_destroy(c);
}

/* The store drops the run (its readers all ordered) and stays the words'
 * last write: warp 0's lanes l read word l % 16, written by thread
 * 96 + l % 16 with no barrier between: a RAW error of 32 lanes x 4 bytes,
 * the first instance thread 96's write and thread 0's read of word 0. */
static void test_raw_after_dropped_run(void **state) {
  (void)state;
  smemu_ctx *c = run("rawdrop");
  assert_int_equal(smemu_hazard_count(c), 1);
  const smemu_hazard *h = smemu_hazard_get(c, 0);
  assert_non_null(h);
  assert_string_equal(h->type, "RAW");
  assert_int_equal(h->error, 1);
  assert_int_equal(h->count, 128);
  assert_int_equal(h->var_offset, 0);
  assert_int_equal(h->first_thread[0], 96);
  assert_int_equal(h->second_thread[0], 0);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_warp_store),
      cmocka_unit_test(test_half_warp_store),
      cmocka_unit_test(test_byte_then_word),
      cmocka_unit_test(test_read_after_barrier),
      cmocka_unit_test(test_raw_after_dropped_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
