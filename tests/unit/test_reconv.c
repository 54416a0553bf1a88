/* test_reconv.c: warp-synchronous operations (activemask, ballot, shfl,
 * match, redux) at the joins of nested and sequential divergent regions,
 * loops with break and continue, early returns, a switch and a divergent
 * call: tests/hw/reconv/reconv.ptx runs on smemu and every lane's values
 * at every probe must equal what an H200 gave for the same PTX
 * (tests/hw/reconv/recorded/KERNEL.bin, made by tests/hw/reconv/record.sh on
 * an H100; four runs gave the same bytes, recorded/stability.txt). Probes
 * listed in tests/hw/reconv/known_differences.txt ("KERNEL SLOT", with the
 * reason) are counted and reported, not failed. loops.ptx (loops.cu) holds
 * more loop shapes, compared the same way (recorded on an H200 with the
 * others again: the nine older recordings came out byte for byte the same,
 * recorded/versions_loops.txt, stability.txt). Each kernel also runs under
 * the random warp order: warp operations must not depend on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "ptxrun.h"
#include "../hw/reconv/reconv_inputs.h"

#define DIR "tests/hw/reconv/"
#define SLOTS 16
#define FIELDS 5
#define THREADS 64
#define WORDS (SLOTS * THREADS * FIELDS)

static const char *const field_names[FIELDS] = {"activemask", "ballot", "shfl", "match_any", "redux_add"};

/* 1 when `kernel` `slot` is a known difference. */
static int known(const char *kernel, int slot) {
  FILE *f = fopen(DIR "known_differences.txt", "r");
  char line[256], k[128];
  int s, hit = 0;
  if (!f) return 0;
  while (!hit && fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%127s %d", k, &s) == 2 && !strcmp(k, kernel) && s == slot) hit = 1;
  fclose(f);
  return hit;
}

/* The kernels of loops.ptx (more loop shapes); the others are reconv.ptx's. */
static const char *ptx_of(const char *kernel) {
  static const char *const loops[] = {"while_top", "break_else", "nested_break", "return_break", "do_continue"};
  for (size_t i = 0; i < sizeof loops / sizeof *loops; i++)
    if (!strcmp(kernel, loops[i])) return DIR "loops.ptx";
  return DIR "reconv.ptx";
}

/* Runs `kernel` on smemu into out (WORDS words). */
static void run_smemu(const char *kernel, int schedule, uint64_t seed, uint32_t *out) {
  smemu_options o;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  void *din, *dout;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.schedule = schedule;
  o.seed = seed;
  o.max_warp_instructions = 1000000;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_file(c, ptx_of(kernel), &m) != SMEMU_OK || smemu_module_get_kernel(m, kernel, &k) != SMEMU_OK ||
      smemu_malloc(c, &din, sizeof reconv_inputs) != SMEMU_OK || smemu_malloc(c, &dout, WORDS * 4) != SMEMU_OK)
    fail_msg("%s: %s", kernel, smemu_errmsg(c));
  memcpy(din, reconv_inputs, sizeof reconv_inputs);
  memset(dout, 0x55, WORDS * 4);
  void *args[] = {&dout, &din};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {THREADS, 1, 1};
  if (smemu_launch(c, k, g, b, 0, args) != SMEMU_OK) fail_msg("%s: %s", kernel, smemu_errmsg(c));
  memcpy(out, dout, WORDS * 4);
  smemu_destroy(c);
}

/* Compares one kernel with its recording; returns the differing words
 * (printing the first ones) and counts the probes compared in *probes. */
static int compare(const char *kernel, const char *how, const uint32_t *got, const uint32_t *gpu, int *probes,
                   int *known_bad) {
  int bad = 0;
  for (int s = 0; s < SLOTS; s++) {
    if (known(kernel, s)) {
      *known_bad += memcmp(got + s * THREADS * FIELDS, gpu + s * THREADS * FIELDS, THREADS * FIELDS * 4) != 0;
      continue;
    }
    for (int t = 0; t < THREADS; t++) {
      const uint32_t *a = got + (s * THREADS + t) * FIELDS, *e = gpu + (s * THREADS + t) * FIELDS;
      if (e[0] != 0x55555555u) (*probes)++;
      for (int f = 0; f < FIELDS; f++)
        if (a[f] != e[f] && bad++ < 12)
          print_error("%s (%s): probe P%d lane %d %s: smemu %08x, GPU %08x%s\n", kernel, how, s, t, field_names[f], a[f],
                      e[f], e[0] == 0x55555555u ? " (the GPU never reached it)" : "");
    }
  }
  return bad;
}

static void test_kernel(void **state) {
  const char *kernel = *state;
  char path[256];
  static uint32_t gpu[WORDS], got[WORDS];
  snprintf(path, sizeof path, DIR "recorded/%s.bin", kernel);
  FILE *f = fopen(path, "rb");
  if (!f && strcmp(ptx_of(kernel), DIR "reconv.ptx")) {
    print_message("%s: not recorded yet (tests/hw/reconv/record.sh)\n", kernel);
    skip();
  }
  if (!f || fread(gpu, sizeof gpu, 1, f) != 1) fail_msg("cannot read %zu bytes of %s", sizeof gpu, path);
  fclose(f);
  int bad = 0, probes = 0, known_bad = 0, p = 0, k = 0;
  run_smemu(kernel, SMEMU_SCHEDULE_FIXED, 0, got);
  bad += compare(kernel, "fixed warp order", got, gpu, &probes, &known_bad);
  for (uint64_t seed = 1; seed <= 3; seed++) {
    run_smemu(kernel, SMEMU_SCHEDULE_RANDOM, seed, got);
    bad += compare(kernel, "random warp order", got, gpu, &p, &k);
  }
  print_message("%s: %d lane probes compared with the GPU, %d words differ; %d probes of known_differences.txt "
                "differ\n", kernel, probes, bad, known_bad);
  assert_true(probes > 0);
  assert_int_equal(bad, 0);
}

#define K(name) {name, test_kernel, NULL, NULL, (void *)name}

int main(void) {
  const struct CMUnitTest tests[] = {
      K("nested_if"), K("nested3"),      K("sequential"),   K("loop_break"),     K("loop_continue"),
      K("do_while"),  K("early_return"), K("switch_case"),  K("call_divergent"), K("while_top"),
      K("break_else"), K("nested_break"), K("return_break"),  K("do_continue"),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
