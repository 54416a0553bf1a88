/* test_sregs.c: the special registers and predefined identifiers the PTX
 * ISA lists that tests/hw/fidelity does not record, with the values smemu
 * gives them: cluster registers of a launch without
 * clusters (each block a cluster of one), %is_explicit_cluster,
 * %current_graph_exec, %envreg and %pm (0), %clock_hi and %globaltimer_lo/
 * _hi (halves of %clock64 and %globaltimer), %nwarpid and %nsmid from the
 * architecture profile, WARP_SZ in a non-mov instruction. Each block's
 * thread 5 writes 20 words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

static const char ptx[] = PTX_HEAD
    ".visible .entry k(.param .u64 pout)\n"
    "{\n"
    "  .reg .b32 %r<24>;\n"
    "  .reg .b64 %rd<12>;\n"
    "  .reg .pred %p<3>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 5;\n"
    "  @%p1 ret;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ctaid.y;\n"
    "  mov.u32 %r4, %nctaid.x;\n"
    "  mad.lo.u32 %r5, %r3, %r4, %r2;\n" /* linear block */
    "  mul.lo.u32 %r5, %r5, 80;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  cvt.u64.u32 %rd2, %r5;\n"
    "  add.s64 %rd1, %rd1, %rd2;\n"
    "  mov.u32 %r6, %cluster_nctaid.x;\n"
    "  mov.u32 %r7, %cluster_nctaid.y;\n"
    "  mov.u32 %r8, %cluster_ctaid.x;\n"
    "  mov.u32 %r9, %cluster_ctarank;\n"
    "  st.global.v4.u32 [%rd1], {%r6, %r7, %r8, %r9};\n"
    "  mov.u32 %r6, %cluster_nctarank;\n"
    "  mov.u32 %r7, %nclusterid.x;\n"
    "  mov.u32 %r8, %nclusterid.y;\n"
    "  mov.u32 %r9, %clusterid.y;\n"
    "  st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};\n"
    "  mov.pred %p2, %is_explicit_cluster;\n"
    "  selp.u32 %r6, 1, 0, %p2;\n"
    "  mov.u64 %rd3, %current_graph_exec;\n"
    "  cvt.u32.u64 %r7, %rd3;\n"
    "  mov.u32 %r8, %envreg3;\n"
    "  mov.u32 %r9, %pm2;\n"
    "  st.global.v4.u32 [%rd1+32], {%r6, %r7, %r8, %r9};\n"
    "  mov.u64 %rd4, %clock64;\n"
    "  mov.u32 %r10, %clock_hi;\n"
    "  mov.u64 %rd5, %globaltimer;\n"
    "  mov.u32 %r11, %globaltimer_hi;\n"
    "  mov.u32 %r12, %globaltimer_lo;\n"
    "  mov.u64 %rd6, %globaltimer;\n"
    "  shr.u64 %rd7, %rd4, 32;\n"
    "  cvt.u32.u64 %r13, %rd7;\n"
    "  shr.u64 %rd8, %rd5, 32;\n"
    "  cvt.u32.u64 %r14, %rd8;\n"
    "  shr.u64 %rd9, %rd6, 32;\n"
    "  cvt.u32.u64 %r15, %rd9;\n"
    "  st.global.v4.u32 [%rd1+48], {%r10, %r13, %r11, %r14};\n"
    /* globaltimer_lo lies between the two 64-bit reads' low halves when
     * they share the high half */
    "  cvt.u32.u64 %r16, %rd5;\n"
    "  cvt.u32.u64 %r17, %rd6;\n"
    "  setp.eq.u32 %p2, %r14, %r15;\n"
    "  setp.ge.and.u32 %p2, %r12, %r16, %p2;\n"
    "  setp.le.and.u32 %p2, %r12, %r17, %p2;\n"
    "  setp.ne.or.u32 %p2, %r14, %r15, %p2;\n"
    "  selp.u32 %r18, 1, 0, %p2;\n"
    "  mov.u32 %r19, %nwarpid;\n"
    "  mov.u32 %r20, %nsmid;\n"
    "  add.u32 %r21, %r1, WARP_SZ;\n"
    "  st.global.v4.u32 [%rd1+64], {%r18, %r19, %r20, %r21};\n"
    "  ret;\n"
    "}\n";

static void run_on(const char *arch, uint32_t nwarpid, uint32_t nsmid) {
  smemu_options o = {0};
  o.threads = 1;
  o.arch = arch;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  enum { GX = 3, GY = 2 };
  uint32_t *out = NULL;
  assert_int_equal(smemu_malloc(c, (void **)&out, GX * GY * 80), SMEMU_OK);
  memset(out, 0xcd, GX * GY * 80);
  void *args[] = {&out};
  char err[1024];
  const uint32_t g[3] = {GX, GY, 1}, b[3] = {64, 1, 1};
  PTX_OK(ptxrun_in(c, ptx, "k", g, b, 0, args, err, sizeof err), err);
  for (uint32_t y = 0; y < GY; y++)
    for (uint32_t x = 0; x < GX; x++) {
      const uint32_t *w = out + (y * GX + x) * 20;
      /* a cluster of one block: 1 x 1 CTAs, this one at 0, rank 0 of 1 */
      assert_int_equal(w[0], 1);
      assert_int_equal(w[1], 1);
      assert_int_equal(w[2], 0);
      assert_int_equal(w[3], 0);
      assert_int_equal(w[4], 1);
      /* so the cluster grid is the CTA grid */
      assert_int_equal(w[5], GX);
      assert_int_equal(w[6], GY);
      assert_int_equal(w[7], y);
      assert_int_equal(w[8], 0); /* not an explicit cluster */
      assert_int_equal(w[9], 0); /* no graph */
      assert_int_equal(w[10], 0); /* %envreg3: no driver values */
      assert_int_equal(w[11], 0); /* %pm2 */
      assert_int_equal(w[12], w[13]); /* %clock_hi = %clock64 >> 32 */
      assert_int_equal(w[14], w[15]); /* %globaltimer_hi = %globaltimer >> 32 (same second band) */
      assert_int_equal(w[16], 1);     /* %globaltimer_lo within the two reads */
      assert_int_equal(w[17], nwarpid);
      assert_int_equal(w[18], nsmid);
      assert_int_equal(w[19], 5 + 32); /* %tid.x + WARP_SZ */
    }
  smemu_free(c, out);
  smemu_destroy(c);
}

/* %nwarpid is the profile's warps per SM (64 on sm_90 as measured on an
 * H100, 48 on sm_86, 32 on sm_75), %nsmid its SM count. */
static void test_special_registers(void **state) {
  (void)state;
  run_on("sm_90", 64, 132);
  run_on("sm_86", 48, 82);
  run_on("sm_75", 32, 40);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_special_registers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
