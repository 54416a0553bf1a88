/* forms.c: the table of natively compiled forms (forms.h). Each form is a
 * line of PTX decoded by the interpreter's decoder; its decoded shape is the
 * key a kernel's instruction must match exactly. */
#include "jit/forms.h"

#include "exec/dispatch.h"
#include "model/fpsem.h"
#include "ptx/ptx.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decoded shape of an instruction: every field a handler reads that is
 * not an operand slot. */
typedef struct shape {
  exec_fn fn;
  uint16_t op;
  uint8_t type, type2, mode, flags, space, vec;
  uint32_t c; /* ld/st: element bytes; 0 elsewhere (c is a slot) */
} shape;

typedef struct entry {
  shape k;
  jit_form f;
} entry;

static entry *table;
static size_t ntable;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static shape shape_of(const insn *in, int jop) {
  shape s;
  memset(&s, 0, sizeof s);
  s.fn = in->fn;
  s.op = in->op;
  s.type = in->type;
  s.type2 = in->type2;
  s.mode = in->mode;
  s.flags = in->flags;
  s.space = in->space;
  s.vec = in->vec;
  s.c = (jop == J_LD || jop == J_ST) ? in->c : 0;
  return s;
}

static int same(const shape *a, const shape *b) {
  return a->fn == b->fn && a->op == b->op && a->type == b->type && a->type2 == b->type2 &&
         a->mode == b->mode && a->flags == b->flags && a->space == b->space && a->vec == b->vec &&
         a->c == b->c;
}

/* ---- the list of forms ---- */
typedef struct src_form {
  char text[96];
  jit_form f;
} src_form;

static src_form *forms;
static size_t nforms, capforms;

static void add(int jop, int bits, int sgn, int cmp, int sub, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void add(int jop, int bits, int sgn, int cmp, int sub, const char *fmt, ...) {
  if (nforms == capforms) {
    size_t cap = capforms ? capforms * 2 : 1024;
    src_form *f = realloc(forms, cap * sizeof *f);
    if (!f) return;
    forms = f;
    capforms = cap;
  }
  src_form *s = &forms[nforms++];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->text, sizeof s->text, fmt, ap);
  va_end(ap);
  s->f = (jit_form){(uint16_t)jop, (uint8_t)bits, (uint8_t)sgn, (uint8_t)cmp, (uint8_t)sub};
}

/* Register of an integer width. */
static const char *reg(int bits) { return bits <= 16 ? "%h" : bits == 32 ? "%r" : "%rd"; }

static const char *const itypes[] = {"u16", "s16", "u32", "s32", "u64", "s64"};
static int ibits(int i) { return 16 << (i / 2); }

static void list_forms(void) {
  /* integer binary */
  static const struct {
    const char *name;
    int jop;
  } bin[] = {{"add", J_ADD}, {"sub", J_SUB}, {"mul.lo", J_MULLO},
             {"min", J_MIN}, {"max", J_MAX}, {"mul.hi", J_MULHI}};
  for (size_t o = 0; o < sizeof bin / sizeof *bin; o++)
    for (int i = 0; i < 6; i++) {
      const char *r = reg(ibits(i));
      add(bin[o].jop, ibits(i), i & 1, 0, 0, "%s.%s %s1, %s2, %s3", bin[o].name, itypes[i], r, r, r);
    }
  for (int i = 0; i < 6; i++) {
    const char *r = reg(ibits(i));
    add(J_MADLO, ibits(i), i & 1, 0, 0, "mad.lo.%s %s1, %s2, %s3, %s4", itypes[i], r, r, r, r);
    add(J_MADHI, ibits(i), i & 1, 0, 0, "mad.hi.%s %s1, %s2, %s3, %s4", itypes[i], r, r, r, r);
    if (ibits(i) < 64) {
      const char *w = reg(ibits(i) * 2);
      add(J_MULWIDE, ibits(i), i & 1, 0, 0, "mul.wide.%s %s1, %s2, %s3", itypes[i], w, r, r);
      add(J_MADWIDE, ibits(i), i & 1, 0, 0, "mad.wide.%s %s1, %s2, %s3, %s4", itypes[i], w, r, r, w);
    }
  }
  static const struct {
    const char *name;
    int jop;
  } logic[] = {{"and", J_AND}, {"or", J_OR}, {"xor", J_XOR}};
  for (int b = 16; b <= 64; b *= 2) {
    const char *r = reg(b);
    for (int o = 0; o < 3; o++)
      add(logic[o].jop, b, 0, 0, 0, "%s.b%d %s1, %s2, %s3", logic[o].name, b, r, r, r);
    add(J_NOT, b, 0, 0, 0, "not.b%d %s1, %s2", b, r, r);
    add(J_CNOT, b, 0, 0, 0, "cnot.b%d %s1, %s2", b, r, r);
    add(J_NEG, b, 1, 0, 0, "neg.s%d %s1, %s2", b, r, r);
    add(J_ABS, b, 1, 0, 0, "abs.s%d %s1, %s2", b, r, r);
    add(J_SHL, b, 0, 0, 0, "shl.b%d %s1, %s2, %%r3", b, r, r);
    add(J_SHR, b, 0, 0, 0, "shr.b%d %s1, %s2, %%r3", b, r, r);
    add(J_SHR, b, 0, 0, 0, "shr.u%d %s1, %s2, %%r3", b, r, r);
    add(J_SHR, b, 1, 0, 0, "shr.s%d %s1, %s2, %%r3", b, r, r);
    if (b >= 32) {
      add(J_POPC, b, 0, 0, 0, "popc.b%d %%r1, %s2", b, r);
      add(J_CLZ, b, 0, 0, 0, "clz.b%d %%r1, %s2", b, r);
      add(J_BREV, b, 0, 0, 0, "brev.b%d %s1, %s2", b, r, r);
    }
    static const char *const mt[] = {"b", "u", "s"};
    for (int k = 0; k < 3; k++) {
      add(J_MOV, b, 0, 0, 0, "mov.%s%d %s1, %s2", mt[k], b, r, r);
      add(J_SELP, b, 0, 0, 0, "selp.%s%d %s1, %s2, %s3, %%p1", mt[k], b, r, r, r);
    }
  }
  add(J_MOV, 32, 0, 0, 0, "mov.f32 %%f1, %%f2");
  add(J_MOV, 64, 0, 0, 0, "mov.f64 %%fd1, %%fd2");
  add(J_SELP, 32, 0, 0, 0, "selp.f32 %%f1, %%f2, %%f3, %%p1");
  add(J_SELP, 64, 0, 0, 0, "selp.f64 %%fd1, %%fd2, %%fd3, %%p1");
  add(J_MOVP, 1, 0, 0, 0, "mov.pred %%p1, %%p2");
  add(J_MOVP, 1, 0, 0, 0, "mov.pred %%p1, !%%p2");
  add(J_PAND, 1, 0, 0, 0, "and.pred %%p1, %%p2, %%p3");
  add(J_POR, 1, 0, 0, 0, "or.pred %%p1, %%p2, %%p3");
  add(J_PXOR, 1, 0, 0, 0, "xor.pred %%p1, %%p2, %%p3");
  add(J_PNOT, 1, 0, 0, 0, "not.pred %%p1, %%p2");

  /* setp: integer and float comparisons, alone or combined with a predicate */
  static const char *const bops[] = {"", ".and", ".or", ".xor"};
  static const struct {
    const char *name;
    int cmp, uns;
  } icmp[] = {{"eq", JC_EQ, 0}, {"ne", JC_NE, 0}, {"lt", JC_LT, 0}, {"le", JC_LE, 0}, {"gt", JC_GT, 0},
              {"ge", JC_GE, 0}, {"lo", JC_LT, 1}, {"ls", JC_LE, 1}, {"hi", JC_GT, 1}, {"hs", JC_GE, 1}};
  static const char *const ctypes[] = {"u16", "s16", "u32", "s32", "u64", "s64", "b16", "b32", "b64"};
  for (int c = 0; c < 10; c++)
    for (int i = 0; i < 9; i++) {
      int bits = i < 6 ? ibits(i) : 16 << (i - 6), sgn = i < 6 && (i & 1) && !icmp[c].uns;
      const char *r = reg(bits);
      if (i >= 6 && icmp[c].cmp > JC_NE) continue;
      add(J_SETP, bits, sgn, icmp[c].cmp, 0, "setp.%s.%s %%p1|%%p2, %s3, %s4", icmp[c].name, ctypes[i], r, r);
      for (int b = 1; b < 4; b++) {
        add(J_SETP, bits, sgn, icmp[c].cmp, 0, "setp.%s%s.%s %%p1|%%p2, %s3, %s4, %%p3", icmp[c].name,
            bops[b], ctypes[i], r, r);
        add(J_SETP, bits, sgn, icmp[c].cmp, 0, "setp.%s%s.%s %%p1|%%p2, %s3, %s4, !%%p3", icmp[c].name,
            bops[b], ctypes[i], r, r);
      }
    }
  static const char *const fcmp[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                     "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (int c = 0; c < 14; c++)
    for (int t = 0; t < 3; t++) {
      const char *ty = t == 2 ? "f64" : "f32", *r = t == 2 ? "%fd" : "%f", *ftz = t == 1 ? ".ftz" : "";
      int bits = t == 2 ? 64 : 32;
      add(J_FSETP, bits, 0, c, 0, "setp.%s%s.%s %%p1|%%p2, %s3, %s4", fcmp[c], ftz, ty, r, r);
      for (int b = 1; b < 4; b++) {
        add(J_FSETP, bits, 0, c, 0, "setp.%s%s%s.%s %%p1|%%p2, %s3, %s4, %%p3", fcmp[c], bops[b], ftz, ty, r,
            r);
        add(J_FSETP, bits, 0, c, 0, "setp.%s%s%s.%s %%p1|%%p2, %s3, %s4, !%%p3", fcmp[c], bops[b], ftz, ty, r,
            r);
      }
    }

  /* cvta between generic and global/shared/local addresses */
  static const char *const sp[] = {"global", "shared", "local"};
  for (int s = 0; s < 3; s++) {
    add(J_CVTA, 64, 0, 0, 1, "cvta.to.%s.u64 %%rd1, %%rd2", sp[s]);
    add(J_CVTA, 64, 0, 0, 0, "cvta.%s.u64 %%rd1, %%rd2", sp[s]);
    add(J_CVTA, 32, 0, 0, 1, "cvta.to.%s.u32 %%r1, %%rd2", sp[s]);
  }

  /* cvt: integer <-> integer (with .sat), float <-> integer, f32 <-> f64 */
  static const char *const cvt_i[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"};
  for (int d = 0; d < 8; d++)
    for (int s = 0; s < 8; s++)
      for (int sat = 0; sat < 2; sat++) {
        int db = 8 << (d / 2), sb = 8 << (s / 2);
        add(J_CVT, 0, 0, 0, 0, "cvt%s.%s.%s %s1, %s2", sat ? ".sat" : "", cvt_i[d], cvt_i[s], reg(db),
            reg(sb));
      }
  static const char *const irnd[] = {"rni", "rzi", "rmi", "rpi"};
  for (int i = 2; i < 8; i++) {
    int ib = 8 << (i / 2);
    if (ib < 32) continue;
    add(J_CVT, 0, 0, 0, 0, "cvt.rn.f32.%s %%f1, %s2", cvt_i[i], reg(ib));
    add(J_CVT, 0, 0, 0, 0, "cvt.rn.f64.%s %%fd1, %s2", cvt_i[i], reg(ib));
    for (int m = 0; m < 4; m++) {
      add(J_CVT, 0, 0, 0, 0, "cvt.%s.%s.f32 %s1, %%f2", irnd[m], cvt_i[i], reg(ib));
      add(J_CVT, 0, 0, 0, 0, "cvt.%s.ftz.%s.f32 %s1, %%f2", irnd[m], cvt_i[i], reg(ib));
      add(J_CVT, 0, 0, 0, 0, "cvt.%s.%s.f64 %s1, %%fd2", irnd[m], cvt_i[i], reg(ib));
    }
  }
  add(J_CVT, 0, 0, 0, 0, "cvt.f64.f32 %%fd1, %%f2");
  add(J_CVT, 0, 0, 0, 0, "cvt.ftz.f64.f32 %%fd1, %%f2");
  add(J_CVT, 0, 0, 0, 0, "cvt.rn.f32.f64 %%f1, %%fd2");
  for (int m = 0; m < 4; m++) {
    add(J_CVT, 0, 0, 0, 0, "cvt.%s.f32.f32 %%f1, %%f2", irnd[m]);
    add(J_CVT, 0, 0, 0, 0, "cvt.%s.ftz.f32.f32 %%f1, %%f2", irnd[m]);
    add(J_CVT, 0, 0, 0, 0, "cvt.%s.f64.f64 %%fd1, %%fd2", irnd[m]);
  }

  /* floating point */
  static const char *const mods[] = {"", ".ftz", ".sat", ".ftz.sat"};
  static const struct {
    const char *name;
    int jop, n;
  } fops[] = {{"add", J_FADD, 2},    {"add.rn", J_FADD, 2},     {"sub", J_FSUB, 2},
              {"sub.rn", J_FSUB, 2}, {"mul", J_FMUL, 2},        {"mul.rn", J_FMUL, 2},
              {"fma.rn", J_FFMA, 3}, {"mad.rn", J_FFMA, 3},     {"mad", J_FFMA, 3},
              {"div.rn", J_FDIV, 2}, {"div.full", J_FDIV, 2},   {"div.approx", J_FDIV, 2},
              {"abs", J_FABS, 1},    {"neg", J_FNEG, 1},        {"min", J_FMIN, 2},
              {"max", J_FMAX, 2},    {"sqrt.rn", J_FSQRT, 1},   {"sqrt.approx", J_FSQRT, 1},
              {"rcp.rn", J_FRCP, 1}, {"rcp.approx", J_FRCPA, 1}};
  for (size_t o = 0; o < sizeof fops / sizeof *fops; o++) {
    for (int m = 0; m < 4; m++) {
      if ((fops[o].jop == J_FABS || fops[o].jop == J_FNEG || fops[o].jop == J_FMIN ||
           fops[o].jop == J_FMAX) &&
          (m & 2))
        continue;
      const char *x = fops[o].n == 1   ? "%%f1, %%f2"
                      : fops[o].n == 2 ? "%%f1, %%f2, %%f3"
                                       : "%%f1, %%f2, %%f3, %%f4";
      char fmt[96];
      snprintf(fmt, sizeof fmt, "%%s%%s.f32 %s", x);
      add(fops[o].jop, 32, 0, 0, 0, fmt, fops[o].name, mods[m]);
    }
    if (fops[o].jop == J_FRCPA || !strcmp(fops[o].name, "div.full") || !strcmp(fops[o].name, "div.approx") ||
        !strcmp(fops[o].name, "mad") || !strcmp(fops[o].name, "sqrt.approx"))
      continue;
    const char *x = fops[o].n == 1   ? "%%fd1, %%fd2"
                    : fops[o].n == 2 ? "%%fd1, %%fd2, %%fd3"
                                     : "%%fd1, %%fd2, %%fd3, %%fd4";
    char fmt[96];
    snprintf(fmt, sizeof fmt, "%%s.f64 %s", x);
    add(fops[o].jop, 64, 0, 0, 0, fmt, fops[o].name);
  }

  /* loads and stores: shared, global, local, param and const memory, one,
   * two or four elements of 8 to 64 bits (at most 16 bytes) */
  static const struct {
    const char *name;
    int bits, sgn;
  } lt[] = {{"u8", 8, 0},   {"s8", 8, 1},    {"b8", 8, 0},   {"u16", 16, 0}, {"s16", 16, 1}, {"b16", 16, 0},
            {"f16", 16, 0}, {"bf16", 16, 0}, {"u32", 32, 0}, {"s32", 32, 1}, {"b32", 32, 0}, {"f32", 32, 0},
            {"u64", 64, 0}, {"s64", 64, 1},  {"b64", 64, 0}, {"f64", 64, 0}};
  static const char *const spn[] = {"shared", "global", "local", "param", "const"};
  for (int s = 0; s < JS_COUNT; s++)
    for (size_t i = 0; i < sizeof lt / sizeof *lt; i++)
      for (int v = 1; v <= 4; v *= 2) {
        int bits = lt[i].bits;
        if (bits * v > 128) continue;
        const char *r = reg(bits < 16 ? 16 : bits);
        const char *a = s == JS_SHARED || s == JS_LOCAL ? "%r2" : "%rd2";
        char vs[8] = "", ops[64];
        if (v == 1)
          snprintf(ops, sizeof ops, "%s1", r);
        else if (v == 2)
          snprintf(ops, sizeof ops, "{%s1, %s3}", r, r);
        else
          snprintf(ops, sizeof ops, "{%s1, %s3, %s4, %s5}", r, r, r, r);
        if (v > 1) snprintf(vs, sizeof vs, ".v%d", v);
        add(J_LD, bits, lt[i].sgn, v, s, "ld.%s%s.%s %s, [%s]", spn[s], vs, lt[i].name, ops, a);
        /* a kernel parameter by name */
        if (s == JS_PARAM) add(J_LD, bits, lt[i].sgn, v, s, "ld.param%s.%s %s, [pp+16]", vs, lt[i].name, ops);
        if (s != JS_PARAM && s != JS_CONST)
          add(J_ST, bits, lt[i].sgn, v, s, "st.%s%s.%s [%s], %s", spn[s], vs, lt[i].name, a, ops);
      }
}

static const char *const head = ".version 8.0\n.target sm_90\n.address_size 64\n";
static const char *const regs = "{\n.reg .b16 %h<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<8>;\n"
                                ".reg .f64 %fd<8>;\n.reg .pred %p<8>;\n";

/* Decode forms [i0, i1) as one kernel per `per` forms; record the shapes
 * of those that decode. */
static void decode_range(size_t i0, size_t i1, size_t per) {
  for (size_t k0 = i0; k0 < i1; k0 += per) {
    size_t k1 = k0 + per < i1 ? k0 + per : i1;
    size_t cap = 256 + (k1 - k0) * 100;
    char *text = malloc(cap);
    if (!text) return;
    size_t n =
        (size_t)snprintf(text, cap, "%s.visible .entry f(.param .align 16 .b8 pp[64])\n%s", head, regs);
    uint32_t first = 1;
    for (size_t i = 0; i < n; i++) first += text[i] == '\n';
    for (size_t k = k0; k < k1; k++) n += (size_t)snprintf(text + n, cap - n, "%s;\n", forms[k].text);
    snprintf(text + n, cap - n, "ret;\n}\n");
    ptx_module *m = NULL;
    char err[256];
    program *P = NULL;
    int ok = ptx_parse(text, strlen(text), "<jit forms>", &m, err, sizeof err) == 0;
    if (ok) {
      decode_env env = {0, NULL};
      ok = m->nfuncs == 1 && decode_kernel(m, &m->funcs[0], &env, &P, err, sizeof err) == 0;
    }
    free(text);
    if (!ok) {
      ptx_free(m);
      /* one form the decoder rejects: try them one by one */
      if (per > 1) decode_range(k0, k1, 1);
      continue;
    }
    for (uint32_t pc = 0; pc < P->ncode; pc++) {
      uint32_t line = P->lines[P->code[pc].src].ptx_line;
      if (line < first || line - first >= k1 - k0) continue;
      const src_form *s = &forms[k0 + (line - first)];
      entry *e = &table[ntable++];
      e->k = shape_of(&P->code[pc], s->f.jop);
      e->f = s->f;
    }
    program_free(P);
    ptx_free(m);
  }
}

static void build(void) {
  list_forms();
  table = calloc(nforms + 1, sizeof *table);
  if (!table) return;
  decode_range(0, nforms, 64);
  free(forms);
  forms = NULL;
}

const jit_form *jit_form_of(const insn *in) {
  pthread_once(&once, build);
  for (size_t i = 0; i < ntable; i++) {
    if (table[i].k.fn != in->fn) continue;
    shape s = shape_of(in, table[i].f.jop);
    if (same(&s, &table[i].k)) return &table[i].f;
  }
  return NULL;
}
