/* test_sass_corpus.c: the SASS mapping's coverage (src/sass/map.c) on
 * pairs of PTX and disassembly. With arguments it measures:
 *   test_sass_corpus [-v] A.ptx A.sass [B.ptx B.sass ...]
 * prints, per pair and in all, the static shared accesses of every kernel
 * and how many mapped (-v: each kernel, and the accesses that fell back);
 * tests/sass/corpus.sh runs it on the corpus it builds. */
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

static char *slurp_path(const char *p, size_t *len)
{
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) {
    b[n] = 0;
    *len = (size_t)n;
  }
  return b;
}

typedef struct tally {
  int kernels, accesses, mapped, fallback;
} tally;

/* Loads ptx, maps it onto sass, adds every kernel's figures to t. -1 when
 * a file cannot be read or loaded. */
static int measure(const char *ptxf, const char *sassf, int verbose, tally *t)
{
  size_t n, m;
  char *ptx = slurp_path(ptxf, &n), *sass = slurp_path(sassf, &m);
  int rc = -1;
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  if (!ptx || !sass || smemu_create(&opt, &ctx) != SMEMU_OK)
    goto out;
  if (smemu_module_load_data(ctx, ptx, n, ptxf, &mod) != SMEMU_OK) {
    fprintf(stderr, "%s: %s\n", ptxf, smemu_errmsg(ctx));
    goto out;
  }
  if (smemu_module_use_sass(mod, sass, m) != SMEMU_OK)
    goto out;
  for (int i = 0; i < mod->nkernels; i++) {
    const smemu_kernel *k = &mod->kernels[i];
    const sass_map *s = k->sass;
    if (!k->prog)
      continue;
    t->kernels++;
    if (!s) {
      if (verbose)
        printf("  %s: no SASS function\n", k->prog->name);
      continue;
    }
    t->accesses += s->accesses;
    t->mapped += s->agree + s->set;
    t->fallback += s->fallback;
    if (verbose && s->accesses)
      printf("  %-60.60s %4d accesses %4d mapped %4d fallback\n", k->prog->name, s->accesses,
             s->agree + s->set, s->fallback);
    if (verbose > 1)
      for (uint32_t pc = 0; pc < k->prog->ncode; pc++)
        if (s->status[pc] == SASS_MAP_FALLBACK)
          printf("    fallback: PTX line %u %s (source %u:%u)\n", k->prog->lines[pc].ptx_line,
                 k->prog->lines[pc].text, k->prog->lines[pc].file, k->prog->lines[pc].line);
  }
  rc = 0;
out:
  if (ctx)
    smemu_destroy(ctx);
  free(ptx);
  free(sass);
  return rc;
}

static int measure_main(int argc, char **argv)
{
  int verbose = 0, a = 1;
  while (a < argc && !strncmp(argv[a], "-v", 2)) {
    verbose += (int)strlen(argv[a]) - 1;
    a++;
  }
  tally all = {0, 0, 0, 0};
  int bad = 0;
  for (; a + 1 < argc; a += 2) {
    tally t = {0, 0, 0, 0};
    if (measure(argv[a], argv[a + 1], verbose, &t) < 0) {
      fprintf(stderr, "cannot measure %s with %s\n", argv[a], argv[a + 1]);
      bad = 1;
      continue;
    }
    printf("%s: %d kernels, %d shared accesses, %d mapped, %d fallback\n", argv[a], t.kernels, t.accesses,
           t.mapped, t.fallback);
    all.kernels += t.kernels;
    all.accesses += t.accesses;
    all.mapped += t.mapped;
    all.fallback += t.fallback;
  }
  printf("total: %d kernels, %d shared accesses, %d mapped (%.2f%%), %d fallback\n", all.kernels, all.accesses,
         all.mapped, all.accesses ? 100.0 * all.mapped / all.accesses : 100.0, all.fallback);
  return bad;
}

static void test_placeholder(void **state)
{
  (void)state;
}

int main(int argc, char **argv)
{
  if (argc > 1)
    return measure_main(argc, argv);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_placeholder),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
