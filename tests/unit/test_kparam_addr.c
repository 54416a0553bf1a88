/* test_kparam_addr.c: a kernel parameter's address taken with mov and read
 * through a register with ld.param, as nvcc writes it for a struct passed
 * by value whose array is indexed at run time; a read past the parameter
 * buffer faults instead of reading host memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

/* out[t] = tab.v[(t * 3) % 8] + tab.v[idx] (idx a parameter, may be out of range) */
static const char ptx[] = PTX_HEAD
    ".visible .entry k(.param .align 4 .b8 tab[32], .param .u64 out, .param .u32 idx)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.b64 %rd0, tab;\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  mul.lo.u32 %r1, %r0, 3;\n  rem.u32 %r1, %r1, 8;\n"
    "  mul.wide.u32 %rd1, %r1, 4;\n  add.s64 %rd2, %rd0, %rd1;\n"
    "  ld.param.u32 %r2, [%rd2];\n"
    "  ld.param.u32 %r3, [idx];\n"
    "  mul.wide.u32 %rd3, %r3, 4;\n  add.s64 %rd4, %rd0, %rd3;\n"
    "  ld.param.u32 %r4, [%rd4];\n"
    "  add.u32 %r5, %r2, %r4;\n"
    "  ld.param.u64 %rd5, [out];\n"
    "  mul.wide.u32 %rd6, %r0, 4;\n  add.s64 %rd7, %rd5, %rd6;\n"
    "  st.global.u32 [%rd7], %r5;\n"
    "  ret;\n"
    "}\n";

static int run(uint32_t idx, uint32_t got[8], char *err, size_t errsz) {
  int32_t tab[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  uint32_t *out = dev_alloc(8 * 4, 0);
  void *args[] = {tab, &out, &idx};
  int rc = ptxrun(ptx, "k", 1, 8, 0, args, err, errsz);
  if (!rc) smemu_memcpy(ptxrun_ctx(), got, out, 8 * 4);
  dev_free(out);
  return rc;
}

static void test_indexed(void **state) {
  (void)state;
  uint32_t got[8];
  char err[512] = "";
  int rc = run(5, got, err, sizeof err);
  if (rc) fail_msg("%s", err);
  for (uint32_t t = 0; t < 8; t++) assert_int_equal(got[t], 10 + (t * 3) % 8 + 15);
}

static void test_past_the_buffer(void **state) {
  (void)state;
  uint32_t got[8];
  char err[512] = "";
  /* word 100 of a 48-byte parameter buffer */
  assert_int_equal(run(100, got, err, sizeof err), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(err, "param"));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_indexed), cmocka_unit_test(test_past_the_buffer)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
