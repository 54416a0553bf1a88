/* test_ptx_link.c: the device link step (src/ptx/link.c) on small relocatable
 * modules written as nvcc -rdc=true writes them: extern functions and
 * variables resolve across modules, private names stay apart, and the
 * errors nvlink gives (undefined, multiple definition, mismatched
 * declaration) name the symbol and the modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ptx/link.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* a.ptx: a kernel calling g() and reading counter, both defined in b.ptx;
 * a private helper h() whose name b.ptx uses too. */
static const char A[] = HEAD ".file 1 \"a.cu\"\n"
                             ".extern .func (.param .b32 r) g (.param .b32 x);\n"
                             ".extern .global .align 4 .u32 counter;\n"
                             ".func (.param .b32 r) h (.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
                             "ld.param.u32 %r1, [x];\nst.param.u32 [r], %r1;\nret;\n}\n"
                             ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
                             ".loc 1 7 3\nld.global.u32 %r1, [counter];\n"
                             "{\n.param .b32 a0;\nst.param.b32 [a0], %r1;\n.param .b32 r0;\n"
                             "call.uni (r0), g, (a0);\nld.param.b32 %r2, [r0];\n}\n"
                             "{\n.param .b32 a1;\nst.param.b32 [a1], %r2;\n.param .b32 r1;\n"
                             "call.uni (r1), h, (a1);\nld.param.b32 %r3, [r1];\n}\nret;\n}\n";

static const char B[] = HEAD ".file 1 \"b.cu\"\n"
                             ".visible .global .align 4 .u32 counter = 5;\n"
                             ".func (.param .b32 r) h (.param .b32 x)\n{\n.reg .b32 %r<2>;\n"
                             "ld.param.u32 %r1, [x];\nst.param.u32 [r], %r1;\nret;\n}\n"
                             ".visible .func (.param .b32 r) g (.param .b32 x)\n{\n.reg .b32 %r<3>;\n"
                             ".loc 1 3 5\nld.param.u32 %r1, [x];\n"
                             "{\n.param .b32 a0;\nst.param.b32 [a0], %r1;\n.param .b32 r0;\n"
                             "call.uni (r0), h, (a0);\nld.param.b32 %r2, [r0];\n}\n"
                             "st.param.u32 [r], %r2;\nret;\n}\n";

static ptx_module *parse(const char *text, const char *name) {
  ptx_module *m = NULL;
  char err[256];
  if (ptx_parse(text, strlen(text), name, &m, err, sizeof err) < 0) fail_msg("%s", err);
  return m;
}

static const ptx_func *func(const ptx_module *m, const char *name, int body) {
  for (int i = 0; i < m->nfuncs; i++)
    if (!strcmp(m->funcs[i].name, name) && m->funcs[i].has_body == body) return &m->funcs[i];
  return NULL;
}

static int count_named(const ptx_module *m, const char *name) {
  int n = 0;
  for (int i = 0; i < m->nfuncs; i++) n += !strcmp(m->funcs[i].name, name);
  for (int i = 0; i < m->nvars; i++) n += !strcmp(m->vars[i].name, name);
  return n;
}

/* The callee symbol of the i-th call in f. */
static const char *callee(const ptx_func *f, int i) {
  for (int s = 0; s < f->nbody; s++)
    if (f->body[s].opcode && !strcmp(f->body[s].opcode, "call") && i-- == 0) return f->body[s].ops[1].name;
  return NULL;
}

/* Links the modules parsed from ta and tb (named a.ptx, b.ptx); the caller
 * frees them with free_all. */
typedef struct pair {
  ptx_module *m[2], *l;
  char err[256];
} pair;

static int link_pair(pair *P, const char *ta, const char *tb, ptx_link_provided provided) {
  P->m[0] = parse(ta, "a.ptx");
  P->m[1] = parse(tb, "b.ptx");
  P->l = NULL;
  return ptx_link(P->m, 2, provided, NULL, &P->l, P->err, sizeof P->err);
}

static void free_all(pair *P) {
  ptx_free(P->l);
  ptx_free(P->m[0]);
  ptx_free(P->m[1]);
}

static void test_resolves(void **st) {
  (void)st;
  pair P;
  assert_int_equal(link_pair(&P, A, B, NULL), 0);
  const ptx_module *l = P.l;
  /* one definition each of g and counter, no declaration left */
  assert_int_equal(count_named(l, "g"), 1);
  assert_non_null(func(l, "g", 1));
  assert_int_equal(count_named(l, "counter"), 1);
  for (int i = 0; i < l->nvars; i++)
    if (!strcmp(l->vars[i].name, "counter")) assert_int_equal(l->vars[i].init[0], 5);
  /* each module's private h is its own: a's kernel calls h$m0, b's g calls h$m1 */
  const ptx_func *k = func(l, "k", 1), *g = func(l, "g", 1);
  assert_string_equal(callee(k, 0), "g");
  assert_string_equal(callee(k, 1), "h$m0");
  assert_string_equal(callee(g, 0), "h$m1");
  assert_non_null(func(l, "h$m0", 1));
  assert_non_null(func(l, "h$m1", 1));
  /* the line tables stay apart: b's file 1 became file 3 (a uses 0..1) */
  assert_int_equal(l->nfiles, 2);
  assert_string_equal(l->files[1].path, "b.cu");
  assert_int_equal(l->files[1].index, 3);
  int found = 0;
  for (int s = 0; s < g->nbody; s++)
    if (g->body[s].loc.line == 3) found = 1, assert_int_equal(g->body[s].loc.file, 3);
  assert_true(found);
  free_all(&P);
}

/* b.ptx defines counter but not g */
static const char NO_G[] = HEAD ".visible .global .u32 counter;\n";

static void test_undefined(void **st) {
  (void)st;
  pair P;
  assert_int_equal(link_pair(&P, A, NO_G, NULL), -1);
  assert_null(P.l);
  assert_string_equal(P.err, "nvlink error: Undefined reference to 'g' in 'a.ptx'");
  free_all(&P);
}

static int provide_g(const char *name, void *user) {
  (void)user;
  return !strcmp(name, "g");
}

static void test_provided(void **st) {
  (void)st;
  pair P;
  assert_int_equal(link_pair(&P, A, NO_G, provide_g), 0);
  /* the declaration of g stays for the executor's built-in */
  assert_non_null(func(P.l, "g", 0));
  free_all(&P);
}

static void test_duplicate(void **st) {
  (void)st;
  static const char C[] = HEAD ".visible .global .align 4 .u32 counter = 1;\n";
  pair P;
  assert_int_equal(link_pair(&P, C, B, NULL), -1);
  assert_string_equal(P.err,
                      "nvlink error: Multiple definition of 'counter' in 'b.ptx', first defined in 'a.ptx'");
  free_all(&P);
}

static void test_weak(void **st) {
  (void)st;
  static const char W[] = HEAD ".weak .global .align 4 .u32 counter = 9;\n";
  pair P;
  assert_int_equal(link_pair(&P, W, B, NULL), 0);
  assert_int_equal(count_named(P.l, "counter"), 1);
  for (int i = 0; i < P.l->nvars; i++)
    if (!strcmp(P.l->vars[i].name, "counter")) assert_int_equal(P.l->vars[i].init[0], 5);
  free_all(&P);
}

static void test_mismatch(void **st) {
  (void)st;
  /* g defined with a 64-bit parameter; a declares it with a 32-bit one */
  static const char C[] = HEAD ".visible .global .align 4 .u32 counter;\n"
                               ".visible .func (.param .b32 r) g (.param .b64 x)\n{\nret;\n}\n";
  pair P;
  assert_int_equal(link_pair(&P, A, C, NULL), -1);
  assert_string_equal(
      P.err, "nvlink error: The declaration of 'g' in 'a.ptx' does not match its definition in 'b.ptx'");
  free_all(&P);
  /* counter declared as u32 in a, defined as an array of 4 u64 in b */
  static const char D[] = HEAD ".visible .global .align 8 .u64 counter[4];\n"
                               ".visible .func (.param .b32 r) g (.param .b32 x)\n{\nret;\n}\n";
  assert_int_equal(link_pair(&P, A, D, NULL), -1);
  assert_string_equal(
      P.err,
      "nvlink error: The declaration of 'counter' in 'a.ptx' does not match its definition in 'b.ptx'");
  free_all(&P);
}

static void test_bad_args(void **st) {
  (void)st;
  ptx_module *l = (ptx_module *)1;
  char err[64];
  assert_int_equal(ptx_link(NULL, 0, NULL, NULL, &l, err, sizeof err), -1);
  assert_null(l);
  assert_string_equal(err, "nvlink error: no modules to link");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resolves),  cmocka_unit_test(test_undefined), cmocka_unit_test(test_provided),
      cmocka_unit_test(test_duplicate), cmocka_unit_test(test_weak),      cmocka_unit_test(test_mismatch),
      cmocka_unit_test(test_bad_args),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
