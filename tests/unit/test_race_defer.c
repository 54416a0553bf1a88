/* test_race_defer.c: whole-warp stores whose records the shared race check
 * puts off (src/check/race_shape.c, deferred_store: no record of their
 * words live, recorded when something looks at the shadow, dropped by a
 * barrier every thread passes) report what recording them at once would;
 * and the init check's count of unwritten bytes (race.h, init_unset),
 * which lets it skip its test once every byte is written.
 *
 * Four warps (128 threads, run in order 0, 1, 2, 3 between barriers) of
 * one block; warp w's lanes store consecutive words 32w..32w+31 (each
 * half-warp 16 consecutive words, the shape the check takes whole) the
 * value tid * 0x01010101 | 0x80808080, every byte of which differs from
 * shared memory's initial zeros and from any other thread's value, so
 * every store over another thread's changes all 4 bytes of a word. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ptxrun.h"

/* %r1 tid, %r4 sh, %r5 &sh[tid], %r6 the value; %r7 &sh[(tid + 32) % 128] */
#define KHEAD(name)                                                                                          \
  ".visible .entry " name "()\n{\n  .reg .b32 %r<12>;\n"                                                     \
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r4, sh;\n  shl.b32 %r2, %r1, 2;\n  add.u32 %r5, %r4, %r2;\n"           \
  "  mul.lo.u32 %r6, %r1, 16843009;\n  or.b32 %r6, %r6, -2139062144;\n"                                      \
  "  add.u32 %r3, %r1, 32;\n  and.b32 %r3, %r3, 127;\n  shl.b32 %r3, %r3, 2;\n  add.u32 %r7, %r4, %r3;\n"

static const char *ptx = PTX_HEAD ".shared .align 4 .b32 sh[128];\n"
    /* store sh[tid], then read sh[(tid + 32) % 128], no barrier */
    KHEAD("raw") "  st.shared.u32 [%r5], %r6;\n  ld.shared.u32 %r8, [%r7];\n  ret;\n}\n"
    /* store sh[tid], then read the word of the lane 16 apart in the warp */
    KHEAD("own") "  st.shared.u32 [%r5], %r6;\n  and.b32 %r9, %r1, 96;\n  add.u32 %r10, %r1, 16;\n"
    "  and.b32 %r10, %r10, 31;\n  add.u32 %r9, %r9, %r10;\n  shl.b32 %r9, %r9, 2;\n  add.u32 %r9, %r4, %r9;\n"
    "  ld.shared.u32 %r8, [%r9];\n  ret;\n}\n"
    /* store sh[tid], then sh[(tid + 32) % 128], no barrier */
    KHEAD("waw") "  st.shared.u32 [%r5], %r6;\n  st.shared.u32 [%r7], %r6;\n  ret;\n}\n"
    /* every thread but 5 stores sh[tid], thread 6 once more; a barrier;
     * every thread reads sh[tid] */
    KHEAD("init") "  .reg .pred %p<3>;\n  setp.ne.u32 %p1, %r1, 5;\n  @%p1 st.shared.u32 [%r5], %r6;\n"
    "  setp.eq.u32 %p2, %r1, 6;\n  @%p2 st.shared.u32 [%r5], %r1;\n  bar.sync 0;\n  ld.shared.u32 %r8, [%r5];\n"
    "  ret;\n}\n"
    /* store sh[tid]; a barrier; store sh[(tid + 32) % 128] and read
     * sh[tid]: every earlier store is ordered before both */
    KHEAD("drop") "  st.shared.u32 [%r5], %r6;\n  bar.sync 0;\n  st.shared.u32 [%r7], %r6;\n  bar.sync 0;\n"
                  "  ld.shared.u32 %r8, [%r5];\n  ret;\n}\n";

/* Kernel k on one block of 128 threads, one worker, with analyses an (the
 * module stays loaded: its hazards are read afterwards). */
static smemu_ctx *run(const char *k, uint32_t an) {
  smemu_options o = {.threads = 1, .analyses = an};
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *kn;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {128, 1, 1};
  if (smemu_create(&o, &c) != SMEMU_OK || smemu_module_load_data(c, ptx, strlen(ptx), "defer.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, k, &kn) != SMEMU_OK || smemu_launch(c, kn, g, b, 0, NULL) != SMEMU_OK)
    fail_msg("%s: %s", k, c ? smemu_errmsg(c) : "no context");
  return c;
}

static void one(smemu_ctx *c, const char *type, int error, uint64_t count, uint64_t off, uint32_t first,
                uint32_t second) {
  assert_int_equal(smemu_hazard_count(c), 1);
  const smemu_hazard *h = smemu_hazard_get(c, 0);
  assert_non_null(h);
  assert_string_equal(h->type, type);
  assert_int_equal(h->error, error);
  assert_int_equal(h->count, count);
  assert_int_equal(h->var_offset, off);
  assert_int_equal(h->first_thread[0], first);
  assert_int_equal(h->second_thread[0], second);
}

/* Warp 0 stores words 0..31 (put off) and reads 32..63 (nobody wrote them
 * yet); warps 1 and 2 each overwrite the words the warp before read (WAR,
 * 32 words x 4 bytes) and read the next 32; warp 3 overwrites 96..127
 * (WAR) and reads 0..31, which warp 0 wrote with no barrier between: a
 * RAW of 32 x 4 bytes, which a store put off and never recorded would
 * miss. One record for the pair of pcs (racecheck's aggregation, shown as
 * write-then-read once a RAW is among them): 4 x 128 bytes, the instance
 * the RAW's first, word 0 written by thread 0 and read by thread 96. */
static void test_raw_after_put_off(void **state) {
  (void)state;
  uint32_t an[2] = {SMEMU_ANALYZE_RACES, SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_INIT};
  for (int i = 0; i < 2; i++) {
    smemu_ctx *c = run("raw", an[i]);
    one(c, "RAW", 1, 512, 0, 0, 96);
    smemu_destroy(c);
  }
}

/* Each warp reads, right after its store (put off: nothing recorded
 * yet), the words its lanes 16 apart wrote: a RAW of its own (a warning)
 * on 32 words x 4 bytes, 4 x 128 bytes in one record whose instance is
 * the first, word 16 written by thread 16 and read by thread 0. */
static void test_raw_within_warp(void **state) {
  (void)state;
  smemu_ctx *c = run("own", SMEMU_ANALYZE_RACES);
  one(c, "RAW", 0, 512, 64, 16, 0);
  smemu_destroy(c);
}

/* Warp 0's two stores (words 0..31, 32..63) are both put off (other
 * words); warp 1's first store meets the second on words 32..63 (WAW, 32
 * x 4 bytes), and so on to warp 3's second store over warp 0's first
 * words: 4 x 128 bytes in one record (the pair of pcs), whose instance is
 * the first: word 32, warp 0's thread 0 then warp 1's thread 32. */
static void test_waw_between_put_off(void **state) {
  (void)state;
  smemu_ctx *c = run("waw", SMEMU_ANALYZE_RACES);
  one(c, "WAW", 1, 512, 128, 0, 32);
  smemu_destroy(c);
}

/* Barriers order every store before the next access: no hazard, and
 * every word read is written (initcheck). */
static void test_dropped_by_barrier(void **state) {
  (void)state;
  smemu_ctx *c = run("drop", SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_SYNC);
  assert_int_equal(smemu_hazard_count(c), 0);
  assert_int_equal(smemu_sync_error_count(c), 0);
  smemu_destroy(c);
}

/* The init check counts the bytes still unwritten to skip its test once
 * there are none: thread 5's word never is (thread 6's second store sets
 * no new byte, which a count of every byte stored would take for the last
 * four), so the reads after the barrier find one uninitialised read,
 * thread 5's (one record, one thread). */
static void test_init_count(void **state) {
  (void)state;
  smemu_ctx *c = run("init", SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_INIT);
  assert_int_equal(smemu_hazard_count(c), 0);
  assert_int_equal(smemu_sync_error_count(c), 1);
  const smemu_sync_error *e = smemu_sync_error_get(c, 0);
  assert_non_null(e);
  assert_string_equal(e->kind, "uninitialized-read");
  assert_int_equal(e->count, 1);
  assert_int_equal(e->thread[0], 5);
  assert_int_equal(e->threads[0], 1u << 5);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_raw_after_put_off),
      cmocka_unit_test(test_raw_within_warp),
      cmocka_unit_test(test_waw_between_put_off),
      cmocka_unit_test(test_dropped_by_barrier),
      cmocka_unit_test(test_init_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
