/* test_sass_cases.c: the SASS mapping cases (src/sass/map.c), with line
 * info and again without (the PTX's .loc lines dropped, the SASS of
 * cases.noli.nvdisasm), on CUDA C that nvcc compiles (tests/sass/cases.cu):
 * merged scalars of one base, merged
 * neighbouring __shared__ variables, a warp-aggregated atomic, a POPC.INC
 * reduction, a CAS-loop atomic (double), ldmatrix/stmatrix, generic
 * LD/ST/ATOM, an atomic in a __noinline__ callee, and a 16-byte load
 * covering three fields. The PTX and the disassembly come from the directory in
 * $SMEMU_SASS_CASES (tests/sass/test.sh builds them there from cases.cu
 * with nvcc and nvdisasm when both are present), else the checked-in
 * tests/sass/cases.ptx and cases.nvdisasm. Every PTX-level mark is cleared
 * first, so what is checked is derived from the SASS alone; the expected
 * groupings are the disassembly's (cases.cu says which each kernel gets),
 * the launch figures arithmetic on the SASS instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "ir/merge.h"
#include "model/atomsel.h"
#include "sass/sass.h"
#include "smemu.h"

static char *slurp(const char *name, size_t *len)
{
  const char *cand[] = {getenv("SMEMU_SASS_CASES"), "tests/sass", "../tests/sass", "../../tests/sass"};
  for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
    char p[700];
    if (!cand[i] || !*cand[i])
      continue;
    snprintf(p, sizeof p, "%s/%s", cand[i], name);
    FILE *f = fopen(p, "rb");
    if (!f)
      continue;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    b[n] = 0;
    *len = (size_t)n;
    return b;
  }
  fail_msg("%s not found", name);
  return NULL;
}

/* 1: the second round, as a program built without -lineinfo gives it:
 * the PTX without its .loc lines, the SASS of a cubin without line info
 * (cases.noli.nvdisasm); the mapping must find the same groupings */
static int noline;

/* Drops the .loc lines of PTX text (in place); returns the new length. */
static size_t strip_loc(char *t, size_t n)
{
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    size_t e = i;
    while (e < n && t[e] != '\n')
      e++;
    size_t j = i;
    while (j < e && (t[j] == ' ' || t[j] == '\t'))
      j++;
    int loc = e - j > 4 && !strncmp(t + j, ".loc", 4) && (t[j + 4] == ' ' || t[j + 4] == '\t');
    if (!loc) {
      memmove(t + o, t + i, e - i + (e < n));
      o += e - i + (e < n);
    }
    i = e + (e < n);
  }
  t[o] = 0;
  return o;
}

/* a context with the module; with_sass: its marks cleared and the SASS
 * applied, else PTX rules */
static void load(int with_sass, smemu_ctx **ctx, smemu_module **mod)
{
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  assert_int_equal(smemu_create(&opt, ctx), SMEMU_OK);
  size_t n;
  char *ptx = slurp("cases.ptx", &n);
  if (noline)
    n = strip_loc(ptx, n);
  assert_int_equal(smemu_module_load_data(*ctx, ptx, n, "cases.ptx", mod), SMEMU_OK);
  free(ptx);
  if (!with_sass)
    return;
  for (int i = 0; i < (*mod)->nkernels; i++) {
    program *P = (*mod)->kernels[i].prog;
    for (uint32_t pc = 0; P && pc < P->ncode; pc++) {
      P->code[pc].merge = 0;
      P->code[pc].atom_form = 0;
    }
  }
  char *text = slurp(noline ? "cases.noli.nvdisasm" : "cases.nvdisasm", &n);
  assert_int_equal(smemu_module_use_sass(*mod, text, n), SMEMU_OK);
  free(text);
}

static smemu_ctx *ctx;
static smemu_module *mod;

static int setup(void **state)
{
  (void)state;
  load(1, &ctx, &mod);
  return 0;
}

static int setup_noline(void **state)
{
  noline = 1;
  return setup(state);
}

static int teardown(void **state)
{
  (void)state;
  smemu_destroy(ctx);
  return 0;
}

static smemu_kernel *kern(smemu_module *m, const char *name)
{
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(m, name, &k), SMEMU_OK);
  return k;
}

/* The kernel's mapping: present, nothing fell back. */
static const program *mapped(const char *name)
{
  smemu_kernel *k = kern(mod, name);
  assert_non_null(k->sass);
  if (k->sass->fallback)
    fail_msg("%s: %d accesses fell back to PTX rules", name, k->sass->fallback);
  return k->prog;
}

/* The merge marks of the kernel's shared loads (0) or stores (1) in pc
 * order: "4FFF" (F: follows its group's first, 1: alone). */
static void marks(const char *name, int stores, char *out)
{
  const program *P = mapped(name);
  int n = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++) {
    const insn *in = &P->code[pc];
    uint32_t f = op_flags[in->op];
    if (!(f & OPF_MEM) || (f & OPF_ATOMIC) || in->space != PTX_SPACE_SHARED || in->op == OP_LDMATRIX ||
        in->op == OP_STMATRIX || !!(f & OPF_WRITE) != stores)
      continue;
    out[n++] = in->merge == MERGE_FOLLOW ? 'F' : in->merge ? (char)('0' + in->merge) : '1';
  }
  out[n] = 0;
}

/* The SASS names the kernel's shared and generic accesses of opcode op
 * map to, joined ("-": none). */
static void ops_of(const char *name, int op, char *out, size_t cap)
{
  smemu_kernel *k = kern(mod, name);
  const program *P = mapped(name);
  out[0] = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++) {
    if (P->code[pc].op != op ||
        (P->code[pc].space != PTX_SPACE_SHARED && P->code[pc].space != PTX_SPACE_GENERIC))
      continue;
    const char *s = sass_op_of(k->sass, pc);
    size_t l = strlen(out);
    snprintf(out + l, cap - l, "%s%s", l ? " " : "", s ? s : "-");
  }
}

static int form(const char *name)
{
  const program *P = mapped(name);
  int f = -1;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++)
    if ((op_flags[P->code[pc].op] & OPF_ATOMIC) && P->code[pc].space == PTX_SPACE_SHARED) {
      assert_int_equal(f, -1); /* one shared atomic per kernel */
      f = P->code[pc].atom_form;
    }
  return f;
}

/* one block of 32 threads; buffers of 1 KB each: in (filled), out,
 * scratch; returns the bank counts */
static smemu_bank_counts run1(smemu_ctx *c, smemu_module *m, const char *name, int use_shared)
{
  uint32_t *in = NULL, *out = NULL, *scratch = NULL, host[256];
  for (int i = 0; i < 256; i++)
    host[i] = 3u * (uint32_t)i + 1u;
  assert_int_equal(smemu_malloc(c, (void **)&in, 1024), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&out, 1024), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&scratch, 1024), SMEMU_OK);
  assert_int_equal(smemu_memcpy(c, in, host, sizeof host), SMEMU_OK);
  void *args[4] = {&in, &out, &scratch, &use_shared};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  assert_int_equal(smemu_launch(c, kern(m, name), g, b, 0, args), SMEMU_OK);
  smemu_bank_counts bc;
  assert_int_equal(smemu_last_bank_counts(c, &bc), SMEMU_OK);
  smemu_free(c, in);
  smemu_free(c, out);
  smemu_free(c, scratch);
  return bc;
}

/* t[4i..4i+3] read as scalars: one LDS.128 (1 request; 32 lanes x 16
 * bytes = 4 wavefronts of 128 bytes); the four STS stay apart. */
static void test_merged_scalars(void **state)
{
  (void)state;
  char m[64];
  marks("merged_scalars", 0, m);
  assert_string_equal(m, "4FFF");
  marks("merged_scalars", 1, m);
  assert_string_equal(m, "1111");
  smemu_bank_counts bc = run1(ctx, mod, "merged_scalars", 0);
  assert_int_equal(bc.requests[0], 1);
  assert_int_equal(bc.wavefronts[0], 4);
  assert_int_equal(bc.conflicts[0], 0);
  assert_int_equal(bc.requests[1], 4);
}

/* a..f stored on six lines by thread 0: STS.128 + STS.64 (lines 28 and
 * 30: the stores of neighbouring lines are pooled); read by every thread:
 * LDS.128 + LDS.64: 2 requests */
static void test_merged_neighbours(void **state)
{
  (void)state;
  char m[64];
  marks("merged_neighbours", 1, m);
  assert_string_equal(m, "4FFF2F");
  /* (nvcc orders the six loads as it likes: one group of 4, one of 2) */
  marks("merged_neighbours", 0, m);
  assert_int_equal((int)strlen(m), 6);
  int c4 = 0, c2 = 0, cf = 0;
  for (int i = 0; m[i]; i++)
    c4 += m[i] == '4', c2 += m[i] == '2', cf += m[i] == 'F';
  assert_int_equal(c4, 1);
  assert_int_equal(c2, 1);
  assert_int_equal(cf, 4);
  smemu_bank_counts bc = run1(ctx, mod, "merged_neighbours", 0);
  assert_int_equal(bc.requests[1], 2);
  assert_int_equal(bc.requests[0], 2);
}

static void test_atomics(void **state)
{
  (void)state;
  assert_int_equal(form("agg_atomic"), ATOMSEL_AGG_ONE);
  assert_int_equal(form("popc_inc"), ATOMSEL_POPC_INC);
  assert_int_equal(form("cas_loop"), ATOMSEL_CAS_LOOP);
  /* one lane adds the warp's sum: one request, one wavefront */
  smemu_bank_counts bc = run1(ctx, mod, "agg_atomic", 0);
  assert_int_equal(bc.requests[2], 1);
  assert_int_equal(bc.wavefronts[2], 1);
  /* POPC.INC: one request */
  bc = run1(ctx, mod, "popc_inc", 0);
  assert_int_equal(bc.requests[2], 1);
  char ops[128];
  ops_of("cas_loop", OP_ATOM, ops, sizeof ops);
  assert_string_equal(ops, "ATOMS.CAST.SPIN.64 loop");
}

/* ldmatrix .x4, .x2.trans and stmatrix .x4 map one to one onto LDSM/STSM */
static void test_ldmatrix(void **state)
{
  (void)state;
  char ops[128];
  ops_of("ldmatrix_x4", OP_LDMATRIX, ops, sizeof ops);
  assert_string_equal(ops, "LDSM.16.M88.4 LDSM.16.MT88.2");
  ops_of("ldmatrix_x4", OP_STMATRIX, ops, sizeof ops);
  assert_string_equal(ops, "STSM.16.M88.4");
  /* a PTX ldmatrix whose line's SASS has no LDSM of its size falls back
   * (a case of line info) */
  if (noline)
    return;
  smemu_kernel *k = kern(mod, "ldmatrix_x4");
  const program *P = k->prog;
  uint32_t line = 0, file = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end && !line; pc++)
    if (P->code[pc].op == OP_LDMATRIX && P->code[pc].vec == 4) {
      line = P->lines[pc].line;
      file = P->lines[pc].file;
    }
  assert_true(line > 0);
  char text[512];
  snprintf(text, sizeof text,
           ".text.ldmatrix_x4:\n\t//## File \"%s\", line %u\n        /*0100*/   LDSM.16.M88.2 R4, [R8] ;\n",
           P->files[file], line);
  smemu_ctx *c2;
  smemu_module *m2;
  load(0, &c2, &m2);
  assert_int_equal(smemu_module_use_sass(m2, text, strlen(text)), SMEMU_OK);
  smemu_kernel *k2 = kern(m2, "ldmatrix_x4");
  assert_non_null(k2->sass);
  int fb = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++)
    if (k2->prog->code[pc].op == OP_LDMATRIX && k2->prog->code[pc].vec == 4)
      fb += k2->sass->status[pc] == SASS_MAP_FALLBACK;
  assert_int_equal(fb, 1);
  smemu_destroy(c2);
}

/* generic ld/st/atom map onto LD.E/ST.E/ATOM.E; the accesses reach shared
 * memory when the kernel is told to use it */
static void test_generic(void **state)
{
  (void)state;
  char ops[256];
  ops_of("generic_select", OP_ST, ops, sizeof ops);
  assert_string_equal(ops, "ST.E ST.E");
  ops_of("generic_select", OP_LD, ops, sizeof ops);
  assert_string_equal(ops, "LD.E LD.E");
  ops_of("generic_select", OP_ATOM, ops, sizeof ops);
  if (!*ops)
    ops_of("generic_select", OP_RED, ops, sizeof ops);
  assert_int_equal(strncmp(ops, "ATOM.E.ADD", 10), 0);
  smemu_kernel *k = kern(mod, "generic_select");
  assert_true(k->sass->agree + k->sass->set >= 5);
}

/* ncu counts a generic ATOM as a shared atomic when its lanes reach shared
 * memory and, when they all reach global memory, as one shared-pipe
 * wavefront without an instruction (tests/hw/sass_programs generic_ptr, launches
 * 4 and 5) */
static void test_generic_atom_counts(void **state)
{
  (void)state;
  smemu_bank_counts bc = run1(ctx, mod, "generic_select", 0);
  assert_int_equal(bc.requests[2], 0);
  assert_int_equal(bc.wavefronts[2], 1);
  assert_int_equal(bc.conflicts[2], 0);
  assert_int_equal(bc.requests[0] + bc.requests[1], 0);
  bc = run1(ctx, mod, "generic_select", 1);
  assert_int_equal(bc.requests[2], 1);
  assert_int_equal(bc.requests[1], 2); /* ST.E x2 */
  assert_int_equal(bc.requests[0], 2); /* LD.E x2 */
  /* with PTX rules the global case counts nothing */
  smemu_ctx *c2;
  smemu_module *m2;
  load(0, &c2, &m2);
  bc = run1(c2, m2, "generic_select", 0);
  assert_int_equal(bc.wavefronts[2], 0);
  smemu_destroy(c2);
}

/* a __noinline__ callee's atomic (the PTX's .func, inlined by ptxas) maps
 * onto the kernel's ATOMS: plain, one lane per unit: 32 lanes on 4 words
 * of 4 banks, 8 lanes a word: 8 wavefronts (atomics do not merge lanes
 * on one word, banks.c R7) */
static void test_func_atomic(void **state)
{
  (void)state;
  const program *P = mapped("func_atomic");
  int n = 0;
  for (uint32_t pc = 0; pc < P->ncode; pc++)
    if ((op_flags[P->code[pc].op] & OPF_ATOMIC) && P->code[pc].space == PTX_SPACE_SHARED) {
      assert_int_equal(P->code[pc].atom_form, ATOMSEL_PLAIN);
      n++;
    }
  assert_int_equal(n, 1);
  smemu_bank_counts bc = run1(ctx, mod, "func_atomic", 0);
  assert_int_equal(bc.requests[2], 1);
  assert_int_equal(bc.wavefronts[2], 8);
  assert_int_equal(bc.conflicts[2], 7);
}

/* x, y, z of a 16-byte struct: one LDS.128 (1 request; lanes read
 * consecutive 16-byte structs: 4 wavefronts) */
static void test_struct_xyz(void **state)
{
  (void)state;
  char m[64];
  marks("struct_xyz", 0, m);
  assert_int_equal((int)strlen(m), 3);
  int c4 = 0, cf = 0;
  for (int i = 0; m[i]; i++)
    c4 += m[i] == '4', cf += m[i] == 'F';
  assert_int_equal(c4, 1);
  assert_int_equal(cf, 2);
  smemu_bank_counts bc = run1(ctx, mod, "struct_xyz", 0);
  assert_int_equal(bc.requests[0], 1);
  assert_int_equal(bc.wavefronts[0], 4);
}

/* unrolled_sum: lane l sums c = in[l] % 64 words of its row (in[l] = 3l +
 * 1, run1's data); ptxas runs the 4-load body (2 LDS.64) in sections of 4
 * bodies (a loop), 2 (once) and 1 (a loop), then the c % 4 scalar loads.
 * A lane with q = c / 4 bodies takes q / 4 rounds of the first, one of the
 * second if 2 or 3 bodies remain, the rest in the third; the warp runs a
 * section while any lane is in it: 8 max(q / 4) + 4 any(2nd) + 2 max(3rd)
 * + max(c % 4) LDS per warp (the SASS's instruction counts per section;
 * tests/programs hist_used checks the same structure against an H100). */
static void test_unrolled_sections(void **state)
{
  (void)state;
  const program *P = mapped("unrolled_sum");
  assert_int_equal(P->nusects, 1);
  const unroll_sect *x = &P->usects[0];
  assert_int_equal(x->n, 3);
  assert_int_equal(x->m[0], 4);
  assert_int_equal(x->m[1], 2);
  assert_int_equal(x->m[2], 1);
  assert_int_equal(x->loop[0], 1);
  assert_int_equal(x->loop[1], 0);
  assert_int_equal(x->loop[2], 1);
  uint32_t k16 = 0, b8 = 0, n4 = 0, rem = 0, qmax = 0;
  for (uint32_t l = 0; l < 32; l++) {
    uint32_t c = (3 * l + 1) % 19, q = c / 4, left = q % 4;
    k16 = q / 4 > k16 ? q / 4 : k16;
    b8 |= left >= 2;
    left -= left >= 2 ? 2 : 0;
    n4 = left > n4 ? left : n4;
    rem = c % 4 > rem ? c % 4 : rem;
    qmax = q > qmax ? q : qmax;
  }
  uint64_t want = 8 * k16 + 4 * b8 + 2 * n4 + rem;
  smemu_bank_counts bc = run1(ctx, mod, "unrolled_sum", 0);
  assert_int_equal(bc.requests[0], want);
  /* in the PTX's order the body runs max(q) times: 2 LDS.64 each */
  assert_true(want != 2 * qmax + rem);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_merged_scalars),
    cmocka_unit_test(test_merged_neighbours),
    cmocka_unit_test(test_atomics),
    cmocka_unit_test(test_ldmatrix),
    cmocka_unit_test(test_generic),
    cmocka_unit_test(test_generic_atom_counts),
    cmocka_unit_test(test_func_atomic),
    cmocka_unit_test(test_struct_xyz),
    cmocka_unit_test(test_unrolled_sections),
  };
  int rc = cmocka_run_group_tests_name("with line info", tests, setup, teardown);
  return rc | cmocka_run_group_tests_name("without line info", tests, setup_noline, teardown);
}
