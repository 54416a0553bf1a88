/* test_kernel_name.c: the names a user may give for a kernel
 * (src/api/kernel_name.c), strongest first, and the lookup through
 * smemu_module_get_kernel: unambiguous forms find the kernel, an ambiguous
 * bare name lists the candidates. Demangled strings are c++filt's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "api/kernel_name.h"
#include "smemu.h"

static void test_forms(void **state) {
  (void)state;
  const char *r = "_ZN2ns6reduceILi256EEEvPKfPfi"; /* void ns::reduce<256>(float const*, float*, int) */
  assert_int_equal(kernel_name_match(r, r), 4);
  assert_int_equal(kernel_name_match(r, "void ns::reduce<256>(float const*, float*, int)"), 3);
  assert_int_equal(kernel_name_match(r, "ns::reduce<256>(float const*, float*, int)"), 3);
  assert_int_equal(kernel_name_match(r, "ns::reduce<256>"), 2);
  assert_int_equal(kernel_name_match(r, "reduce"), 1);
  assert_int_equal(kernel_name_match(r, "reduce<256>"), 0); /* qualified means with ns:: */
  assert_int_equal(kernel_name_match(r, "reduce<128>"), 0);
  assert_int_equal(kernel_name_match(r, "ns"), 0);
  assert_int_equal(kernel_name_match(r, ""), 0);
  const char *m = "_Z3mapIiN4util3AddEEvPT_S3_T0_"; /* void map<int, util::Add>(int*, int*, util::Add) */
  assert_int_equal(kernel_name_match(m, "map<int, util::Add>"), 2);
  assert_int_equal(kernel_name_match(m, "map"), 1);
  assert_int_equal(kernel_name_match(m, "Add"), 0);
  /* with no namespace or template the qualified name is the bare one */
  assert_int_equal(kernel_name_match("_Z3dotPKfS0_Pfi", "dot"), 2);
  assert_int_equal(kernel_name_match("_ZN2ns1kEPi", "k"), 1);
  assert_int_equal(kernel_name_match("_Z3dotPKfS0_Pfi", "dot(float const*, float const*, float*, int)"), 3);
  /* extern "C" kernels and names that are not mangled: only the exact name */
  assert_int_equal(kernel_name_match("vecAdd", "vecAdd"), 4);
  assert_int_equal(kernel_name_match("vecAdd", "vec"), 0);
  assert_int_equal(kernel_name_match("_Zbroken", "broken"), 0);
  assert_int_equal(kernel_name_match(NULL, "x"), 0);
}

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z1kPi(.param .u64 p) { ret; }\n"
    ".visible .entry _Z1kPf(.param .u64 p) { ret; }\n"
    ".visible .entry _Z1tILi4EEvPi(.param .u64 p) { ret; }\n"
    ".visible .entry _ZN2ns1kEPi(.param .u64 p) { ret; }\n";

static void test_lookup(void **state) {
  (void)state;
  smemu_ctx *ctx;
  smemu_module *mod;
  smemu_kernel *k;
  assert_int_equal(smemu_create(NULL, &ctx), SMEMU_OK);
  assert_int_equal(smemu_module_load_data(ctx, ptx, sizeof ptx - 1, "names.ptx", &mod), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(mod, "t<4>", &k), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(mod, "t", &k), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(mod, "k(float*)", &k), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(mod, "ns::k", &k), SMEMU_OK);
  /* the exact mangled name wins over bare-name matches */
  assert_int_equal(smemu_module_get_kernel(mod, "_Z1kPi", &k), SMEMU_OK);
  /* `k` names two kernels at global scope (ns::k matches only by its bare
   * name, more weakly, so it is not a candidate) */
  assert_int_equal(smemu_module_get_kernel(mod, "k", &k), SMEMU_ERR_NOT_FOUND);
  const char *e = smemu_errmsg(ctx);
  assert_non_null(strstr(e, "ambiguous"));
  assert_non_null(strstr(e, "_Z1kPi (k(int*))"));
  assert_non_null(strstr(e, "_Z1kPf (k(float*))"));
  assert_null(strstr(e, "_ZN2ns1kEPi"));
  assert_null(strstr(e, "_Z1tILi4EEvPi"));
  assert_int_equal(smemu_module_get_kernel(mod, "nope", &k), SMEMU_ERR_NOT_FOUND);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_forms), cmocka_unit_test(test_lookup)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
