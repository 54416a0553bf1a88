/* test_atom_x2.c: atom.add.noftz on packed halves (atomicAdd on __half2 and
 * __nv_bfloat162, shared and generic addresses): each 16-bit half adds on
 * its own with round-to-nearest-even. Expected bits by arithmetic: 320
 * lanes add (1.0, 0.5); f16 (11 significant bits) holds 320 and 160
 * exactly; bf16 (8 significant bits) stops at 256 (256 + 1 ties to even
 * 256) and at 128 (128 + 0.5 likewise). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

static const char ptx[] = PTX_HEAD
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p;\n"
    "  .shared .align 4 .b32 sh;\n  .shared .align 4 .b32 sb;\n"
    "  mov.u32 %r0, %tid.x;\n"
    "  setp.ne.u32 %p, %r0, 0;\n"
    "  @%p bra WAIT;\n"
    "  st.shared.u32 [sh], 0;\n  st.shared.u32 [sb], 0;\n"
    "WAIT:\n"
    "  bar.sync 0;\n"
    "  mov.b32 %r1, 0x38003c00;\n" /* f16x2 (lo 1.0, hi 0.5) */
    "  atom.shared.add.noftz.f16x2 %r2, [sh], %r1;\n"
    "  mov.b32 %r3, 0x3f003f80;\n" /* bf16x2 (lo 1.0, hi 0.5) */
    "  mov.u64 %rd0, sb;\n  cvta.shared.u64 %rd1, %rd0;\n"
    "  atom.add.noftz.bf16x2 %r4, [%rd1], %r3;\n"
    "  bar.sync 0;\n"
    "  @%p bra DONE;\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.shared.u32 %r5, [sh];\n  ld.shared.u32 %r6, [sb];\n"
    "  st.global.u32 [%rd2], %r5;\n  st.global.u32 [%rd2+4], %r6;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

static void test_packed_adds(void **state) {
  (void)state;
  uint32_t *out = dev_alloc(8, 0);
  assert_non_null(out);
  void *args[] = {&out};
  char err[512] = "";
  int rc = ptxrun(ptx, "k", 1, 320, 0, args, err, sizeof err);
  if (rc) fail_msg("%s", err);
  uint32_t host[2];
  assert_int_equal(smemu_memcpy(ptxrun_ctx(), host, out, sizeof host), SMEMU_OK);
  assert_int_equal(host[0] & 0xffff, 0x5d00); /* f16 320 */
  assert_int_equal(host[0] >> 16, 0x5900);    /* f16 160 */
  assert_int_equal(host[1] & 0xffff, 0x4380); /* bf16 256 */
  assert_int_equal(host[1] >> 16, 0x4300);    /* bf16 128 */
  dev_free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_packed_adds)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
