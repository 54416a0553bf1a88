/* test_check_rules.c: rules of the race and initialisation checkers
 * (src/check/) that `make mutants` found untested, each with a kernel whose
 * answer follows from the rule stated above it:
 *  - a thread that never reaches a barrier after its write is not ordered
 *    with the readers that do (a named barrier of other warps);
 *  - an access of a thread that exited is ordered by a later block-wide
 *    barrier (exited threads count as arrived);
 *  - a word written whole, then one of its bytes by another warp: the byte
 *    keeps the word's history (WAW on that byte);
 *  - cp.async writes shared memory: another warp's unsynchronised read of
 *    it is a RAW hazard, and the copy lands;
 *  - global memory: accesses of two blocks are never ordered, a hazard
 *    between them is an error even between equal warp indices, and hazards
 *    of several blocks add up;
 *  - the init check alone (without the race check) still finds a read of
 *    uninitialised shared memory; the race check alone reports no barrier
 *    errors (those belong to the sync check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ptxrun.h"

/* A context with the given analyses. */
static smemu_ctx *ctx_with(uint32_t analyses) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = analyses;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  return c;
}

/* A device buffer of c holding `bytes` of host (zeros when NULL). */
static void *buf(smemu_ctx *c, const void *host, size_t bytes) {
  void *p;
  assert_int_equal(smemu_malloc(c, &p, bytes), SMEMU_OK);
  if (host) memcpy(p, host, bytes);
  else memset(p, 0, bytes);
  return p;
}

/* Runs `kernel` of `ptx` on c (a new context with `analyses` when NULL) on
 * grid x block threads (1-D); returns the context (destroy it). */
static smemu_ctx *run_in(smemu_ctx *c, const char *ptx, const char *kernel, uint32_t grid, uint32_t block,
                         uint32_t analyses, void **args) {
  smemu_module *m;
  smemu_kernel *k;
  if (!c) c = ctx_with(analyses);
  if (smemu_module_load_data(c, ptx, strlen(ptx), "rules.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, kernel, &k) != SMEMU_OK)
    fail_msg("%s: %s", kernel, smemu_errmsg(c));
  const uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  if (smemu_launch(c, k, g, b, 0, args) != SMEMU_OK) fail_msg("%s: %s", kernel, smemu_errmsg(c));
  return c;
}

static smemu_ctx *run(const char *ptx, const char *kernel, uint32_t grid, uint32_t block, uint32_t analyses,
                      void **args) {
  return run_in(NULL, ptx, kernel, grid, block, analyses, args);
}

/* The number of hazards of `type` ("RAW", ...), and the first one. */
static int hazards(smemu_ctx *c, const char *type, const smemu_hazard **first) {
  int n = 0;
  *first = NULL;
  for (int i = 0; i < smemu_hazard_count(c); i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    if (strcmp(h->type, type)) continue;
    if (!n++) *first = h;
  }
  return n;
}

#define HEAD PTX_HEAD ".shared .align 4 .b32 sh[64];\n"

/* Warp 0 writes sh[0] and never waits; warps 1 and 2 meet at named barrier
 * 1 (64 threads), then warp 2 reads sh[0]: nothing orders the write before
 * the read. */
static void test_writer_outside_the_barrier(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .pred %p<4>;\n"
      "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  mov.u32 %r3, sh;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra NEXT;\n  st.shared.u32 [%r3], 7;\n  ret;\n"
      "NEXT:\n  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra DONE;\n  bar.sync 1, 64;\n"
      "  setp.ne.u32 %p3, %r1, 64;\n  @%p3 bra DONE;\n  ld.shared.u32 %r4, [%r3];\n"
      "DONE:\n  ret;\n}\n";
  smemu_ctx *c = run(ptx, "k", 1, 96, SMEMU_ANALYZE_RACES, NULL);
  const smemu_hazard *h;
  assert_int_equal(hazards(c, "RAW", &h), 1);
  assert_int_equal(h->error, 1);
  smemu_destroy(c);
}

/* Thread 32 (warp 1) writes sh[1] and exits; warp 0 waits at bar.sync 0 (which
 * completes: the exited threads count as arrived), then reads sh[1]. */
static void test_exited_writer_then_barrier(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .pred %p<4>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, sh;\n"
      "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra WAIT;\n  setp.ne.u32 %p2, %r1, 32;\n  @%p2 ret;\n"
      "  st.shared.u32 [%r3+4], %r1;\n  ret;\n"
      "WAIT:\n  bar.sync 0;\n  ld.shared.u32 %r4, [%r3+4];\n  ret;\n}\n";
  smemu_ctx *c = run(ptx, "k", 1, 64, SMEMU_ANALYZE_RACES, NULL);
  for (int i = 0; i < smemu_hazard_count(c); i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    print_error("hazard %s %s line %u -> %s line %u\n", h->type, h->first_access, h->first_ptx_line, h->second_access,
                h->second_ptx_line);
  }
  assert_int_equal(smemu_hazard_count(c), 0);
  smemu_destroy(c);
}

/* Thread 0 writes the word sh[2]; thread 32 (warp 1) then writes its byte
 * 3 with no barrier between: one WAW hazard of 1 byte. */
static void test_byte_of_a_word(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .b16 %h<2>;\n  .reg .pred %p<4>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, sh;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra B;\n  st.shared.u32 [%r3+8], %r1;\n  ret;\n"
      "B:\n  setp.ne.u32 %p2, %r1, 32;\n  @%p2 bra DONE;\n  mov.u16 %h1, 9;\n  st.shared.u8 [%r3+11], %h1;\n"
      "DONE:\n  ret;\n}\n";
  smemu_ctx *c = run(ptx, "k", 1, 64, SMEMU_ANALYZE_RACES, NULL);
  const smemu_hazard *h;
  assert_int_equal(hazards(c, "WAW", &h), 1);
  assert_int_equal(h->count, 1);
  assert_string_equal(h->variable, "sh");
  assert_int_equal(h->var_offset, 11);
  smemu_destroy(c);
}

/* Warp 0 copies 4 bytes per lane from global into sh with cp.async and
 * waits for them (wait_all); warp 1 reads sh[5] with no barrier: a RAW
 * hazard whose first access is the copy's write. The copy itself lands. */
static void test_cp_async_writes(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k(.param .u64 src, .param .u64 out)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
      "  .reg .pred %p<4>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, sh;\n  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd5, [out];\n"
      "  setp.ge.u32 %p1, %r1, 32;\n  @%p1 bra READ;\n"
      "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  shl.b32 %r4, %r1, 2;\n  add.u32 %r5, %r3, %r4;\n"
      "  cp.async.ca.shared.global [%r5], [%rd3], 4;\n  cp.async.wait_all;\n  ret;\n"
      "READ:\n  ld.shared.u32 %r6, [%r3+20];\n  st.global.u32 [%rd5], %r6;\n  ret;\n}\n";
  uint32_t host[32];
  for (int i = 0; i < 32; i++) host[i] = 1000u + (uint32_t)i;
  smemu_ctx *c = ctx_with(SMEMU_ANALYZE_RACES);
  uint32_t *src = buf(c, host, sizeof host), *out = buf(c, NULL, 4);
  void *args[] = {&src, &out};
  run_in(c, ptx, "k", 1, 64, 0, args);
  const smemu_hazard *h;
  assert_int_equal(hazards(c, "RAW", &h), 1);
  assert_string_equal(h->first_access, "Write");
  assert_int_equal(h->error, 1);
  assert_int_equal(*out, 1005u); /* warp 0 ran first: the copy landed */
  smemu_destroy(c);
}

/* Every thread 0 of 2 (then 3) blocks writes g[0], each block then passes
 * a barrier: nothing orders the blocks' writes, so there is a WAW hazard,
 * an error although both writers are warp 0 of their block, and with 3
 * blocks it counts twice as many byte hazards as with 2. */
static void test_global_blocks(void **state) {
  (void)state;
  const char *ptx = PTX_HEAD
      ".visible .entry k(.param .u64 g)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  ld.param.u64 %rd1, [g];\n  cvta.to.global.u64 %rd2, %rd1;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra B;\n  st.global.u32 [%rd2], %r2;\nB:\n  bar.sync 0;\n  ret;\n}\n";
  uint64_t counts[2];
  for (int i = 0; i < 2; i++) {
    smemu_ctx *c = ctx_with(SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_GLOBAL_RACES);
    uint32_t *g = buf(c, NULL, 4);
    void *args[] = {&g};
    run_in(c, ptx, "k", 2 + (uint32_t)i, 64, 0, args);
    const smemu_hazard *h;
    assert_int_equal(hazards(c, "WAW", &h), 1);
    assert_int_equal(h->global, 1);
    assert_int_equal(h->error, 1);
    counts[i] = h->count;
    smemu_destroy(c);
  }
  assert_int_equal(counts[0], 4);  /* the second block's write of 4 bytes */
  assert_int_equal(counts[1], 8);  /* and the third's */
}

/* Warp 1 reads sh[6], which nobody wrote: the init check finds it alone. */
static void test_init_alone(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, sh;\n  setp.ne.u32 %p1, %r1, 32;\n  @%p1 bra DONE;\n"
      "  ld.shared.u32 %r4, [%r3+24];\nDONE:\n  ret;\n}\n";
  smemu_ctx *c = run(ptx, "k", 1, 64, SMEMU_ANALYZE_INIT, NULL);
  assert_int_equal(smemu_sync_error_count(c), 1);
  smemu_destroy(c);
}

/* Half of warp 0 waits at bar.sync: with only the race check on, that
 * barrier misuse is not reported (the sync check reports it). */
static void test_races_without_sync(void **state) {
  (void)state;
  const char *ptx = HEAD
      ".visible .entry k()\n{\n  .reg .b32 %r<8>;\n  .reg .pred %p<2>;\n"
      "  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra DONE;\n  bar.warp.sync 65535;\n"
      "  bar.warp.sync 255;\nDONE:\n  ret;\n}\n";
  smemu_ctx *c = run(ptx, "k", 1, 32, SMEMU_ANALYZE_RACES, NULL);
  assert_int_equal(smemu_sync_error_count(c), 0);
  smemu_destroy(c);
  c = run(ptx, "k", 1, 32, SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC, NULL);
  assert_int_equal(smemu_sync_error_count(c), 1); /* the mask without lanes 8-15 */
  smemu_destroy(c);
}

/* Block 0: bar.sync, then thread 0 writes g[0]. Block 1: two bar.sync,
 * then thread 0 reads g[0]. Block 1's barriers order nothing of block 0:
 * a RAW hazard, an error although both are warp 0 (other blocks). */
static void test_global_blocks_after_barriers(void **state) {
  (void)state;
  const char *ptx = PTX_HEAD
      ".visible .entry k(.param .u64 g)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<3>;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  ld.param.u64 %rd1, [g];\n  cvta.to.global.u64 %rd2, %rd1;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n  setp.ne.u32 %p2, %r2, 0;\n  bar.sync 0;\n  @%p2 bra ONE;\n"
      "  @%p1 bra DONE;\n  st.global.u32 [%rd2], %r2;\n  bra.uni DONE;\n"
      "ONE:\n  bar.sync 0;\n  @%p1 bra DONE;\n  ld.global.u32 %r3, [%rd2];\nDONE:\n  ret;\n}\n";
  smemu_ctx *c = ctx_with(SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_GLOBAL_RACES);
  uint32_t *g = buf(c, NULL, 4);
  void *args[] = {&g};
  run_in(c, ptx, "k", 2, 32, 0, args);
  const smemu_hazard *h;
  assert_int_equal(hazards(c, "RAW", &h), 1);
  assert_int_equal(h->global, 1);
  assert_int_equal(h->error, 1);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writer_outside_the_barrier), cmocka_unit_test(test_exited_writer_then_barrier),
      cmocka_unit_test(test_byte_of_a_word),            cmocka_unit_test(test_cp_async_writes),
      cmocka_unit_test(test_global_blocks),             cmocka_unit_test(test_init_alone),
      cmocka_unit_test(test_races_without_sync),        cmocka_unit_test(test_global_blocks_after_barriers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
