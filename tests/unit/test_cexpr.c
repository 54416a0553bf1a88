/* test_cexpr.c: PTX constant expressions and the predefined constant
 * WARP_SZ (nvcc 13 writes `mov.u32 %r5, WARP_SZ;` for warpSize): the values
 * the parser computes, worked out by hand with C's rules on 64-bit signed
 * integers as the PTX ISA specifies, where they may stand (operands,
 * address offsets, symbol offsets, array sizes, .maxntid), and the errors
 * with their line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx/ptx.h"

static ptx_module *parse(const char *s, char *err, size_t errsize) {
  ptx_module *m = NULL;
  size_t len = strlen(s);
  char *copy = malloc(len ? len : 1); /* exact size: ASan sees over-reads */
  assert_non_null(copy);
  memcpy(copy, s, len);
  int rc = ptx_parse(copy, len, "t.ptx", &m, err, errsize);
  free(copy);
  assert_int_equal(rc == 0, m != NULL);
  return m;
}

static ptx_module *parse_ok(const char *s) {
  char err[256];
  ptx_module *m = parse(s, err, sizeof err);
  if (!m) fail_msg("%s", err);
  return m;
}

static void expect_error(const char *s, const char *msg) {
  char err[256];
  ptx_module *m = parse(s, err, sizeof err);
  if (m) {
    ptx_free(m);
    fail_msg("parsed, expected: %s", msg);
  }
  assert_string_equal(err, msg);
}

/* Each line `mov.s64 %rd1, EXPR;` and the value C gives EXPR with WARP_SZ
 * = 32 (the right-hand column is C arithmetic on int64_t). */
static void test_operand_values(void **state) {
  (void)state;
  static const struct { const char *text; int64_t want; } cases[] = {
      {"WARP_SZ", 32},
      {"(WARP_SZ*2-1)", 32 * 2 - 1},
      {"WARP_SZ - 1", 31},
      {"-WARP_SZ", -32},
      {"~WARP_SZ", ~(int64_t)32},
      {"1<<4", 16},
      {"(1 << 40) >> 8", (INT64_C(1) << 40) >> 8},
      {"-16 >> 2", -4},
      {"7/2", 3},
      {"-7/2", -3},
      {"(-7 % 3)", -1},
      {"10 % 3", 1},
      {"2+3*4", 14},
      {"(2+3)*4", 20},
      {"8-2-1", 5},
      {"(1 < 2) + (2 >= 2) + (3 <= 2) + (4 > 5)", 2},
      {"(6 & 3) == 2", 1},
      {"(0x10 | 3) ^ 1", 0x12},
      {"1 != 1", 0},
      {"!0", 1},
      {"!WARP_SZ", 0},
      {"(5 > 3) && (2 < 1) || 1", 1},
      {"(0 ? 5 : 6)", 6},
      {"(WARP_SZ == 32 ? 100 : 200)", 100},
      {"0xFFFFFFFFFFFFFFFF + 2", 1},
      {"-9223372036854775808 / -1", INT64_MIN},
      {"+(4)", 4},
  };
  enum { N = sizeof cases / sizeof *cases };
  char text[4096] = ".entry k {\n";
  for (int i = 0; i < N; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "  mov.s64 %%rd1, %s;\n", cases[i].text);
  strcat(text, "}\n");
  ptx_module *m = parse_ok(text);
  assert_int_equal(m->funcs[0].nbody, N);
  for (int i = 0; i < N; i++) {
    const ptx_operand *o = &m->funcs[0].body[i].ops[1];
    if (o->kind != PTX_OPD_INT || o->ival != cases[i].want)
      fail_msg("%s: kind %d value %lld, expected %lld", cases[i].text, o->kind, (long long)o->ival,
               (long long)cases[i].want);
  }
  ptx_free(m);
}

/* Where else expressions stand: other instructions, address and symbol
 * offsets, array sizes, .maxntid; call keeps its ( ) lists. */
static void test_places(void **state) {
  (void)state;
  ptx_module *m = parse_ok(
      ".shared .align 4 .b32 tile[WARP_SZ][WARP_SZ+1];\n"
      ".entry k .maxntid WARP_SZ*4, 1, 1 {\n"
      "  add.u32 %r1, %r2, WARP_SZ;\n"            /* 0 */
      "  ld.shared.u32 %r1, [%r2+WARP_SZ*4];\n"   /* 1 */
      "  ld.shared.u32 %r1, [%r2-4*2+1];\n"       /* 2 */
      "  ld.shared.u32 %r1, [%r2+-4];\n"          /* 3 */
      "  mov.u64 %rd1, tile+(WARP_SZ+1)*4;\n"     /* 4 */
      "  ld.shared.u32 %r1, [(WARP_SZ*8)];\n"     /* 5 */
      "  call (%r3), f, (%r1);\n"                 /* 6 */
      "  @!%p1 bra $L;\n"                         /* 7 */
      "  setp.ne.u32 %p1, %r1, !%p2;\n"          /* 8: a negated predicate stays one */
      "}\n");
  const ptx_func *f = &m->funcs[0];
  assert_int_equal(f->maxntid[0], 128);
  assert_int_equal(m->vars[0].nelems, 32 * 33);
  const ptx_stmt *b = f->body;
  assert_int_equal(b[0].ops[2].kind, PTX_OPD_INT);
  assert_int_equal(b[0].ops[2].ival, 32);
  assert_int_equal(b[1].ops[1].ival, 128);
  assert_int_equal(b[2].ops[1].ival, -7);
  assert_int_equal(b[3].ops[1].ival, -4);
  assert_int_equal(b[4].ops[1].kind, PTX_OPD_SYM);
  assert_int_equal(b[4].ops[1].ival, 132);
  assert_int_equal(b[5].ops[1].ival, 256);
  assert_int_equal(b[6].ops[0].kind, PTX_OPD_LIST);
  assert_int_equal(b[6].ops[2].kind, PTX_OPD_LIST);
  assert_int_equal(b[8].ops[2].kind, PTX_OPD_REG);
  assert_int_equal(b[8].ops[2].neg, 1);
  ptx_free(m);
}

static void test_errors(void **state) {
  (void)state;
  expect_error(".entry k { mov.u32 %r1, (4 / (2 - 2)); }", "t.ptx:1:28: division by zero in a constant expression");
  expect_error(".entry k { mov.u32 %r1, (1 + 0f3F800000); }",
               "t.ptx:1:30: a floating-point constant in an integer expression");
  expect_error(".entry k { mov.u32 %r1, (1 + ); }",
               "t.ptx:1:30: expected an integer, WARP_SZ or '(' in the constant expression, found ')'");
  expect_error(".entry k { mov.u32 %r1, (1 + 2; }", "t.ptx:1:31: expected ')' in the constant expression, found ';'");
  expect_error(".entry k { mov.u32 %r1, (1 ? 2 ; }", "t.ptx:1:32: expected ':' in the constant expression, found ';'");
  expect_error(".entry k { ld.u32 %r1, [%r2+%r3]; }", "t.ptx:1:29: expected an integer offset, found '%r3'");
  expect_error(".shared .b32 a[1-2];", "t.ptx:1:16: an array size is negative");
  expect_error(".entry k { mov.u32 %, 1; }", "t.ptx:1:20: expected a register name after '%'");
  /* nesting is bounded (64 levels: the 65th "(" at column 26 + 64 is
   * refused), so hostile input cannot overflow the stack */
  char deep[600] = ".entry k { mov.u32 %r1, ";
  for (int i = 0; i < 200; i++) strcat(deep, "(");
  strcat(deep, "1; }");
  expect_error(deep, "t.ptx:1:90: constant expression nested too deeply");
  char neg[600] = ".entry k { mov.u32 %r1, ";
  for (int i = 0; i < 200; i++) strcat(neg, "-");
  strcat(neg, "1; }");
  expect_error(neg, "t.ptx:1:90: constant expression nested too deeply");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_operand_values),
      cmocka_unit_test(test_places),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
