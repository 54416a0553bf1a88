/* test_sass.c: the SASS parser and the PTX-to-SASS mapping (src/sass),
 * independent of any GPU recording.
 *  - parse: a disassembly fragment in nvdisasm -c -gi form (taken from
 *    tests/hw/model/model.nvdisasm) gives the shared instructions with
 *    widths, ATOMS variants, the outermost ("inlined at") source line and
 *    basic blocks.
 *  - mapping cases: tests/hw/model/model.ptx with every PTX-level mark
 *    cleared, then smemu_module_use_sass() with model.nvdisasm (the
 *    checked-in disassembly of that PTX: ptxas -arch=sm_90 -lineinfo,
 *    nvdisasm -c -gi; regen_sass.sh) must derive, from the SASS alone, the
 *    grouping and forms the disassembly shows: merged scalars of one base,
 *    merged neighbouring __shared__ variables, POPC.INC reductions,
 *    warp-aggregated adds (one lane, scan), CAS loops, and plain ATOMS.
 *  - fallback: SASS whose line has an instruction no PTX access can form
 *    leaves the PTX rules in place and says so (smemu_last_counting). */
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

static const char FRAG[] =
    "\t.section\t.text.k,\"ax\",@progbits\n"
    ".text.k:\n"
    "\t//## File \"a.cu\", line 7\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "        /*0100*/              @!P0 STS.128 [R7], R8 ;\n"
    "        /*0110*/              @!P0 STS.64 [R7+0x10], R12 ;\n"
    "        /*0118*/                   LDS.U16 R3, [R7] ;\n"
    "        /*0120*/              @!P1 BRA `(.L_x_1) ;\n"
    "\t//## File \"/usr/include/x.hpp\", line 112 inlined at \"a.cu\", line 9\n"
    "        /*0130*/                   ATOMS.POPC.INC.32 RZ, [R6+URZ] ;\n"
    ".L_x_1:\n"
    "\t//## File \"a.cu\", line 10\n"
    "        /*0140*/                   LDS.64 R4, [R11] ;\n"
    "        /*0150*/                   ATOMS.CAST.SPIN.64 R6, [R11], R4, R6 ;\n"
    "        /*0160*/                   VOTEU.ANY UR8, UPT, PT ;\n"
    "        /*0170*/                   LDSM.16.M88.4 R8, [R2] ;\n"
    "        /*0180*/                   EXIT ;\n"
    ".text.other:\n"
    "        /*0000*/                   STS [R0], RZ ;\n";

static void test_parse(void **state)
{
  (void)state;
  sass_text S;
  assert_int_equal(sass_parse(FRAG, strlen(FRAG), &S), 0);
  assert_int_equal(S.nfuncs, 2);
  const sass_func *F = sass_find(&S, "k");
  assert_non_null(F);
  assert_int_equal(F->n, 8);
  static const struct { int cls, variant, bytes, block; uint32_t line; } want[] = {
      {SASS_ST, 0, 16, 0, 7}, {SASS_ST, 0, 8, 0, 7}, {SASS_LD, 0, 2, 0, 7},
      {SASS_ATOM, SASS_AT_POPC_INC, 4, 1, 9}, {SASS_LD, 0, 8, 2, 10},
      {SASS_ATOM, SASS_AT_CAST_SPIN, 8, 2, 10}, {SASS_VOTE, 0, 4, 2, 10}, {SASS_LD, 1, 4, 2, 10}};
  for (int i = 0; i < 8; i++) {
    assert_int_equal(F->ins[i].cls, want[i].cls);
    assert_int_equal(F->ins[i].variant, want[i].variant);
    assert_int_equal(F->ins[i].bytes, want[i].bytes);
    assert_int_equal(F->ins[i].block, want[i].block);
    assert_int_equal(F->ins[i].line, want[i].line);
    assert_string_equal(S.files[F->ins[i].file], "a.cu"); /* the outermost file */
  }
  assert_string_equal(F->ins[0].text, "STS.128");
  assert_int_equal(F->ins[3].addr, 0x130);
  assert_non_null(sass_find(&S, "other"));
  assert_null(sass_find(&S, "nope"));
  sass_free(&S);
  /* not SASS at all: no functions, no crash */
  assert_int_equal(sass_parse("hello\n/*zz*/ x\n.text.:\n", 22, &S), 0);
  assert_int_equal(S.nfuncs, 0);
  sass_free(&S);
}

/* Generic-address LD/ST/ATOM/RED are parsed (gen set) with their widths;
 * the global and local forms are not shared-memory instructions. */
static void test_parse_generic(void **state)
{
  (void)state;
  static const char T[] =
      ".text.g:\n"
      "\t//## File \"g.cu\", line 3\n"
      "        /*0000*/                   LD.E.64 R2, desc[UR4][R2.64] ;\n"
      "        /*0010*/                   ST.E.U8 desc[UR4][R4.64], R7 ;\n"
      "        /*0020*/                   ATOM.E.ADD.F64.RN.STRONG.GPU PT, R4, desc[UR4][R2.64], R6 ;\n"
      "        /*0030*/                   RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;\n"
      "        /*0040*/                   ATOM.E.CAS.STRONG.GPU PT, R4, [R2], R4, R5 ;\n"
      "        /*0050*/                   LDG.E.64 R2, desc[UR4][R2.64] ;\n"
      "        /*0060*/                   STL [R1], R2 ;\n"
      "        /*0070*/                   LD.E.128 R4, desc[UR4][R8.64] ;\n"
      "        /*0080*/                   LDS R4, [R8] ;\n";
  sass_text S;
  assert_int_equal(sass_parse(T, strlen(T), &S), 0);
  const sass_func *F = sass_find(&S, "g");
  assert_non_null(F);
  assert_int_equal(F->n, 7);
  static const struct { int cls, gen, bytes, variant; } want[] = {
      {SASS_LD, 1, 8, 0}, {SASS_ST, 1, 1, 0}, {SASS_ATOM, 1, 8, SASS_AT_PLAIN}, {SASS_ATOM, 1, 4, SASS_AT_PLAIN},
      {SASS_ATOM, 1, 4, SASS_AT_CAS}, {SASS_LD, 1, 16, 0}, {SASS_LD, 0, 4, 0}};
  for (int i = 0; i < 7; i++) {
    assert_int_equal(F->ins[i].cls, want[i].cls);
    assert_int_equal(F->ins[i].gen, want[i].gen);
    assert_int_equal(F->ins[i].bytes, want[i].bytes);
    assert_int_equal(F->ins[i].variant, want[i].variant);
    assert_int_equal(F->ins[i].line, 3);
  }
  sass_free(&S);
}

/* Damaged text never crashes the parser: every prefix of the fragment, and
 * seeded byte mutations of it. */
static void test_parse_damaged(void **state)
{
  (void)state;
  size_t n = strlen(FRAG);
  char *buf = malloc(n + 1);
  assert_non_null(buf);
  for (size_t cut = 0; cut <= n; cut++) {
    memcpy(buf, FRAG, cut);
    buf[cut] = 0;
    sass_text S;
    assert_int_equal(sass_parse(buf, cut, &S), 0);
    sass_free(&S);
  }
  uint32_t seed = 12345;
  for (int round = 0; round < 3000; round++) {
    memcpy(buf, FRAG, n + 1);
    for (int k = 0; k < 4; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % n;
      seed = seed * 1103515245u + 12345u;
      static const char pool[] = "\n\"*/.:@ ,;0123456789abcxyzLDSTATOMSPVE[]";
      buf[at] = pool[(seed >> 16) % (sizeof pool - 1)];
    }
    sass_text S;
    assert_int_equal(sass_parse(buf, n, &S), 0);
    for (int f = 0; f < S.nfuncs; f++)
      for (int i = 0; i < S.funcs[f].n; i++)
        assert_true(S.funcs[f].ins[i].file < S.nfiles);
    sass_free(&S);
  }
  free(buf);
}

static char dir[512];

static char *slurp(const char *name, size_t *len)
{
  const char *cand[] = {getenv("SMEMU_MODEL_DIR"), "tests/hw/model", "../tests/hw/model",
                        "../../tests/hw/model"};
  for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
    char p[700];
    if (!cand[i])
      continue;
    snprintf(p, sizeof p, "%s/%s", cand[i], name);
    FILE *f = fopen(p, "rb");
    if (!f)
      continue;
    snprintf(dir, sizeof dir, "%s", cand[i]);
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

static smemu_ctx *ctx;
static smemu_module *mod;

static int setup(void **state)
{
  (void)state;
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  if (smemu_create(&opt, &ctx) != SMEMU_OK)
    return -1;
  size_t n;
  char *ptx = slurp("model.ptx", &n);
  if (smemu_module_load_data(ctx, ptx, n, "model.ptx", &mod) != SMEMU_OK)
    return -1;
  free(ptx);
  for (int i = 0; i < mod->nkernels; i++) {
    program *P = mod->kernels[i].prog;
    for (uint32_t pc = 0; P && pc < P->ncode; pc++) {
      P->code[pc].merge = 0;
      P->code[pc].atom_form = 0;
    }
  }
  char *text = slurp("model.nvdisasm", &n);
  smemu_status st = smemu_module_use_sass(mod, text, n);
  free(text);
  return st == SMEMU_OK ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  smemu_destroy(ctx);
  return 0;
}

static const program *prog(const char *kernel)
{
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(mod, kernel, &k), SMEMU_OK);
  assert_non_null(k->sass);
  assert_int_equal(k->sass->fallback, 0);
  return k->prog;
}

/* The merge marks of the kernel's shared loads (kind 0) or stores (1) in
 * pc order, as a string: "4FFF2F" (F: follows its group's first, 1: alone). */
static void marks(const char *kernel, int stores, char *out)
{
  const program *P = prog(kernel);
  int n = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++) {
    const insn *in = &P->code[pc];
    uint32_t f = op_flags[in->op];
    if (!(f & OPF_MEM) || (f & OPF_ATOMIC) || in->space != PTX_SPACE_SHARED || !!(f & OPF_WRITE) != stores)
      continue;
    out[n++] = in->merge == MERGE_FOLLOW ? 'F' : in->merge ? (char)('0' + in->merge) : '1';
  }
  out[n] = 0;
}

static int form(const char *kernel)
{
  const program *P = prog(kernel);
  int f = -1;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++)
    if ((op_flags[P->code[pc].op] & OPF_ATOMIC) && P->code[pc].space == PTX_SPACE_SHARED) {
      assert_int_equal(f, -1); /* one atomic per kernel */
      f = P->code[pc].atom_form;
    }
  return f;
}

static void test_merged_neighbours(void **state)
{
  (void)state;
  char m[64];
  /* six scalars stored a..f: STS.128 + STS.64 */
  marks("lay_six_u32", 1, m);
  assert_string_equal(m, "4FFF2F");
  /* stored f..a: the lowest address leads each group */
  marks("lay_six_u32_rev", 1, m);
  assert_string_equal(m, "F2FFF4");
  /* loaded in the order b a c d e f: LDS.128 + LDS.64 */
  marks("lay_six_u32", 0, m);
  assert_string_equal(m, "F4FF2F");
  /* three words: STS.64 + STS, but one LDS.128 */
  marks("lay_three_u32", 1, m);
  assert_string_equal(m, "2F1");
  marks("lay_three_u32", 0, m);
  assert_int_equal((int)strlen(m), 3);
  assert_non_null(strchr(m, '4'));
  /* u64 between u32s: nothing merges */
  marks("lay_u64_mid", 1, m);
  assert_string_equal(m, "111");
  /* four u16 stores: STS.64; their loads stay apart */
  marks("lay_u16x4", 1, m);
  assert_string_equal(m, "4FFF");
  marks("lay_u16x4", 0, m);
  assert_string_equal(m, "1111");
  /* an array's tail and the next scalar */
  marks("lay_arr_scalar", 1, m);
  assert_string_equal(m, "4FFF");
}

/* lay_cross_block: `a` loaded by every thread, `b` (and arr[lane]) under a
 * branch on `a`; ptxas loads a and b with one LDS.64 before the branch.
 * PTX rules cannot merge across blocks (3 load requests); the SASS mapping
 * does (2). */
static void test_cross_block(void **state)
{
  (void)state;
  char m[64];
  marks("lay_cross_block", 0, m); /* a, arr[lane], b */
  assert_string_equal(m, "21F");
  /* launched: LDS.64 + LDS (the SASS's) against the three loads a second
   * context without the SASS counts */
  uint32_t tab[160];
  for (int i = 0; i < 160; i++)
    tab[i] = 1000u + (uint32_t)i;
  long req[2];
  for (int pass = 0; pass < 2; pass++) {
    smemu_ctx *c2 = ctx;
    smemu_module *m2 = mod;
    if (pass == 1) {
      smemu_options opt;
      memset(&opt, 0, sizeof opt);
      opt.threads = 1;
      opt.analyses = SMEMU_ANALYZE_BANKS;
      assert_int_equal(smemu_create(&opt, &c2), SMEMU_OK);
      size_t n;
      char *ptx = slurp("model.ptx", &n);
      assert_int_equal(smemu_module_load_data(c2, ptx, n, "model.ptx", &m2), SMEMU_OK);
      free(ptx);
    }
    smemu_kernel *k = NULL;
    assert_int_equal(smemu_module_get_kernel(m2, "lay_cross_block", &k), SMEMU_OK);
    uint32_t *d = NULL;
    assert_int_equal(smemu_malloc(c2, (void **)&d, sizeof tab * 2), SMEMU_OK);
    assert_int_equal(smemu_memcpy(c2, d, tab, sizeof tab), SMEMU_OK);
    uint32_t *o = d + 160;
    void *args[2] = {&d, &o};
    const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    assert_int_equal(smemu_launch(c2, k, g, b, 0, args), SMEMU_OK);
    smemu_bank_counts bc;
    assert_int_equal(smemu_last_bank_counts(c2, &bc), SMEMU_OK);
    req[pass] = (long)bc.requests[0];
    smemu_counting cn;
    assert_int_equal(smemu_last_counting(c2, &cn), SMEMU_OK);
    assert_int_equal(cn.sass, pass == 0);
    smemu_free(c2, d);
    if (pass == 1)
      smemu_destroy(c2);
  }
  assert_int_equal(req[0], 2);
  assert_int_equal(req[1], 3);
}

static void test_atom_forms(void **state)
{
  (void)state;
  assert_int_equal(form("add1_s0"), ATOMSEL_POPC_INC);
  assert_int_equal(form("inc_max_rand64"), ATOMSEL_POPC_INC);
  assert_int_equal(form("add1_used_s0"), ATOMSEL_PLAIN);
  assert_int_equal(form("add2_s0"), ATOMSEL_PLAIN);
  assert_int_equal(form("cnt_used_s0"), ATOMSEL_AGG_ONE);
  assert_int_equal(form("addreg_su_s0"), ATOMSEL_AGG_ONE);
  assert_int_equal(form("or1_su_s0"), ATOMSEL_AGG_ONE);
  assert_int_equal(form("maxreg_used_su_s0"), ATOMSEL_PLAIN);
  assert_int_equal(form("addreg_used_su_s0"), ATOMSEL_AGG_SCAN);
  assert_int_equal(form("fadd_s1"), ATOMSEL_CAS_LOOP);
  assert_int_equal(form("dadd_s0"), ATOMSEL_CAS_LOOP);
  assert_int_equal(form("add64_s1"), ATOMSEL_CAS_LOOP);
  assert_int_equal(form("add64_su_s0"), ATOMSEL_AGG_LOOP);
  assert_int_equal(form("exch64_s0"), ATOMSEL_PLAIN);
  assert_int_equal(form("cas_s0"), ATOMSEL_PLAIN);
}

/* A line whose SASS no PTX grouping explains keeps the PTX rules. */
static void test_fallback(void **state)
{
  (void)state;
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(mod, "lay_two_u32", &k), SMEMU_OK);
  const program *P = k->prog;
  uint32_t line = 0, file = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end && !line; pc++)
    if ((op_flags[P->code[pc].op] & OPF_WRITE) && P->code[pc].space == PTX_SPACE_SHARED) {
      line = P->lines[pc].line;
      file = P->lines[pc].file;
    }
  assert_true(line > 0);
  char text[1024];
  /* two u32 stores cannot form an STS.128 (and the loads' line has no
   * SASS here at all: they fall back too) */
  snprintf(text, sizeof text,
           ".text.lay_two_u32:\n\t//## File \"%s\", line %u\n"
           "        /*0100*/              @!P0 STS.128 [R7], R8 ;\n",
           P->files[file], line);
  assert_int_equal(smemu_module_use_sass(mod, text, strlen(text)), SMEMU_OK);
  assert_non_null(k->sass);
  assert_int_equal(k->sass->fallback, 4);
  uint32_t *d = NULL;
  uint32_t tab[160] = {0};
  assert_int_equal(smemu_malloc(ctx, (void **)&d, sizeof tab * 2), SMEMU_OK);
  assert_int_equal(smemu_memcpy(ctx, d, tab, sizeof tab), SMEMU_OK);
  uint32_t *o = d + 160;
  void *args[2] = {&d, &o};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  assert_int_equal(smemu_launch(ctx, k, g, b, 0, args), SMEMU_OK);
  smemu_counting cn;
  assert_int_equal(smemu_last_counting(ctx, &cn), SMEMU_OK);
  assert_int_equal(cn.sass, 1);
  assert_int_equal(cn.fallback, 4);
  int seen = 0;
  for (int i = 0; i < cn.nlines; i++)
    seen |= cn.lines[i] == line;
  assert_true(seen);
  smemu_free(ctx, d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse),
    cmocka_unit_test(test_parse_generic),
    cmocka_unit_test(test_parse_damaged),
    cmocka_unit_test(test_merged_neighbours),
    cmocka_unit_test(test_cross_block),
    cmocka_unit_test(test_atom_forms),
    cmocka_unit_test(test_fallback),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
