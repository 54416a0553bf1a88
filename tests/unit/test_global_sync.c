/* test_global_sync.c: what orders global accesses of two blocks for
 * SMEMU_ANALYZE_GLOBAL_RACES. Expected values follow the PTX memory model:
 * block 0 stores data[t] and then publishes a flag; block 1 (run after it,
 * one worker) reads the flag and then data[t]. The data race is gone when
 * the flag is published by a release (st.release.gpu, or membar.gl then
 * an atomic) and read by an acquire (ld.acquire.gpu, or an atomic); with a
 * plain (weak) store or load on either side the data accesses race. Two
 * accesses of one word's different bytes never race. (The GPU's racecheck
 * does not check global memory, so there is no recording to compare.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

/* A kernel k(out): block 0 stores out[t] = t (t < 32), then thread 0 runs
 * PUB on the flag address %f (out + 512); block 1's thread 0 runs ACQ on
 * %f (into %v), then every thread loads out[t]. */
static char *kernel(const char *pub, const char *acq)
{
  static char src[4096];
  snprintf(src, sizeof src,
           ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry k(.param .u64 pout)\n{\n"
           "  .reg .b32 %%t, %%b, %%v, %%one;\n  .reg .b64 %%o, %%a, %%f;\n  .reg .pred %%p, %%z;\n"
           "  ld.param.u64 %%o, [pout];\n  cvta.to.global.u64 %%o, %%o;\n"
           "  mov.u32 %%t, %%tid.x;\n  mov.u32 %%b, %%ctaid.x;\n  mov.u32 %%one, 1;\n"
           "  mul.wide.u32 %%a, %%t, 4;\n  add.s64 %%a, %%o, %%a;\n  add.s64 %%f, %%o, 2048;\n"
           "  setp.eq.u32 %%z, %%t, 0;\n  setp.ne.u32 %%p, %%b, 0;\n  @%%p bra READ;\n"
           "  st.global.u32 [%%a], %%t;\n  bar.sync 0;\n  @!%%z bra END;\n  %s\n  bra.uni END;\n"
           "READ:\n  @!%%z bra WAIT;\n  %s\nWAIT:\n  bar.sync 0;\n  ld.global.u32 %%v, [%%a];\n"
           "END:\n  ret;\n}\n",
           pub, acq);
  return src;
}

/* A context that has run kernel k of src on nblocks x nthreads with the
 * global race check on, its one argument a zeroed buffer of `bytes`. */
static smemu_ctx *launch_global(const char *src, uint32_t nblocks, uint32_t nthreads, size_t bytes)
{
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_GLOBAL_RACES;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_data(c, src, strlen(src), "k.ptx", &m) != SMEMU_OK || smemu_module_get_kernel(m, "k", &k) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(c));
  void *out;
  assert_int_equal(smemu_malloc(c, &out, bytes), SMEMU_OK);
  assert_int_equal(smemu_memset(c, out, 0, bytes), SMEMU_OK);
  void *args[] = {&out};
  uint32_t grid[3] = {nblocks, 1, 1}, block[3] = {nthreads, 1, 1};
  if (smemu_launch(c, k, grid, block, 0, args) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  return c;
}

/* Global hazards found. */
static int global_hazards(const char *src)
{
  smemu_ctx *c = launch_global(src, 2, 32, 4096);
  int n = 0;
  for (int i = 0; i < smemu_hazard_count(c); i++) n += smemu_hazard_get(c, i)->global;
  smemu_destroy(c);
  return n;
}

static void test_release_acquire(void **state)
{
  (void)state;
  assert_int_equal(global_hazards(kernel("st.release.gpu.global.u32 [%f], %one;",
                                         "ld.acquire.gpu.global.u32 %v, [%f];")), 0);
}

static void test_fence_atomic(void **state)
{
  (void)state;
  assert_int_equal(global_hazards(kernel("membar.gl;\n  atom.global.add.u32 %v, [%f], 1;",
                                         "atom.global.add.u32 %v, [%f], 1;")), 0);
}

/* Without the fence a relaxed atomic publishes nothing: the data race. */
static void test_atomic_without_fence(void **state)
{
  (void)state;
  assert_int_equal(global_hazards(kernel("atom.global.add.u32 %v, [%f], 1;",
                                         "atom.global.add.u32 %v, [%f], 1;")), 1);
}

/* A .cta fence does not reach the other block. */
static void test_cta_fence(void **state)
{
  (void)state;
  assert_int_equal(global_hazards(kernel("membar.cta;\n  atom.global.add.u32 %v, [%f], 1;",
                                         "atom.global.add.u32 %v, [%f], 1;")), 1);
}

/* A weak flag store or load: the data race (and none on the flag itself
 * only when both flag accesses are strong, as here with volatile). */
static void test_weak_flag(void **state)
{
  (void)state;
  assert_int_equal(global_hazards(kernel("st.volatile.global.u32 [%f], %one;",
                                         "ld.volatile.global.u32 %v, [%f];")), 1);
}

/* Records pack block, pc and thread into 32 bits where they fit, else take
 * a wide layout (grace.c). A kernel of 8200 instructions (pc: 14 bits) in
 * blocks of 1024 threads (10 bits): 256 blocks fill the 32 bits exactly,
 * 257 need the wide layout. Thread 1023 of the first and of the last block
 * store to out[0]: one WAW between blocks (an error, 4 bytes), reported at
 * the last block with thread 1023 on both sides, in either layout. */
static void check_waw_last_block(uint32_t nblocks)
{
  static char src[8192 * 8 + 1024];
  int len = snprintf(src, sizeof src,
                     ".version 8.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(.param .u64 pout)\n{\n"
                     "  .reg .b32 %%t, %%b, %%n;\n  .reg .b64 %%o;\n  .reg .pred %%p;\n"
                     "  mov.u32 %%t, %%tid.x;\n  setp.ne.u32 %%p, %%t, 1023;\n  @%%p bra END;\n"
                     "  mov.u32 %%b, %%ctaid.x;\n  mov.u32 %%n, %%nctaid.x;\n  sub.u32 %%n, %%n, 1;\n"
                     "  setp.ne.u32 %%p, %%b, 0;\n  setp.ne.and.u32 %%p, %%b, %%n, %%p;\n  @%%p bra END;\n"
                     "  ld.param.u64 %%o, [pout];\n  cvta.to.global.u64 %%o, %%o;\n  st.global.u32 [%%o], %%b;\n"
                     "END:\n  ret;\n");
  for (int i = 0; i < 8200; i++) len += snprintf(src + len, sizeof src - (size_t)len, "  ret;\n");
  snprintf(src + len, sizeof src - (size_t)len, "}\n");
  smemu_ctx *c = launch_global(src, nblocks, 1024, 64);
  assert_int_equal(smemu_hazard_count(c), 1);
  const smemu_hazard *h = smemu_hazard_get(c, 0);
  assert_int_equal(h->global, 1);
  assert_string_equal(h->type, "WAW");
  assert_int_equal(h->error, 1);
  assert_int_equal(h->count, 4);
  assert_int_equal(h->block[0], nblocks - 1);
  assert_int_equal(h->first_thread[0], 1023);
  assert_int_equal(h->second_thread[0], 1023);
  assert_int_equal(h->first_ptx_line, 20); /* the st.global */
  assert_int_equal(h->second_ptx_line, 20);
  smemu_destroy(c);
}

static void test_packed_full(void **state)
{
  (void)state;
  check_waw_last_block(256);
}

static void test_wide_records(void **state)
{
  (void)state;
  check_waw_last_block(257);
}

/* Half-warps reading 16 consecutive words keep their read records as
 * summaries per 16-word chunk (grace.c): the reports must be those of the
 * word-by-word records (SMEMU_GRACE_WIDE=1, which make test also runs,
 * takes that path). Kernel k(out), 32 threads (tid t) per block, one
 * worker (blocks in order): block 0 stores out[3] (thread 3, line 19)
 * when w; blocks 0 and 1 load out[t] at line 20 and again at line 22;
 * block 2's thread 7 stores out[7] (line 27). */
static const char *chunk_kernel(int w)
{
  static char src[2048];
  snprintf(src, sizeof src,
           ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry k(.param .u64 pout)\n{\n"
           "  .reg .b32 %%t, %%b, %%v;\n  .reg .b64 %%o, %%a;\n  .reg .pred %%p, %%q;\n"
           "  ld.param.u64 %%o, [pout];\n  cvta.to.global.u64 %%o, %%o;\n"
           "  mov.u32 %%t, %%tid.x;\n  mov.u32 %%b, %%ctaid.x;\n"
           "  mul.wide.u32 %%a, %%t, 4;\n  add.s64 %%a, %%o, %%a;\n"
           "  setp.eq.u32 %%p, %%b, 2;\n  @%%p bra WRITE;\n"
           "  setp.eq.u32 %%p, %%b, 0;\n  setp.eq.and.u32 %%q, %%t, %d, %%p;\n"
           "  @%%q st.global.u32 [%%a], %%t;\n" /* line 19 */
           "  ld.global.u32 %%v, [%%a];\n"       /* line 20 */
           "  add.u32 %%v, %%v, 1;\n"
           "  ld.global.u32 %%v, [%%a];\n"       /* line 22 */
           "  bra.uni END;\n"
           "WRITE:\n  setp.ne.u32 %%q, %%t, 7;\n  @%%q bra END;\n"
           "  st.global.u32 [%%a], %%t;\n"       /* line 27 */
           "END:\n  ret;\n}\n",
           w ? 3 : 99);
  return src;
}

/* The hazard between lines first and second, or NULL. */
static const smemu_hazard *find_hazard(smemu_ctx *c, uint32_t first, uint32_t second)
{
  for (int i = 0; i < smemu_hazard_count(c); i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    if (h->first_ptx_line == first && h->second_ptx_line == second) return h;
  }
  return NULL;
}

/* h: a global-memory error hazard of that type and byte count, found in
 * block blk, thread t on both sides. */
static void expect_global(const smemu_hazard *h, const char *type, int count, int blk, int t)
{
  assert_non_null(h);
  assert_string_equal(h->type, type);
  assert_int_equal(h->global, 1);
  assert_int_equal(h->error, 1);
  assert_int_equal(h->count, count);
  assert_int_equal(h->block[0], blk);
  assert_int_equal(h->first_thread[0], t);
  assert_int_equal(h->second_thread[0], t);
}

/* The last reads of out[7] by two threads: block 1's thread 7 at line
 * 22, and block 0's thread 7 at line 22 (a thread's second read replaces
 * its first, so neither read at line 20 is kept). Block 2's store races
 * with both: one WAR of lines 22 and 27, 2 x 4 bytes, thread 7 on both
 * sides. */
static void test_chunk_readers(void **state)
{
  (void)state;
  smemu_ctx *c = launch_global(chunk_kernel(0), 3, 32, 4096);
  assert_int_equal(smemu_hazard_count(c), 1);
  expect_global(find_hazard(c, 22, 27), "WAR", 8, 2, 7);
  smemu_destroy(c);
}

/* Block 0's thread 3 stores out[3] first: its own reads of it follow in
 * program order, block 1's read of out[3] races with it (RAW between
 * blocks, thread 3; its read at line 22 a second pair); the other words
 * of that chunk keep their readers: block 2's store to out[7] still
 * races with both reads of thread 7. */
static void test_chunk_written_word(void **state)
{
  (void)state;
  smemu_ctx *c = launch_global(chunk_kernel(1), 3, 32, 4096);
  assert_int_equal(smemu_hazard_count(c), 3);
  expect_global(find_hazard(c, 19, 20), "RAW", 4, 1, 3);
  assert_int_equal(find_hazard(c, 19, 22)->count, 4);
  assert_int_equal(find_hazard(c, 22, 27)->count, 8);
  smemu_destroy(c);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_release_acquire), cmocka_unit_test(test_fence_atomic),
      cmocka_unit_test(test_atomic_without_fence), cmocka_unit_test(test_cta_fence),
      cmocka_unit_test(test_weak_flag), cmocka_unit_test(test_packed_full), cmocka_unit_test(test_wide_records),
      cmocka_unit_test(test_chunk_readers), cmocka_unit_test(test_chunk_written_word),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
