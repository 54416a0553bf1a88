/* test_sass_corpus.c: the SASS mapping (src/sass/map.c) where the SASS's
 * instruction counts differ from the PTX's, without line info, and under
 * deeply nested inlining (the cases below; expected groupings are the
 * widths the SASS text states). With arguments it measures the coverage on
 * pairs of PTX and disassembly:
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

static char *slurp_path(const char *p, size_t *len) {
  FILE *f = fopen(p, "rb");
  if (!f) return NULL;
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

/* A context for one thread with the bank model on; NULL on failure. */
static smemu_ctx *new_ctx(void) {
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  smemu_ctx *c = NULL;
  return smemu_create(&opt, &c) == SMEMU_OK ? c : NULL;
}

typedef struct tally {
  int kernels, accesses, mapped, fallback, approx;
} tally;

/* Loads ptx, maps it onto sass, adds every kernel's figures to t. -1 when
 * a file cannot be read or loaded. */
static int measure(const char *ptxf, const char *sassf, int verbose, tally *t) {
  size_t n, m;
  char *ptx = slurp_path(ptxf, &n), *sass = slurp_path(sassf, &m);
  int rc = -1;
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  if (!ptx || !sass || !(ctx = new_ctx())) goto out;
  if (smemu_module_load_data(ctx, ptx, n, ptxf, &mod) != SMEMU_OK) {
    fprintf(stderr, "%s: %s\n", ptxf, smemu_errmsg(ctx));
    goto out;
  }
  if (smemu_module_use_sass(mod, sass, m) != SMEMU_OK) goto out;
  for (int i = 0; i < mod->nkernels; i++) {
    const smemu_kernel *k = &mod->kernels[i];
    const sass_map *s = k->sass;
    if (!k->prog) continue;
    t->kernels++;
    if (!s) {
      if (verbose) printf("  %s: no SASS function\n", k->prog->name);
      continue;
    }
    t->accesses += s->accesses;
    t->mapped += s->agree + s->set;
    t->fallback += s->fallback;
    t->approx += s->approx;
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
  if (ctx) smemu_destroy(ctx);
  free(ptx);
  free(sass);
  return rc;
}

static int measure_main(int argc, char **argv) {
  int verbose = 0, a = 1;
  while (a < argc && !strncmp(argv[a], "-v", 2)) {
    verbose += (int)strlen(argv[a]) - 1;
    a++;
  }
  tally all = {0, 0, 0, 0, 0};
  int bad = 0;
  for (; a + 1 < argc; a += 2) {
    tally t = {0, 0, 0, 0, 0};
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
    all.approx += t.approx;
  }
  printf("total: %d kernels, %d shared accesses, %d mapped (%.2f%%; %d of them by widths where the SASS's "
         "counts differ), %d fallback\n",
         all.kernels, all.accesses, all.mapped, all.accesses ? 100.0 * all.mapped / all.accesses : 100.0,
         all.approx, all.fallback);
  return bad;
}

/* Loads ptx (marks cleared) and maps it onto sass; returns the kernel. */
static smemu_kernel *load_pair(const char *ptx, const char *sass, smemu_ctx **ctx) {
  assert_non_null(*ctx = new_ctx());
  smemu_module *mod = NULL;
  assert_int_equal(smemu_module_load_data(*ctx, ptx, strlen(ptx), "t.ptx", &mod), SMEMU_OK);
  smemu_kernel *k = &mod->kernels[0];
  assert_non_null(k->prog);
  for (uint32_t pc = 0; pc < k->prog->ncode; pc++) k->prog->code[pc].merge = 0;
  assert_int_equal(smemu_module_use_sass(mod, sass, strlen(sass)), SMEMU_OK);
  assert_non_null(k->sass);
  return k;
}

/* The merge marks of the kernel's shared loads in pc order ("2F1"). */
static void load_marks(const program *P, char *out) {
  int n = 0;
  for (uint32_t pc = 0; pc < P->ncode; pc++)
    if (P->code[pc].op == OP_LD && P->code[pc].space == PTX_SPACE_SHARED)
      out[n++] = P->code[pc].merge == 0xff ? 'F' : P->code[pc].merge ? (char)('0' + P->code[pc].merge) : '1';
  out[n] = 0;
}

/* Maps ptx onto sass: every shared load mapped, with the merge marks
 * `marks` (load_marks), `approx` of them by widths alone. */
static void expect_mapping(const char *ptx, const char *sass, const char *marks, int approx) {
  smemu_ctx *ctx;
  smemu_kernel *k = load_pair(ptx, sass, &ctx);
  char m[16];
  load_marks(k->prog, m);
  assert_string_equal(m, marks);
  assert_int_equal(k->sass->accesses, (int)strlen(marks));
  assert_int_equal(k->sass->agree + k->sass->set, (int)strlen(marks));
  assert_int_equal(k->sass->fallback, 0);
  assert_int_equal(k->sass->approx, approx);
  smemu_destroy(ctx);
}

static const char relaxed_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 p)\n{\n"
                                  " .reg .b32 %r<4>;\n .reg .f32 %f<8>;\n"
                                  " .shared .align 16 .b8 s[256];\n"
                                  " .loc 1 5 1\n mov.u32 %r1, s;\n"
                                  " ld.shared.f32 %f1, [%r1];\n ld.shared.f32 %f2, [%r1+4];\n"
                                  " .loc 1 6 1\n ld.shared.f32 %f3, [%r1+64];\n"
                                  " ld.shared.f32 %f4, [%r1+68];\n ld.shared.f32 %f5, [%r1+72];\n"
                                  " ret;\n}\n.file 1 \"t.cu\"\n";

/* Line 5: two neighbouring loads, and the SASS has three LDS.64 there (a
 * loop ptxas unrolled 3 times): one 8-byte group, 3 x 1 instructions, a
 * whole multiple. Line 6: three loads, four 4-byte LDS (one moved there
 * from elsewhere): no 8- or 16-byte width on the line, so each load alone
 * (3 groups against 4 instructions: mapped by widths, counted approx). */
static void test_relaxed_widths(void **state) {
  (void)state;
  static const char sass[] = ".text.k:\n"
                             "\t//## File \"t.cu\", line 5\n"
                             "        /*0000*/                   LDS.64 R2, [R0] ;\n"
                             "        /*0010*/                   LDS.64 R4, [R0+0x100] ;\n"
                             "        /*0020*/                   LDS.64 R6, [R0+0x200] ;\n"
                             "\t//## File \"t.cu\", line 6\n"
                             "        /*0030*/                   LDS R8, [R0+0x40] ;\n"
                             "        /*0040*/                   LDS R9, [R0+0x44] ;\n"
                             "        /*0050*/                   LDS R10, [R0+0x48] ;\n"
                             "        /*0060*/                   LDS R11, [R0+0x4c] ;\n"
                             "        /*0070*/                   EXIT ;\n";
  expect_mapping(relaxed_ptx, sass, "2F111", 3);
}

/* Without line info on either side (PTX without .loc, a cubin built
 * without -lineinfo) the function maps as one line: one LDS.64 and three
 * LDS give the first pair one group and the other three loads alone. */
static void test_no_line_info(void **state) {
  (void)state;
  char ptx[sizeof relaxed_ptx];
  size_t o = 0;
  for (const char *p = relaxed_ptx; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = (size_t)(e - p) + 1;
    if (strncmp(p, " .loc", 5)) {
      memcpy(ptx + o, p, n);
      o += n;
    }
    p += n;
  }
  ptx[o] = 0;
  static const char sass[] = ".text.k:\n"
                             "        /*0000*/                   LDS.64 R2, [R0] ;\n"
                             "        /*0030*/                   LDS R8, [R0+0x40] ;\n"
                             "        /*0040*/                   LDS R9, [R0+0x44] ;\n"
                             "        /*0050*/                   LDS R10, [R0+0x48] ;\n"
                             "        /*0070*/                   EXIT ;\n";
  expect_mapping(ptx, sass, "2F111", 0);
}

/* A load that repeats an earlier one (same base register, offset, size;
 * straight-line code, no store between) and has no LDS on its line: ptxas
 * kept the value in a register (cub's raking scan re-reads three values
 * so; the H200 executes no LDS for them, tests/hw/sass_cub). It counts
 * nothing (marks "1F"); with a store to shared between, it is a load of
 * its own. */
static void test_repeated_load(void **state) {
  (void)state;
  static const char head[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                             ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<8>;\n"
                             " .shared .align 16 .b8 s[64];\n .loc 1 5 1\n mov.u32 %r1, s;\n"
                             " ld.shared.u32 %r2, [%r1+8];\n .loc 1 6 1\n add.s32 %r3, %r2, 1;\n";
  static const char tail[] = " .loc 1 7 1\n ld.shared.u32 %r4, [%r1+8];\n add.s32 %r5, %r4, %r3;\n"
                             " ret;\n}\n.file 1 \"t.cu\"\n";
  static const char sass[] = ".text.k:\n\t//## File \"t.cu\", line 5\n"
                             "        /*0000*/                   LDS R2, [R0+0x8] ;\n"
                             "\t//## File \"t.cu\", line 6\n"
                             "        /*0010*/                   STS [R0+0x8], R3 ;\n"
                             "        /*0020*/                   EXIT ;\n";
  char ptx[1024];
  snprintf(ptx, sizeof ptx, "%s%s", head, tail);
  smemu_ctx *ctx;
  smemu_kernel *k = load_pair(ptx, sass, &ctx);
  char m[16];
  load_marks(k->prog, m);
  assert_string_equal(m, "1F");
  assert_int_equal(k->sass->fallback, 0);
  smemu_destroy(ctx);
  snprintf(ptx, sizeof ptx, "%s st.shared.u32 [%%r1+8], %%r3;\n%s", head, tail);
  k = load_pair(ptx, sass, &ctx);
  load_marks(k->prog, m);
  assert_int_not_equal(m[1], 'F');
  smemu_destroy(ctx);
}

/* nvcc writes a callee's position as a .loc with inlined_at naming its
 * caller's position, which was written (with its own inlined_at) any
 * number of .loc lines before: cub's nesting puts hundreds between. The
 * load's line must still resolve to the kernel's own line (t.cu:10). */
static void test_inlined_far(void **state) {
  (void)state;
  enum { FILLER = 3000 };
  size_t cap = 4096 + (size_t)FILLER * 96;
  char *ptx = malloc(cap);
  assert_non_null(ptx);
  int o = snprintf(ptx, cap,
                   ".version 8.0\n.target sm_90\n.address_size 64\n"
                   ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %%r<8>;\n"
                   " .shared .align 4 .b8 s[64];\n .loc 1 10 3\n mov.u32 %%r1, s;\n"
                   " .loc 2 100 5, function_name $L__info_string0, inlined_at 1 10 3\n mov.u32 %%r2, 1;\n");
  for (int i = 0; i < FILLER; i++)
    o +=
        snprintf(ptx + o, cap - (size_t)o,
                 " .loc 2 %d 1, function_name $L__info_string0, inlined_at 1 %d 1\n add.s32 %%r2, %%r2, 1;\n",
                 200 + i, 20 + i);
  o += snprintf(ptx + o, cap - (size_t)o,
                " .loc 2 300 7, function_name $L__info_string0, inlined_at 2 100 5\n"
                " ld.shared.u32 %%r3, [%%r1];\n ret;\n}\n.file 1 \"t.cu\"\n.file 2 \"h.cuh\"\n"
                ".section .debug_str\n{\n$L__info_string0:\n.b8 102,0\n}\n");
  smemu_ctx *ctx = new_ctx();
  assert_non_null(ctx);
  smemu_module *mod = NULL;
  if (smemu_module_load_data(ctx, ptx, (size_t)o, "t.ptx", &mod) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(ctx));
  const program *P = mod->kernels[0].prog;
  int found = 0;
  for (uint32_t pc = 0; pc < P->ncode; pc++)
    if (P->code[pc].op == OP_LD && P->code[pc].space == PTX_SPACE_SHARED) {
      found = 1;
      assert_int_equal(P->lines[pc].line, 10);
      assert_string_equal(P->files[P->lines[pc].file], "t.cu");
    }
  assert_true(found);
  smemu_destroy(ctx);
  free(ptx);
}

int main(int argc, char **argv) {
  if (argc > 1) return measure_main(argc, argv);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_relaxed_widths),
      cmocka_unit_test(test_no_line_info),
      cmocka_unit_test(test_inlined_far),
      cmocka_unit_test(test_repeated_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
