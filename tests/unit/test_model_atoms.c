/* test_model_atoms.c: the shared-atomic cases of tests/hw/model fed straight
 * to the model, without the emulator: for every single-warp atomic kernel,
 * cases.tsv (written by gen_corpus.py, independent of smemu) says what the
 * PTX atomic is (op, type, operand, result used, address uniform) and its
 * lanes' addresses; atomsel_form() picks the SASS form and atom_cost()
 * counts it on the sm_90 profile. The atomic and load families must equal
 * what Nsight Compute recorded on an H200 (vectors.tsv) EXACTLY: these are
 * single-warp vectors. The form is also checked against the SASS the
 * recording's binary contains (the `sass` column of vectors.tsv).
 * Kernels in known_differences.txt are reported, not failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

#include "api/internal.h"
#include "model/arch.h"
#include "model/atomcost.h"
#include "model/atomsel.h"
#include "model/banks.h"

static char dir[512];

static FILE *open_in(const char *file)
{
  const char *cand[] = {getenv("SMEMU_MODEL_DIR"), "tests/hw/model", "../tests/hw/model",
                        "../../tests/hw/model"};
  for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
    char p[600];
    if (!cand[i])
      continue;
    snprintf(p, sizeof p, "%s/%s", cand[i], file);
    FILE *f = fopen(p, "r");
    if (f) {
      snprintf(dir, sizeof dir, "%s", cand[i]);
      return f;
    }
  }
  return NULL;
}

/* The recorded line of `kernel`: 9 counters and the SASS list. */
static int recorded(const char *kernel, long v[9], char *sass, size_t sz)
{
  FILE *f = open_in("vectors.tsv");
  if (!f)
    return 0;
  char buf[4096];
  int found = 0;
  size_t kl = strlen(kernel);
  while (!found && fgets(buf, sizeof buf, f)) {
    if (strncmp(buf, kernel, kl) || buf[kl] != '\t')
      continue;
    char *p = buf + kl + 1, *e;
    found = 1;
    for (int i = 0; i < 9; i++) {
      v[i] = strtol(p, &e, 10);
      if (e == p)
        found = 0;
      p = e + (*e == '\t');
    }
    snprintf(sass, sz, "%s", p);
    sass[strcspn(sass, "\n")] = 0;
  }
  fclose(f);
  return found;
}

static int known(const char *kernel)
{
  FILE *f = open_in("known_differences.txt");
  char buf[512], name[128];
  int r = 0;
  while (f && !r && fgets(buf, sizeof buf, f))
    if (buf[0] != '#' && sscanf(buf, "%127s", name) == 1 && !strcmp(name, kernel))
      r = 1;
  if (f)
    fclose(f);
  return r;
}

/* The SASS opcode the form must show in the binary. */
static const char *form_sass(int form, const char *op)
{
  switch (form) {
  case ATOMSEL_POPC_INC: return "ATOMS.POPC.INC.32";
  case ATOMSEL_CAS_LOOP:
  case ATOMSEL_AGG_LOOP: return "ATOMS.CAST.SPIN";
  default: return !strcmp(op, "cas") ? "ATOMS.CAS" : "ATOMS.";
  }
}

static void test_atoms_model(void **state)
{
  (void)state;
  FILE *f = open_in("cases.tsv");
  assert_non_null(f);
  long probe[9];
  char sass[1024];
  if (!recorded("add1_s0", probe, sass, sizeof sass)) {
    fclose(f);
    fprintf(stderr, "test_model_atoms: SKIP: no recording yet (tests/hw/model/vectors.tsv)\n");
    exit(77);
  }
  const arch_profile *a = arch_find("sm_90");
  assert_non_null(a);
  char line[4096];
  int n = 0, ok = 0, bad = 0, kn = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#')
      continue;
    char name[128], op[16], type[16], opd[16], offs[2048];
    int used, uni;
    unsigned mask;
    assert_int_equal(sscanf(line, "%127s %15s %15s %15s %d %d %x %2047s", name, op, type, opd, &used,
                            &uni, &mask, offs), 8);
    uint32_t addr[32];
    char *p = offs, *e;
    for (int l = 0; l < 32; l++) {
      addr[l] = (uint32_t)strtoul(p, &e, 10) + 0x400; /* after the reserved 1 KB */
      assert_true(e != p);
      p = e + (*e == ',');
    }
    long v[9];
    if (!recorded(name, v, sass, sizeof sass))
      continue; /* not recorded */
    n++;
    int imm = strcmp(opd, "reg") != 0;
    int form = atomsel_form(op, type, imm, imm ? strtoll(opd, NULL, 0) : 0, used, uni);
    int bytes = strstr(type, "64") ? 8 : 4;
    bank_result at, ld;
    atom_cost(a, 4, form, strcmp(op, "cas") ? BANK_ATOM : BANK_ATOM_CAS, mask, addr, bytes, NULL, &at, &ld);
    long got[9] = {(long)ld.requests, 0, (long)at.requests, (long)ld.wavefronts, 0,
                   (long)at.wavefronts, (long)(ld.wavefronts - ld.ideal), 0,
                   (long)(at.wavefronts - at.ideal)};
    int sass_ok = strstr(sass, form_sass(form, op)) != NULL;
    if (sass_ok && !memcmp(got, v, sizeof got)) {
      ok++;
      continue;
    }
    int k = known(name);
    k ? kn++ : bad++;
    fprintf(stderr, "test_model_atoms: %s %s (form %d, SASS %s%s):\n"
            "    recorded inst %ld/%ld/%ld wavefronts %ld/%ld/%ld conflicts %ld/%ld/%ld\n"
            "    model    inst %ld/%ld/%ld wavefronts %ld/%ld/%ld conflicts %ld/%ld/%ld\n",
            k ? "KNOWN" : "MISMATCH", name, form, sass, sass_ok ? "" : ", not the form's",
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], got[0], got[1], got[2], got[3],
            got[4], got[5], got[6], got[7], got[8]);
  }
  fclose(f);
  fprintf(stderr, "test_model_atoms: %d of %d recorded atomic kernels equal exactly, %d known"
          " differences, %d mismatches\n", ok, n, kn, bad);
  assert_true(n >= 70);
  assert_int_equal(bad, 0);
}

/* The forms themselves, from the SASS of tests/hw/model/model.cu (CUDA
 * 13.0, sm_90): independent of any recording. */
static void test_forms(void **state)
{
  (void)state;
  assert_int_equal(atomsel_form("add", "u32", 1, 1, 0, 0), ATOMSEL_POPC_INC);
  assert_int_equal(atomsel_form("add", "s32", 1, 1, 0, 1), ATOMSEL_POPC_INC);
  assert_int_equal(atomsel_form("inc", "u32", 1, -1, 0, 0), ATOMSEL_POPC_INC);
  assert_int_equal(atomsel_form("inc", "u32", 1, 100, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 1, 2, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 1, -1, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 0, 0, 0, 1), ATOMSEL_AGG_ONE);
  assert_int_equal(atomsel_form("add", "u32", 0, 0, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 1, 1, 1, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 1, 1, 1, 1), ATOMSEL_AGG_ONE);
  assert_int_equal(atomsel_form("add", "u32", 0, 0, 1, 1), ATOMSEL_AGG_SCAN);
  assert_int_equal(atomsel_form("or", "b32", 1, 1, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("or", "b32", 1, 1, 0, 1), ATOMSEL_AGG_ONE);
  assert_int_equal(atomsel_form("max", "u32", 0, 0, 0, 1), ATOMSEL_AGG_ONE);
  assert_int_equal(atomsel_form("max", "u32", 0, 0, 1, 1), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("exch", "b32", 1, 1, 0, 1), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("add", "u32", 1, 2, 0, 1), ATOMSEL_AGG_ONE);
  assert_int_equal(atomsel_form("inc", "u32", 1, -1, 0, 1), ATOMSEL_POPC_INC);
  assert_int_equal(atomsel_form("add", "u64", 1, 1, 0, 1), ATOMSEL_AGG_LOOP);
  assert_int_equal(atomsel_form("add", "u64", 1, 1, 0, 0), ATOMSEL_CAS_LOOP);
  assert_int_equal(atomsel_form("add", "f32", 1, 0, 0, 0), ATOMSEL_CAS_LOOP);
  assert_int_equal(atomsel_form("add", "f64", 1, 0, 1, 0), ATOMSEL_CAS_LOOP);
  assert_int_equal(atomsel_form("add", "u64", 1, 1, 0, 0), ATOMSEL_CAS_LOOP);
  assert_int_equal(atomsel_form("max", "u64", 0, 0, 0, 0), ATOMSEL_CAS_LOOP);
  assert_int_equal(atomsel_form("exch", "b64", 1, 1, 0, 0), ATOMSEL_PLAIN);
  assert_int_equal(atomsel_form("cas", "b64", 0, 0, 0, 0), ATOMSEL_PLAIN);
  /* a CAS loop of 32 lanes on one word runs 32 times (one lane swaps per
   * pass), one LDS and one CAST.SPIN each, 2 wavefronts per CAST.SPIN of a
   * 4-byte group and no conflicts: arithmetic from the rule in atomcost.c */
  const arch_profile *a = arch_find("sm_90");
  uint32_t addr[32] = {0};
  bank_result at, ld;
  assert_int_equal(atom_cost(a, 4, ATOMSEL_CAS_LOOP, BANK_ATOM, ~0u, addr, 4, NULL, &at, &ld), 64);
  assert_int_equal(ld.requests, 32);
  assert_int_equal(ld.wavefronts, 32);
  assert_int_equal(at.requests, 32);
  assert_int_equal(at.wavefronts, 64);
  assert_int_equal(at.wavefronts - at.ideal, 0);
  /* 8-byte lanes 16 words apart (all in banks 0-1): each half-warp swaps
   * one lane per pass, 16 passes; the LDS.64 of k lanes per half costs k
   * wavefronts a half */
  for (int l = 0; l < 32; l++)
    addr[l] = 128u * (uint32_t)l;
  assert_int_equal(atom_cost(a, 4, ATOMSEL_CAS_LOOP, BANK_ATOM, ~0u, addr, 8, NULL, &at, &ld), 32);
  assert_int_equal(at.wavefronts, 16 * 4);
  assert_int_equal(ld.wavefronts, 2 * (16 * 17 / 2));
  /* older profiles: no forms, the plain count */
  const arch_profile *old = arch_find("sm_50");
  if (old) {
    atom_cost(old, 4, ATOMSEL_POPC_INC, BANK_ATOM, ~0u, addr, 4, NULL, &at, &ld);
    assert_int_equal(at.wavefronts, 32);
  }
}

/* The PTX pass (atomsel_pass through the decoder): result used or not,
 * uniform or not, with a register defined in two blocks counting as
 * non-uniform. */
static const char PTX[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<3>;\n"
    "  .shared .align 4 .b8 s[256];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r3, s;\n"
    "  mov.u32 %r6, %ctaid.x;\n  shl.b32 %r7, %r6, 2;\n  add.s32 %r8, %r3, %r7;\n"
    "  atom.shared.add.u32 %r9, [%r8], 1;\n"            /* used, uniform: AGG_ONE */
    "  red.shared.add.u32 [%r8], 5;\n"                  /* unused, uniform, 5: AGG_ONE */
    "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra L1;\n  mov.u32 %r2, 4;\n  bra.uni L2;\n"
    "L1:\n  mov.u32 %r2, 8;\n"
    "L2:\n  add.s32 %r4, %r3, %r2;\n"
    "  atom.shared.add.u32 %r5, [%r4], 1;\n"            /* used, phi: PLAIN */
    "  red.shared.add.u32 [%r4], 1;\n"                  /* unused +1: POPC_INC */
    "  red.shared.or.b32 [%r4], 1;\n"                   /* unused, phi: PLAIN */
    "  shl.b32 %r10, %r1, 2;\n  add.s32 %r11, %r3, %r10;\n"
    "  atom.shared.add.f32 %r11, [%r11], 0f3F800000;\n" /* float add: CAS_LOOP */
    "  add.s32 %r5, %r5, %r9;\n  st.global.u32 [%rd2], %r5;\n  ret;\n}\n";

static void test_pass(void **state)
{
  (void)state;
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = 1;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  smemu_ctx *ctx = NULL;
  assert_int_equal(smemu_create(&opt, &ctx), SMEMU_OK);
  smemu_module *mod = NULL;
  smemu_status st = smemu_module_load_data(ctx, PTX, strlen(PTX), "atomsel.ptx", &mod);
  if (st != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(ctx));
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(mod, "k", &k), SMEMU_OK);
  const program *P = k->prog;
  int forms[8], n = 0;
  for (uint32_t pc = P->funcs[0].entry; pc < P->funcs[0].end; pc++)
    if ((op_flags[P->code[pc].op] & OPF_ATOMIC) && n < 8)
      forms[n++] = P->code[pc].atom_form;
  assert_int_equal(n, 6);
  assert_int_equal(forms[0], ATOMSEL_AGG_ONE);
  assert_int_equal(forms[1], ATOMSEL_AGG_ONE);
  assert_int_equal(forms[2], ATOMSEL_PLAIN);
  assert_int_equal(forms[3], ATOMSEL_POPC_INC);
  assert_int_equal(forms[4], ATOMSEL_PLAIN);
  assert_int_equal(forms[5], ATOMSEL_CAS_LOOP);
  smemu_destroy(ctx);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_forms),
    cmocka_unit_test(test_pass),
    cmocka_unit_test(test_atoms_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
