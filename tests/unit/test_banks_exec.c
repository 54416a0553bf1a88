/* test_banks_exec.c: the H200 bank-conflict recording (tests/hw/banks)
 * replayed through the whole emulator. test_banks.c feeds corpus.tsv's
 * addresses straight to the bank model; here every recorded kernel runs as
 * PTX: tests/hw/banks/corpus.ptx (nvcc -arch=sm_90 -O3 -lineinfo -ptx of
 * corpus.cu, made by regen_ptx.sh) is loaded once through include/smemu.h
 * with SMEMU_ANALYZE_BANKS, each kernel gets the inputs corpus.cu's main()
 * gives it (its row of the `table` array, parsed from corpus.cu, and its
 * slice of the output buffer), is launched as there (1 block of 32 threads,
 * no dynamic shared memory), and smemu_last_bank_counts() must equal the 9
 * counters Nsight Compute recorded (vectors.tsv: instructions, wavefronts
 * and bank conflicts of shared loads, stores and atomics).
 *
 * Kernels where ptxas merged PTX accesses into one wider SASS access
 * (corpus.tsv has "sass" lines for them) are compared with the recording
 * too: the decoder finds the same merges (src/ir/merge.c) and the bank model
 * counts each group once, as the wide access.
 *
 * Every mismatch is printed with the kernel name, expected and actual
 * values; the test fails on any. SMEMU_BANKS_DIR may name the directory of
 * the corpus files; otherwise it is looked up from the repository root (the
 * Makefile's working directory) or from build/tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

#define NCOUNT 9     /* inst ld/st/atom, wavefronts ld/st/atom, conflicts ld/st/atom */
#define MAXCASES 1024
#define MAXROW 512
#define NAMELEN 96

/* ------------------------------------------------------ expectations ---- */



/* ------------------------------------------------------------ inputs ---- */

typedef struct corpus_case {
  char name[NAMELEN];
  uint32_t row[MAXROW];
  int have_row;
} corpus_case;

typedef struct recorded {
  char kernel[NAMELEN];
  long v[NCOUNT];
  char sass[64];
} recorded;

static corpus_case cases[MAXCASES];
static int ncases, row_words, outrow_words, ncases_declared;
static recorded vecs[MAXCASES];
static int nvecs;
static char corpus_dir[512];

/* Finds the directory holding tests/hw/banks/corpus.ptx. */
static int find_corpus_dir(void)
{
  const char *cand[] = {getenv("SMEMU_BANKS_DIR"), "tests/hw/banks", "../tests/hw/banks",
                        "../../tests/hw/banks"};
  for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
    char p[600];
    if (!cand[i])
      continue;
    snprintf(p, sizeof p, "%s/corpus.ptx", cand[i]);
    FILE *f = fopen(p, "r");
    if (f) {
      fclose(f);
      snprintf(corpus_dir, sizeof corpus_dir, "%s", cand[i]);
      return 1;
    }
  }
  return 0;
}

static FILE *corpus_open(const char *file)
{
  char p[600];
  snprintf(p, sizeof p, "%s/%s", corpus_dir, file);
  FILE *f = fopen(p, "r");
  if (!f)
    fprintf(stderr, "test_banks_exec: cannot open %s\n", p);
  return f;
}

static int case_index(const char *name)
{
  for (int i = 0; i < ncases; i++)
    if (!strcmp(cases[i].name, name))
      return i;
  return -1;
}

/* corpus.cu's host side: ROW/OUTROW/NCASES, the cases[] array (kernel names
 * in launch order) and table[NCASES][ROW] (row i is kernel i's input t). */
static void parse_corpus_cu(void)
{
  FILE *f = corpus_open("corpus.cu");
  assert_non_null(f);
  static char buf[1 << 16];
  enum { NONE, NAMES, TABLE } part = NONE;
  int trow = 0;
  ncases = row_words = outrow_words = ncases_declared = 0;
  while (fgets(buf, sizeof buf, f)) {
    size_t n = strlen(buf);
    assert_true(n + 1 < sizeof buf); /* no line is cut */
    if (part == NONE) {
      if (sscanf(buf, "#define ROW %d", &row_words) == 1 ||
          sscanf(buf, "#define OUTROW %d", &outrow_words) == 1 ||
          sscanf(buf, "#define NCASES %d", &ncases_declared) == 1)
        continue;
      if (strstr(buf, "static const struct") && strstr(buf, "cases[] = {"))
        part = NAMES;
      else if (strstr(buf, "static const unsigned table[NCASES][ROW] = {"))
        part = TABLE;
      continue;
    }
    if (!strncmp(buf, "};", 2)) {
      part = NONE;
      continue;
    }
    if (part == NAMES) {
      char name[NAMELEN];
      assert_int_equal(sscanf(buf, " {\"%95[^\"]\",", name), 1);
      assert_true(ncases < MAXCASES);
      snprintf(cases[ncases++].name, NAMELEN, "%s", name);
    } else {
      char *p = strchr(buf, '{');
      assert_non_null(p);
      assert_true(trow < ncases);
      assert_true(row_words > 0 && row_words <= MAXROW);
      p++;
      for (int w = 0; w < row_words; w++) {
        char *e;
        cases[trow].row[w] = (uint32_t)strtoul(p, &e, 10);
        assert_true(e != p);
        p = e;
        if (*p == ',')
          p++;
      }
      assert_int_equal(*p, '}');
      cases[trow++].have_row = 1;
    }
  }
  fclose(f);
  assert_true(ncases > 0);
  assert_int_equal(ncases, ncases_declared);
  assert_int_equal(trow, ncases);
  assert_true(outrow_words > 128); /* out[128] is the array's address */
}

static void parse_vectors(void)
{
  FILE *f = corpus_open("vectors.tsv");
  assert_non_null(f);
  char buf[4096];
  nvecs = 0;
  while (fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#' || buf[0] == '\n')
      continue;
    assert_true(nvecs < MAXCASES);
    recorded *V = &vecs[nvecs];
    char *save = NULL, *t = strtok_r(buf, "\t\n", &save);
    assert_non_null(t);
    snprintf(V->kernel, NAMELEN, "%s", t);
    for (int i = 0; i < NCOUNT; i++) {
      t = strtok_r(NULL, "\t\n", &save);
      assert_non_null(t);
      char *e;
      V->v[i] = strtol(t, &e, 10);
      assert_true(e != t && *e == '\0'); /* every counter was recorded */
    }
    t = strtok_r(NULL, "\t\n", &save);
    snprintf(V->sass, sizeof V->sass, "%s", t ? t : "?");
    nvecs++;
  }
  fclose(f);
}

/* Lines of `form` ("ptx", "sass" or "all") corpus.tsv has for `kernel`. */
static int corpus_lines(const char *kernel, const char *form)
{
  FILE *f = corpus_open("corpus.tsv");
  assert_non_null(f);
  char buf[4096];
  int n = 0;
  size_t kl = strlen(kernel), fl = strlen(form);
  while (fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#')
      continue;
    if (!strncmp(buf, kernel, kl) && buf[kl] == '\t' && !strncmp(buf + kl + 1, form, fl) &&
        buf[kl + 1 + fl] == '\t')
      n++;
  }
  fclose(f);
  return n;
}

/* The shared address bases.txt recorded for the array of `kernel`, or -1. */
static long hw_base(const char *kernel)
{
  FILE *f = corpus_open("bases.txt");
  if (!f)
    return -1;
  char buf[512], name[NAMELEN];
  unsigned long b;
  long r = -1;
  while (r < 0 && fgets(buf, sizeof buf, f))
    if (sscanf(buf, "%95s %lx", name, &b) == 2 && !strcmp(name, kernel))
      r = (long)b;
  fclose(f);
  return r;
}

/* -------------------------------------------------------------- test ---- */

static void print_counts(const char *what, const long v[NCOUNT])
{
  fprintf(stderr, "    %-8s inst %ld/%ld/%ld  wavefronts %ld/%ld/%ld  conflicts %ld/%ld/%ld"
          " (ld/st/atom)\n", what, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
}

static void test_corpus_exec(void **state)
{
  (void)state;
  if (!find_corpus_dir()) {
    fprintf(stderr, "test_banks_exec: tests/hw/banks/corpus.ptx not found "
                    "(sh tests/hw/banks/regen_ptx.sh makes it)\n");
    fail();
  }
  parse_corpus_cu();
  parse_vectors();
  assert_true(nvecs > 0);

  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  opt.max_warp_instructions = 1u << 20; /* a runaway kernel fails, not hangs */
  smemu_ctx *ctx = NULL;
  assert_int_equal(smemu_create(&opt, &ctx), SMEMU_OK);
  char path[600];
  snprintf(path, sizeof path, "%s/corpus.ptx", corpus_dir);
  smemu_module *mod = NULL;
  smemu_status st = smemu_module_load_file(ctx, path, &mod);
  if (st != SMEMU_OK)
    fprintf(stderr, "test_banks_exec: loading %s: %s: %s\n", path, smemu_status_name(st),
            smemu_errmsg(ctx));
  assert_int_equal(st, SMEMU_OK);

  /* main(): the whole table copied to the device, the output zeroed;
   * kernel i gets t = d_tab + i * ROW and out = d_out + i * OUTROW. */
  size_t tab_bytes = (size_t)ncases * (size_t)row_words * 4;
  size_t out_bytes = (size_t)ncases * (size_t)outrow_words * 4;
  uint32_t *h_tab = malloc(tab_bytes), *h_out = malloc(out_bytes);
  assert_non_null(h_tab);
  assert_non_null(h_out);
  for (int i = 0; i < ncases; i++)
    memcpy(h_tab + (size_t)i * (size_t)row_words, cases[i].row, (size_t)row_words * 4);
  void *d_tab = NULL, *d_out = NULL;
  assert_int_equal(smemu_malloc(ctx, &d_tab, tab_bytes), SMEMU_OK);
  assert_int_equal(smemu_malloc(ctx, &d_out, out_bytes), SMEMU_OK);
  assert_int_equal(smemu_memcpy(ctx, d_tab, h_tab, tab_bytes), SMEMU_OK);
  assert_int_equal(smemu_memset(ctx, d_out, 0, out_bytes), SMEMU_OK);

  int match = 0, mismatch = 0, merged_seen = 0;
  for (int v = 0; v < nvecs; v++) {
    const recorded *V = &vecs[v];
    int ci = case_index(V->kernel);
    if (ci < 0) {
      fprintf(stderr, "test_banks_exec: MISMATCH %s: recorded but not in corpus.cu\n",
              V->kernel);
      mismatch++;
      continue;
    }
    /* What to expect: the recording. For a kernel ptxas merged (it has
     * "sass" lines in corpus.tsv) the hardware ran as many SASS
     * instructions as "sass" lines, fewer than the PTX's "ptx" lines. */
    long want[NCOUNT];
    int nsass = corpus_lines(V->kernel, "sass");
    if (nsass) {
      merged_seen++;
      assert_int_equal(V->v[0] + V->v[1] + V->v[2], nsass);
      assert_true(corpus_lines(V->kernel, "ptx") > nsass);
    }
    memcpy(want, V->v, sizeof want);

    smemu_kernel *k = NULL;
    st = smemu_module_get_kernel(mod, V->kernel, &k);
    if (st != SMEMU_OK) {
      fprintf(stderr, "test_banks_exec: MISMATCH %s: not in corpus.ptx: %s\n", V->kernel,
              smemu_errmsg(ctx));
      mismatch++;
      continue;
    }
    uint32_t *t = (uint32_t *)d_tab + (size_t)ci * (size_t)row_words;
    uint32_t *out = (uint32_t *)d_out + (size_t)ci * (size_t)outrow_words;
    void *args[2] = {&t, &out};
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    st = smemu_launch(ctx, k, grid, block, 0, args);
    if (st != SMEMU_OK) {
      fprintf(stderr, "test_banks_exec: MISMATCH %s: launch failed: %s: %s\n", V->kernel,
              smemu_status_name(st), smemu_errmsg(ctx));
      mismatch++;
      continue;
    }
    smemu_bank_counts c;
    assert_int_equal(smemu_last_bank_counts(ctx, &c), SMEMU_OK);
    long got[NCOUNT];
    for (int i = 0; i < 3; i++) {
      got[i] = (long)c.requests[i];
      got[3 + i] = (long)c.wavefronts[i];
      got[6 + i] = (long)c.conflicts[i];
    }
    /* The offsets are from the array's start; the recorded banks are those
     * of the GPU's address (bases.txt). Bank = (addr / 4) % 32 and every
     * access is at most 16 bytes, so the two agree when the addresses are
     * congruent mod 128. */
    long hb = hw_base(V->kernel);
    uint32_t eb = out[128];
    int base_ok = hb < 0 || ((uint32_t)hb - eb) % 128 == 0;
    if (base_ok && !memcmp(want, got, sizeof want)) {
      match++;
      continue;
    }
    mismatch++;
    fprintf(stderr, "test_banks_exec: MISMATCH %s (SASS %s, expected from %s):\n", V->kernel,
            V->sass, "the recording");
    print_counts("expected", want);
    print_counts("smemu", got);
    if (!base_ok)
      fprintf(stderr, "    array at shared 0x%x in smemu, 0x%lx on the GPU (not congruent"
              " mod 128)\n", eb, hb);
  }
  assert_int_equal(merged_seen, 5);
  fprintf(stderr, "test_banks_exec: %d of %d recorded kernels match (%d of them merged by ptxas),"
          " %d mismatches\n", match, nvecs, merged_seen, mismatch);

  smemu_free(ctx, d_tab);
  smemu_free(ctx, d_out);
  free(h_tab);
  free(h_out);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  assert_int_equal(mismatch, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_corpus_exec),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
