/* test_atom_own.c: atom on shared memory (src/exec/atom.c), which runs
 * with plain loads and stores since no other worker thread reaches a
 * block's shared memory: every operation and width, with shared and
 * generic addresses, on one warp (lanes in lane order, as the PTX ISA
 * leaves it open and smemu serves them). Expected values: the same
 * operations applied one lane after the other in C, each lane's old value
 * the slot before its turn; the bytes of a slot above the operation's
 * width (set to 0xA5C3...) must stay as the slot's 8-byte initial store
 * left them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

enum { ADD, FADD, HADD, MIN_S, MAX_U, MIN_U, MAX_S, INC, DEC, CAS, EXCH, AND, OR, XOR };

typedef struct form {
  const char *insn; /* the atom with %o (old), [%a] and its operands */
  int bytes;        /* width */
  int kind;         /* the operation, for the C reference */
  uint64_t init;    /* the slot's first value */
} form;

/* Operands per lane l (the PTX below computes the same):
 * r1 = l * 0x9E3779B1 + 0x01234567, rd1 = r1 * 0x9E3779B97F4A7C15 + 0xF00D,
 * f1 = l * 0.375 (f32 and f64), h1 = l + 1 as f16, r2 = odd l ? 7 : 100 + l
 * (compare), r3 = 101 + l (new value), r4 = 20. */
static uint32_t op_r1(uint32_t l) { return l * 0x9E3779B1u + 0x01234567u; }
static uint64_t op_rd1(uint32_t l) { return (uint64_t)op_r1(l) * 0x9E3779B97F4A7C15ull + 0xF00Dull; }
static uint32_t op_r2(uint32_t l) { return (l & 1) ? 7 : 100 + l; }
static uint32_t op_r3(uint32_t l) { return 101 + l; }

/* The f16 bits of integer n, 1 <= n < 2048 (exact there). */
static uint16_t f16_of_int(uint32_t n) {
  int e = 31 - __builtin_clz(n);
  return (uint16_t)((uint32_t)(e + 15) << 10 | ((n << (10 - e)) & 0x3ff));
}
static uint32_t int_of_f16(uint16_t h) {
  if (!h) return 0;
  int e = (h >> 10) - 15;
  return (0x400u | (h & 0x3ffu)) >> (10 - e);
}

static const form forms[] = {
    {"atom.shared.add.u32 %o32, [%a], %r1", 4, ADD, 5},
    {"atom.shared.add.u64 %o64, [%a], %rd1", 8, ADD, 5},
    {"atom.shared.add.f32 %of, [%a], %f1", 4, FADD, 0x3fc00000}, /* 1.5f */
    {"atom.shared.add.f64 %ofd, [%a], %fd1", 8, FADD, 0x3ff8000000000000ull},
    {"atom.shared.add.noftz.f16 %oh, [%a], %h1", 2, HADD, 0},
    {"atom.shared.min.s32 %o32, [%a], %r1", 4, MIN_S, 0},
    {"atom.shared.max.u32 %o32, [%a], %r1", 4, MAX_U, 0},
    {"atom.shared.min.u64 %o64, [%a], %rd1", 8, MIN_U, ~0ull},
    {"atom.shared.max.s64 %o64, [%a], %rd1", 8, MAX_S, 0},
    {"atom.shared.inc.u32 %o32, [%a], %r4", 4, INC, 0},
    {"atom.shared.dec.u32 %o32, [%a], %r4", 4, DEC, 3},
    {"atom.shared.cas.b32 %o32, [%a], %r2, %r3", 4, CAS, 100},
    {"atom.shared.cas.b64 %o64, [%a], %rd2, %rd3", 8, CAS, 100},
    {"atom.shared.cas.b16 %oh, [%a], %h2, %h3", 2, CAS, 100},
    {"atom.shared.exch.b32 %o32, [%a], %r1", 4, EXCH, 9},
    {"atom.shared.exch.b64 %o64, [%a], %rd1", 8, EXCH, 9},
    {"atom.shared.and.b32 %o32, [%a], %r1", 4, AND, 0xffffffffu},
    {"atom.shared.or.b32 %o32, [%a], %r1", 4, OR, 0},
    {"atom.shared.xor.b64 %o64, [%a], %rd1", 8, XOR, 0x55},
    {"atom.add.u32 %o32, [%g], %r1", 4, ADD, 7}, /* generic address of the slot */
    {"atom.add.s32 %o32, [%g], %r1", 4, ADD, 0xfffffff0u},
    {"atom.shared.add.s32 %o32, [%a], %r1", 4, ADD, 0x80000000u},
};
#define NF (sizeof forms / sizeof forms[0])

static uint64_t width_mask(const form *f) { return f->bytes == 8 ? ~0ull : (1ull << (8 * f->bytes)) - 1; }

/* A slot's first 8 bytes: the form's value, other bytes above its width
 * (which no atom of the form may change) */
static uint64_t slot_init(const form *f) { return f->init | (0xA5C3A5C3A5C3A5C3ull & ~width_mask(f)); }

/* The C reference of form f: lane l's operation on old value o. */
static uint64_t apply(const form *f, uint64_t o, uint32_t l) {
  uint64_t mk = width_mask(f);
  uint64_t b = f->bytes == 8 ? op_rd1(l) : op_r1(l);
  switch (f->kind) {
  case ADD:
    return (o + b) & mk;
  case FADD:
    if (f->bytes == 4) {
      float x, y = (float)l * 0.375f;
      uint32_t u = (uint32_t)o;
      memcpy(&x, &u, 4);
      x += y;
      memcpy(&u, &x, 4);
      return u;
    } else {
      double x, y = (double)l * 0.375;
      memcpy(&x, &o, 8);
      x += y;
      memcpy(&o, &x, 8);
      return o;
    }
  case HADD:
    return f16_of_int(int_of_f16((uint16_t)o) + l + 1);
  case MIN_S:
    return (int32_t)o < (int32_t)b ? o : (uint32_t)b;
  case MAX_U:
    return (uint32_t)o > (uint32_t)b ? o : (uint32_t)b;
  case MIN_U:
    return o < b ? o : b;
  case MAX_S:
    return (int64_t)o > (int64_t)b ? o : b;
  case INC:
    return o >= 20 ? 0 : o + 1;
  case DEC:
    return (o == 0 || o > 20) ? 20 : o - 1;
  case CAS:
    return (o & mk) == (op_r2(l) & mk) ? op_r3(l) & mk : o;
  case EXCH:
    return b & mk;
  case AND:
    return o & b & mk;
  case OR:
    return (o | b) & mk;
  default:
    return (o ^ b) & mk;
  }
}

/* The kernel: lane 0 stores each slot's first value (8 bytes), a barrier,
 * every lane runs each form on its slot and stores its old value to
 * out[form * 32 + lane], a barrier, lane 0 copies the slots to
 * out[NF * 32 + form]. */
static char *kernel_src(void) {
  size_t cap = 1 << 16, n = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  n += (size_t)snprintf(
      s + n, cap - n,
      "%s.visible .entry k(.param .u64 out)\n{\n"
      "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<12>;\n  .reg .pred %%p;\n"
      "  .reg .b32 %%o32;\n  .reg .b64 %%o64;\n  .reg .f32 %%f1, %%of;\n"
      "  .reg .f64 %%fd1, %%ofd;\n  .reg .b16 %%h1, %%h2, %%h3, %%oh;\n  .reg .f32 %%fh;\n"
      "  .shared .align 8 .b8 sl[%u];\n"
      "  mov.u32 %%r0, %%tid.x;\n"
      "  mad.lo.u32 %%r1, %%r0, 0x9E3779B1, 0x01234567;\n"
      "  cvt.u64.u32 %%rd0, %%r1;\n"
      "  mul.lo.u64 %%rd1, %%rd0, 0x9E3779B97F4A7C15;\n  add.u64 %%rd1, %%rd1, 0xF00D;\n"
      "  and.b32 %%r5, %%r0, 1;\n  setp.ne.u32 %%p, %%r5, 0;\n"
      "  add.u32 %%r2, %%r0, 100;\n  selp.u32 %%r2, 7, %%r2, %%p;\n"
      "  add.u32 %%r3, %%r0, 101;\n  mov.u32 %%r4, 20;\n"
      "  cvt.u64.u32 %%rd2, %%r2;\n  cvt.u64.u32 %%rd3, %%r3;\n"
      "  cvt.u16.u32 %%h2, %%r2;\n  cvt.u16.u32 %%h3, %%r3;\n"
      "  cvt.rn.f32.u32 %%f1, %%r0;\n  mul.f32 %%f1, %%f1, 0f3EC00000;\n"
      "  cvt.rn.f64.u32 %%fd1, %%r0;\n  mul.f64 %%fd1, %%fd1, 0d3FD8000000000000;\n"
      "  add.u32 %%r6, %%r0, 1;\n  cvt.rn.f32.u32 %%fh, %%r6;\n  cvt.rn.f16.f32 %%h1, %%fh;\n"
      "  ld.param.u64 %%rd4, [out];\n"
      "  mul.wide.u32 %%rd5, %%r0, 8;\n  add.u64 %%rd5, %%rd4, %%rd5;\n" /* out + 8 * lane */
      "  setp.ne.u32 %%p, %%r0, 0;\n"
      "  mov.u64 %%rd6, sl;\n",
      PTX_HEAD, (unsigned)(8 * NF));
  for (size_t k = 0; k < NF; k++)
    n += (size_t)snprintf(s + n, cap - n, "  @!%%p st.shared.b64 [sl+%zu], %llu;\n", 8 * k,
                          (unsigned long long)slot_init(&forms[k]));
  n += (size_t)snprintf(s + n, cap - n, "  bar.sync 0;\n");
  static const char *const st[] = {"", "", "st.global.b16 [%rd7], %oh", "", "st.global.b32 [%rd7], %o32", "",
                                   "", "", "st.global.b64 [%rd7], %o64"};
  for (size_t k = 0; k < NF; k++) {
    const form *f = &forms[k];
    char insn[160];
    const char *a = strstr(f->insn, "%a") ? "%a" : "%g";
    /* [%a] -> [%rd8] (the slot's shared address), [%g] -> [%rd9] (its generic one) */
    snprintf(insn, sizeof insn, "%.*s%s%s", (int)(strstr(f->insn, a) - f->insn), f->insn,
             a[1] == 'a' ? "%rd8" : "%rd9", strstr(f->insn, a) + 2);
    const char *store = st[f->bytes];
    char fix[96] = "";
    /* float olds go out as their bits */
    if (strstr(f->insn, "%of,")) snprintf(fix, sizeof fix, "  mov.b32 %%o32, %%of;\n"), store = st[4];
    if (strstr(f->insn, "%ofd,")) snprintf(fix, sizeof fix, "  mov.b64 %%o64, %%ofd;\n"), store = st[8];
    n += (size_t)snprintf(s + n, cap - n,
                          "  add.u64 %%rd8, %%rd6, %zu;\n  cvta.shared.u64 %%rd9, %%rd8;\n  %s;\n%s"
                          "  add.u64 %%rd7, %%rd5, %zu;\n  %s;\n",
                          8 * k, insn, fix, (size_t)(8 * 32 * k), store);
  }
  n += (size_t)snprintf(s + n, cap - n, "  bar.sync 0;\n  @%%p bra DONE;\n");
  for (size_t k = 0; k < NF; k++)
    n += (size_t)snprintf(s + n, cap - n,
                          "  ld.shared.b64 %%rd10, [sl+%zu];\n  st.global.b64 [%%rd4+%zu], %%rd10;\n", 8 * k,
                          8 * (32 * NF + k));
  snprintf(s + n, cap - n, "DONE:\n  ret;\n}\n");
  return s;
}

static void test_shared_atomics(void **state) {
  (void)state;
  char *src = kernel_src();
  assert_non_null(src);
  size_t bytes = 8 * (32 * NF + NF);
  uint64_t *out = dev_alloc(bytes, 0), *host = malloc(bytes);
  assert_non_null(out);
  assert_non_null(host);
  void *args[] = {&out};
  char err[1024] = "";
  int rc = ptxrun(src, "k", 1, 32, 0, args, err, sizeof err);
  if (rc) fail_msg("%s\n%s", err, src);
  assert_int_equal(smemu_memcpy(ptxrun_ctx(), host, out, bytes), SMEMU_OK);
  int bad = 0;
  for (size_t k = 0; k < NF; k++) {
    const form *f = &forms[k];
    uint64_t v = slot_init(f), mk = width_mask(f);
    for (uint32_t l = 0; l < 32; l++) {
      if (host[32 * k + l] != (v & mk) && bad++ < 10)
        print_error("%s: lane %u old 0x%llx, expected 0x%llx\n", f->insn, l,
                    (unsigned long long)host[32 * k + l], (unsigned long long)(v & mk));
      /* the slot's bytes above the width keep the initial store's */
      v = (v & ~mk) | (apply(f, v & mk, l) & mk);
    }
    if (host[32 * NF + k] != v && bad++ < 10)
      print_error("%s: final 0x%llx, expected 0x%llx\n", f->insn, (unsigned long long)host[32 * NF + k],
                  (unsigned long long)v);
  }
  assert_int_equal(bad, 0);
  free(host);
  dev_free(out);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_shared_atomics)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
