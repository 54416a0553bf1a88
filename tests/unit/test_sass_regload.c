/* test_sass_regload.c: the rules of src/sass/regload.c on kernels written
 * for them (tests/sass/regload.ptx), with the SASS ptxas makes of them
 * (tests/sass/regload.nvdisasm, or $SMEMU_SASS_REGLOAD/regload.nvdisasm
 * that tests/sass/regload.sh makes with the toolchain at hand). One warp
 * runs each kernel's straight-line code once, so its requests are the
 * SASS's instructions: arithmetic on the disassembly, which the comments
 * quote. The PTX-level merge marks are cleared first: what is checked
 * comes from the SASS alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "sass/sass.h"
#include "smemu.h"
#include "testdata.h"

/* name from $SMEMU_SASS_REGLOAD (ptx: never), else tests/sass */
static char *slurp(const char *name, size_t *len, int ptx) {
  const char *dirs[] = {ptx ? NULL : getenv("SMEMU_SASS_REGLOAD"), "tests/sass", "../tests/sass",
                        "../../tests/sass"};
  char *b = testdata_read(dirs, 4, name, len);
  if (!b) fail_msg("%s not found", name);
  return b;
}

static smemu_ctx *ctx;
static smemu_module *mod;

/* A context of the tier with the module, its PTX-level marks cleared and
 * the SASS applied (text: that SASS, NULL: regload.nvdisasm). */
static void open_ctx(int tier, const char *text, smemu_ctx **c, smemu_module **m) {
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.tier = tier;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  assert_int_equal(smemu_create(&opt, c), SMEMU_OK);
  size_t n;
  /* (the PTX is always the checked-in one; only the SASS is made anew) */
  char *ptx = slurp("regload.ptx", &n, 1);
  assert_int_equal(smemu_module_load_data(*c, ptx, n, "regload.ptx", m), SMEMU_OK);
  free(ptx);
  for (int i = 0; i < (*m)->nkernels; i++) {
    program *P = (*m)->kernels[i].prog;
    for (uint32_t pc = 0; P && pc < P->ncode; pc++) P->code[pc].merge = 0;
  }
  char *own = text ? NULL : slurp("regload.nvdisasm", &n, 0);
  if (text) n = strlen(text);
  assert_int_equal(smemu_module_use_sass(*m, text ? text : own, n), SMEMU_OK);
  free(own);
}

static int setup(void **state) {
  (void)state;
  open_ctx(SMEMU_TIER_INTERP, NULL, &ctx, &mod);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  smemu_destroy(ctx);
  return 0;
}

static smemu_kernel *kern(smemu_module *m, const char *name) {
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(m, name, &k), SMEMU_OK);
  assert_non_null(k->sass);
  if (k->sass->fallback) fail_msg("%s: %d accesses fell back to PTX rules", name, k->sass->fallback);
  return k;
}

/* One block of 32 threads, out a 1 KB buffer, n the second parameter
 * where the kernel has one; the bank counts. */
static smemu_bank_counts run_in(smemu_ctx *c, smemu_module *m, const char *name, uint32_t n) {
  uint32_t *out = NULL;
  assert_int_equal(smemu_malloc(c, (void **)&out, 1024), SMEMU_OK);
  void *args[2] = {&out, &n};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  assert_int_equal(smemu_launch(c, kern(m, name), g, b, 0, args), SMEMU_OK);
  smemu_bank_counts bc;
  assert_int_equal(smemu_last_bank_counts(c, &bc), SMEMU_OK);
  smemu_free(c, out);
  return bc;
}

static smemu_bank_counts run(const char *name, uint32_t n) { return run_in(ctx, mod, name, n); }

/* v4 loads with a used_bytes_mask between scalar loads of their words:
 * LDS.128 [0], LDS [8], LDS [16], LDS.128 [16], LDS.128 [32]: the v4 that
 * uses 3 words keeps the scalar of its fourth apart; the one that uses 2
 * (9, 11) and the scalars of 8 and 10 are one LDS.128. 7 PTX loads, 5
 * requests; every lane reads the same words, an LDS.128 in 2 wavefronts
 * (the H200's select sweep in tests/corpus/recorded: 36 wavefronts more
 * than requests, 12 warps of 3 LDS.128 each): 3 * 2 + 2 = 8. */
static void test_win_select(void **state) {
  (void)state;
  smemu_bank_counts bc = run("win_select", 0);
  assert_int_equal(bc.requests[0], 5);
  assert_int_equal(bc.wavefronts[0], 8);
  assert_int_equal(bc.requests[1], 1);
}

/* a v2 of words 2-3 and a scalar of word 1: LDS.128 [0]; the v4 [16]:
 * LDS.128. 2 requests. */
static void test_win_scan(void **state) {
  (void)state;
  smemu_bank_counts bc = run("win_scan", 0);
  assert_int_equal(bc.requests[0], 2);
}

/* four f32 stores at base+8..+20, each through its own copy of the base
 * (%r10..%r13 = %r5 + 8): two STS.64 by lane 0; one LDS. */
static void test_store_copies(void **state) {
  (void)state;
  smemu_bank_counts bc = run("store_copies", 0);
  assert_int_equal(bc.requests[1], 2);
  assert_int_equal(bc.requests[0], 1);
}

/* LDS [+0], LDS [+0x80], then `@P2 EXIT` (P2: tid + 64 >= n) and the
 * third item's LDS [+0x100]: with n = 32 every lane leaves before it (2
 * requests), with n = 80 lanes 0-15 stay (3 requests; 16 consecutive
 * words: one wavefront each); the same on the compiled tier. */
static void test_sink_exit(void **state) {
  (void)state;
  for (int t = 0; t < 2; t++) {
    smemu_ctx *c = ctx;
    smemu_module *m = mod;
    if (t) {
      if (!smemu_jit_available()) break;
      open_ctx(SMEMU_TIER_JIT, NULL, &c, &m);
    }
    smemu_bank_counts bc = run_in(c, m, "sink_exit", 32);
    assert_int_equal(bc.requests[0], 2);
    assert_int_equal(bc.wavefronts[0], 2);
    assert_int_equal(bc.requests[1], 3);
    bc = run_in(c, m, "sink_exit", 80);
    assert_int_equal(bc.requests[0], 3);
    assert_int_equal(bc.wavefronts[0], 3);
    /* again: a count kept for the pc must not stand for the next
     * launch's lanes */
    bc = run_in(c, m, "sink_exit", 32);
    assert_int_equal(bc.requests[0], 2);
    bc = run_in(c, m, "sink_exit", 200);
    assert_int_equal(bc.requests[0], 3);
    if (t) smemu_destroy(c);
  }
}

/* the load is sunk only where the SASS says so: without an LDS after a
 * predicated EXIT (here: the SASS of another kernel) it counts in place */
static void test_sink_needs_sass(void **state) {
  (void)state;
  assert_int_equal(kern(mod, "sink_exit")->prog->nsinks, 1);
  const char *text = ".text.sink_exit:\n        /*00b0*/                   STS [R0+UR4], R9 ;\n"
                     "        /*00e0*/                   STS [R0+UR4+0x80], R0 ;\n"
                     "        /*0110*/                   STS [R0+UR4+0x100], R11 ;\n"
                     "        /*0130*/                   LDS R5, [R0+UR4] ;\n"
                     "        /*0140*/                   LDS R7, [R0+UR4+0x80] ;\n"
                     "        /*0150*/                   LDS R5, [R0+UR4+0x100] ;\n"
                     "        /*0160*/                   EXIT ;\n";
  smemu_ctx *c;
  smemu_module *m;
  open_ctx(SMEMU_TIER_INTERP, text, &c, &m);
  assert_int_equal(kern(m, "sink_exit")->prog->nsinks, 0);
  smemu_bank_counts bc = run_in(c, m, "sink_exit", 32);
  assert_int_equal(bc.requests[0], 3);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_win_select),      cmocka_unit_test(test_win_scan),
      cmocka_unit_test(test_store_copies),    cmocka_unit_test(test_sink_exit),
      cmocka_unit_test(test_sink_needs_sass),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
