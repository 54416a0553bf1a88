/* test_sync_profiles.c: the barrier checks follow the architecture profile.
 * The sm_90 behaviour is compared with compute-sanitizer's in test_races_hw;
 * here the same corpus kernels (tests/hw/races) run under a pre-Volta
 * profile (sm_60) too, where the PTX ISA's documented rules apply and no
 * GPU can be asked: every thread of a warp must execute the same barrier
 * instruction, aligned or not, and every thread named in a bar.warp.sync
 * mask must execute it. Expected values are those rules applied to each
 * kernel (stated per case), and for sm_90 the recorded or documented
 * behaviour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

#define DIR "tests/hw/races/"
#define WORDS 8192

/* Barrier errors of one kind found when running a corpus kernel. */
typedef struct result {
  int status;
  int nkind;        /* errors of `kind` (one per source line) */
  uint64_t threads; /* threads they name, summed */
  int other;        /* barrier errors of other kinds */
} result;

static result run(const char *arch, const char *name, uint32_t nthreads, int n, const char *kind)
{
  result out = {0};
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.arch = arch;
  o.analyses = SMEMU_ANALYZE_SYNC;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  char path[256];
  snprintf(path, sizeof path, DIR "%s.ptx", name);
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_file(c, path, &m) != SMEMU_OK || smemu_module_get_kernel(m, name, &k) != SMEMU_OK)
    fail_msg("%s: %s", path, smemu_errmsg(c));
  int *in, *dout;
  assert_int_equal(smemu_malloc(c, (void **)&in, WORDS * sizeof(int)), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&dout, WORDS * sizeof(int)), SMEMU_OK);
  for (int i = 0; i < WORDS; i++) in[i] = (i * 37 + 11) % 1009;
  assert_int_equal(smemu_memset(c, dout, 0, WORDS * sizeof(int)), SMEMU_OK);
  void *args[] = {&dout, &in, &n};
  uint32_t grid[3] = {1, 1, 1}, block[3] = {nthreads, 1, 1};
  out.status = smemu_launch(c, k, grid, block, 0, args);
  for (int i = 0; i < smemu_sync_error_count(c); i++) {
    const smemu_sync_error *e = smemu_sync_error_get(c, i);
    if (!strcmp(e->kind, kind)) {
      out.nkind++;
      out.threads += e->count;
    } else {
      out.other++;
    }
  }
  smemu_destroy(c);
  return out;
}

/* Half-warps at two non-aligned barrier.sync instructions: per thread on
 * sm_70+ (PTX ISA: barrier without .aligned may be executed by divergent
 * threads), a divergent warp before: 16 threads at each instruction. */
static void test_nonaligned_halves(void **state)
{
  (void)state;
  result v = run("sm_90", "sync_nonaligned_halves", 32, 32, "divergent-warp");
  assert_int_equal(v.nkind + v.other, 0);
  result p = run("sm_60", "sync_nonaligned_halves", 32, 32, "divergent-warp");
  assert_int_equal(p.nkind, 2);
  assert_int_equal(p.threads, 32);
}

/* Half-warps at two __syncthreads: every violation before sm_70 (two lines,
 * 16 threads each); on sm_90 only the fall-through side's 16 threads, as
 * synccheck reports (tests/hw/races, sync_halfwarp_two_bars). */
static void test_halfwarp_two_bars(void **state)
{
  (void)state;
  result v = run("sm_90", "sync_halfwarp_two_bars", 32, 32, "divergent-warp");
  assert_int_equal(v.nkind, 1);
  assert_int_equal(v.threads, 16);
  result p = run("sm_60", "sync_halfwarp_two_bars", 32, 32, "divergent-warp");
  assert_int_equal(p.nkind, 2);
  assert_int_equal(p.threads, 32);
}

/* if (t < n) { __syncthreads(); } with the other lanes exiting: nothing on
 * sm_90 (measured), a divergent warp before sm_70 (the warp diverges at a
 * bar: the ISA leaves it undefined): threads 32-47. */
static void test_tail_exit(void **state)
{
  (void)state;
  result v = run("sm_90", "sync_tail_exit", 64, 48, "divergent-warp");
  assert_int_equal(v.nkind + v.other, 0);
  result p = run("sm_60", "sync_tail_exit", 64, 48, "divergent-warp");
  assert_int_equal(p.nkind, 1);
  assert_int_equal(p.threads, 16);
}

/* bar.warp.sync 0x1ffff by lanes 0-15 while lane 16 has exited: nothing on
 * sm_90 (measured, sync_warp_mask_exited); before sm_70 every thread of the
 * mask must execute it, so the 16 callers are named. */
static void test_warp_mask_exited(void **state)
{
  (void)state;
  result v = run("sm_90", "sync_warp_mask_exited", 32, 16, "warp-sync-mask");
  assert_int_equal(v.nkind + v.other, 0);
  result p = run("sm_60", "sync_warp_mask_exited", 32, 16, "warp-sync-mask");
  assert_int_equal(p.nkind, 1);
  assert_int_equal(p.threads, 16);
}

/* Two groups each naming exactly itself: valid under both rule sets. */
static void test_warp_mask_groups(void **state)
{
  (void)state;
  result v = run("sm_90", "sync_warp_mask_groups", 32, 32, "warp-sync-mask");
  result p = run("sm_60", "sync_warp_mask_groups", 32, 32, "warp-sync-mask");
  assert_int_equal(v.nkind + v.other + p.nkind + p.other, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nonaligned_halves), cmocka_unit_test(test_halfwarp_two_bars),
      cmocka_unit_test(test_tail_exit),         cmocka_unit_test(test_warp_mask_exited),
      cmocka_unit_test(test_warp_mask_groups),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
