/* test_static_rt.c: what NVIDIA's static CUDA runtime needs of smemu's
 * driver library, against the H200 recording of tests/hw/static_rt (the
 * static runtime in front of the real driver, driver 580.159.04):
 * cuGetProcAddress's answers (the empty symbol, versioned names), the
 * export tables the runtime asks for with their size words, the integrity
 * handshake's fixed answers, the context-local storage, the 111 device
 * attributes the runtime reads at start-up; and MD2 (the handshake's hash)
 * against RFC 1319's test vectors. Opens build/runtime/libcudart.so.13
 * like test_runtime_api.c. Whole static programs run in
 * tests/hw/static_rt/test.sh and tests/programs/test.sh. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../runtime/test_util.h"
/* MD2 and the handshake: the runtime's own code, compiled in */
#include "../../runtime/driver/integrity.c"

static void *lib;
static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) fail_msg("libcudart.so.13 does not export %s", name);
  return p;
}

typedef int (*proc_t)(const char *, void **, int, unsigned long long, int *);
typedef int (*table_t)(const void **, const unsigned char *);

static void hex(const unsigned char *d, char *out) {
  for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* RFC 1319, appendix A.5 */
static void test_md2_vectors(void **state) {
  (void)state;
  static const char *const in[] = {
      "",
      "a",
      "abc",
      "message digest",
      "abcdefghijklmnopqrstuvwxyz",
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890"};
  static const char *const want[] = {"8350e5a3e24c153df2275c9f80692773", "32ec01ec4a6dac72c0ab96fb34c0b5d1",
                                     "da853b0d3f88d99b30283a69e6ded6bb", "ab4f496bfb2a530b219ff33031fe06b0",
                                     "4e8ddff3650292ab5a4108c3aa47940b", "d5976f79d83d3a0dc9806c3c66f3efd8"};
  for (int i = 0; i < 6; i++) {
    unsigned char d[16];
    char h[33];
    static_rt_md2(in[i], strlen(in[i]), d);
    hex(d, h);
    assert_string_equal(h, want[i]);
  }
}

/* The empty symbol is the runtime's first question: success, no function. */
static void test_proc_address(void **state) {
  (void)state;
  proc_t get = (proc_t)sym("cuGetProcAddress_v2");
  void *fn = (void *)1;
  int st = -1;
  assert_int_equal(get("", &fn, 0, 0, NULL), 0);
  assert_null(fn);
  /* the runtime asks for cuCtxCreate at 3020 (the _v2 signature), for
   * cuGetProcAddress at 12000 (_v2) and at 11030 (the plain one) */
  assert_int_equal(get("cuCtxCreate", &fn, 3020, 0, &st), 0);
  assert_ptr_equal(fn, sym("cuCtxCreate_v2"));
  assert_int_equal(st, 0);
  assert_int_equal(get("cuCtxCreate", &fn, 13000, 0, &st), 0);
  assert_ptr_equal(fn, sym("cuCtxCreate_v4"));
  assert_int_equal(get("cuGetProcAddress", &fn, 12000, 0, &st), 0);
  assert_ptr_equal(fn, sym("cuGetProcAddress_v2"));
  assert_int_equal(get("cuGetProcAddress", &fn, 11030, 0, &st), 0);
  assert_ptr_equal(fn, sym("cuGetProcAddress"));
  /* a name changed only in behaviour: the newest serves old callers */
  assert_int_equal(get("cuDevicePrimaryCtxRelease", &fn, 7000, 0, &st), 0);
  assert_ptr_equal(fn, sym("cuDevicePrimaryCtxRelease_v2"));
  /* per-thread-stream flag: the same function */
  assert_int_equal(get("cuMemcpyAsync", &fn, 4000, 2, &st), 0);
  assert_ptr_equal(fn, sym("cuMemcpyAsync"));
  assert_int_equal(get("cuNoSuchFunction", &fn, 13000, 0, &st), 500);
  assert_null(fn);
  assert_int_equal(st, 1); /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
  assert_int_equal(get(NULL, &fn, 13000, 0, &st), 1);
}

static const unsigned char uuid_cudart[16] = {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                              0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9};
static const unsigned char uuid_cls[16] = {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                                           0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93};
static const unsigned char uuid_integrity[16] = {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                                                 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2};

/* Every table the runtime asked for, with the H200's size word. */
static void test_export_tables(void **state) {
  (void)state;
  table_t get = (table_t)sym("cuGetExportTable");
  static const struct {
    unsigned char id[16];
    uintptr_t size;
  } want[] = {
      {{0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9},
       0x18},
      {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
       0x68},
      {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
       0x38},
      {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
       0x18},
      {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
       0x78},
      {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
       0x18},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const void *t = NULL;
    assert_int_equal(get(&t, want[i].id), 0);
    assert_non_null(t);
    assert_int_equal(((const uintptr_t *)t)[0], want[i].size);
    /* every slot after the size word is a function or empty (the driver's
     * {6bd5fb6c} table has an empty slot 10 too) */
    for (uintptr_t s = 1; s < want[i].size / sizeof(void *); s++)
      if (!(i == 1 && s == 10)) assert_non_null(((void *const *)t)[s]);
  }
  /* context-local storage: no size word, three functions */
  const void *cls = NULL;
  assert_int_equal(get(&cls, uuid_cls), 0);
  for (int s = 0; s < 3; s++) assert_true(((const uintptr_t *)cls)[s] > 4096);
  const void *t = (const void *)1;
  static const unsigned char unknown[16] = {1, 2, 3};
  assert_int_not_equal(get(&t, unknown), 0);
  assert_null(t);
  assert_int_equal(get(NULL, uuid_cls), 1);
}

/* Versions ending in 0 and 1 get fixed answers (the H200's). */
static void test_integrity_constants(void **state) {
  (void)state;
  table_t get = (table_t)sym("cuGetExportTable");
  const void *const *t = NULL;
  assert_int_equal(get((const void **)&t, uuid_integrity), 0);
  int (*check)(uint32_t, uint64_t, uint64_t *) = (int (*)(uint32_t, uint64_t, uint64_t *))t[1];
  uint64_t r[2];
  assert_int_equal(check(13000, 0x6b0a52af, r), 0);
  assert_true(r[0] == 0x3341181c03cb675cull && r[1] == 0x8ed383aa1f4cd1e8ull);
  assert_int_equal(check(13001, 0x6b0a52af, r), 0);
  assert_true(r[0] == 0x1841181c03cb675cull && r[1] == 0x8ed383aa1f4cd1e8ull);
  /* the third depends on the process; it is not a constant */
  uint64_t a[2], b[2];
  assert_int_equal(check(13002, 0x6b0a52af, a), 0);
  assert_int_equal(check(13002, 0x6b0a52b0, b), 0);
  assert_false(a[0] == b[0] && a[1] == b[1]);
}

/* The primary context, and storage keyed by context and key. */
static void test_context_storage(void **state) {
  (void)state;
  table_t get = (table_t)sym("cuGetExportTable");
  int (*init)(unsigned) = (int (*)(unsigned))sym("cuInit");
  assert_int_equal(init(0), 0);
  const void *const *rt = NULL, *const *cls = NULL;
  assert_int_equal(get((const void **)&rt, uuid_cudart), 0);
  assert_int_equal(get((const void **)&cls, uuid_cls), 0);
  void *ctx = NULL, *ctx2 = NULL;
  assert_int_equal(((int (*)(void **, int))rt[2])(&ctx, 0), 0);
  assert_int_equal(((int (*)(void **, int))sym("cuDevicePrimaryCtxRetain"))(&ctx2, 0), 0);
  assert_non_null(ctx);
  assert_ptr_equal(ctx, ctx2);
  int (*put)(void *, void *, void *, void *) = (int (*)(void *, void *, void *, void *))cls[0];
  int (*del)(void *, void *) = (int (*)(void *, void *))cls[1];
  int (*val)(void **, void *, void *) = (int (*)(void **, void *, void *))cls[2];
  int key1, key2;
  void *v = NULL;
  assert_int_not_equal(val(&v, ctx, &key1), 0);
  assert_int_equal(put(ctx, &key1, (void *)0x1234, NULL), 0);
  assert_int_equal(put(ctx, &key2, (void *)0x5678, NULL), 0);
  assert_int_equal(val(&v, ctx, &key1), 0);
  assert_ptr_equal(v, (void *)0x1234);
  /* a NULL context is the current one */
  assert_int_equal(((int (*)(void *))sym("cuCtxSetCurrent"))(ctx), 0);
  assert_int_equal(val(&v, NULL, &key2), 0);
  assert_ptr_equal(v, (void *)0x5678);
  assert_int_equal(del(ctx, &key1), 0);
  assert_int_not_equal(val(&v, ctx, &key1), 0);
  assert_int_equal(del(ctx, &key2), 0);
}

/* The attributes the runtime read at start-up on the H200 (all answered). */
static void test_startup_attributes(void **state) {
  (void)state;
  static const int attrs[] = {1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12,  14,  16,  18,  19,
                              21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  37,
                              38,  39,  40,  41,  42,  43,  45,  46,  47,  48,  49,  50,  51,  52,  53,  54,
                              55,  56,  57,  58,  59,  60,  61,  62,  63,  64,  65,  66,  67,  68,  70,  71,
                              72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,  84,  85,  86,  88,
                              89,  90,  91,  95,  97,  99,  100, 101, 106, 108, 109, 111, 112, 113, 114, 115,
                              116, 117, 118, 119, 120, 121, 125, 129, 130, 131, 133, 134, 139, 140, 143};
  assert_int_equal(sizeof attrs / sizeof attrs[0], 111);
  int (*init)(unsigned) = (int (*)(unsigned))sym("cuInit");
  int (*attr)(int *, int, int) = (int (*)(int *, int, int))sym("cuDeviceGetAttribute");
  assert_int_equal(init(0), 0);
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
    int v = -12345;
    if (attr(&v, attrs[i], 0) != 0) fail_msg("cuDeviceGetAttribute(%d) fails", attrs[i]);
  }
  /* one that only cudaDeviceProp holds, and agrees with it: the H200's 131072 */
  int v = 0;
  assert_int_equal(attr(&v, 21, 0), 0); /* CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH */
  assert_int_equal(v, 131072);
}

static int setup(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot open %s: %s\n", path, dlerror());
    return -1;
  }
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_md2_vectors),     cmocka_unit_test(test_proc_address),
      cmocka_unit_test(test_export_tables),   cmocka_unit_test(test_integrity_constants),
      cmocka_unit_test(test_context_storage), cmocka_unit_test(test_startup_attributes),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
