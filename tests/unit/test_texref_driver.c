/* test_texref_driver.c: module-scope texture references through the
 * driver's legacy calls (runtime/driver/texref.c), as a program reaches
 * them in build/runtime/libcuda.so.1: one handle per name, the state the
 * setters record read back by the getters, a kernel fetching through a
 * .texref bound to linear memory (tex1Dfetch: the elements themselves; an
 * unaligned address bound below with its byte offset), a rebinding seen by
 * the next launch, an unbound reference that faults, and
 * bad arguments refused. (Sampling and surfaces against the GPU:
 * tests/hw/sparse, texref.cu.) */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* (cmocka needs the headers above first) */
#include <cmocka.h>
#include "../runtime/test_util.h"
#include "../runtime/test_driver.h"

static const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                         ".global .texref t;\n.global .texref unbound;\n.global .u32 plain;\n"
                         ".visible .entry k(.param .u64 out, .param .u32 which)\n{\n"
                         "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p;\n"
                         "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r6, [which];\n"
                         "  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p, %r6, 0;\n"
                         "  @%p bra U;\n"
                         "  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [t, {%r1}];\n  bra S;\n"
                         "U:\n  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [unbound, {%r1}];\n"
                         "S:\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
                         "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";

typedef void *TR;
#define LAUNCH(f, params)                                                                                    \
  CU(cuLaunchKernel, void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,   \
     void **, void **)                                                                                       \
  (f, 1, 1, 1, 8, 1, 1, 0, NULL, params, NULL)

static void test_texref(void **state) {
  (void)state;
  assert_non_null(tu_open_driver());
  assert_int_equal(tu_driver_context(), 0);
  void *mod = NULL, *f = NULL;
  assert_int_equal(CU(cuModuleLoadData, void **, const void *)(&mod, ptx), 0);
  assert_int_equal(CU(cuModuleGetFunction, void **, void *, const char *)(&f, mod, "k"), 0);
  TR t = NULL, t2 = NULL, none = NULL;
  assert_int_equal(CU(cuModuleGetTexRef, TR *, void *, const char *)(&t, mod, "t"), 0);
  assert_int_equal(CU(cuModuleGetTexRef, TR *, void *, const char *)(&t2, mod, "t"), 0);
  assert_ptr_equal(t, t2); /* one handle per name */
  assert_int_equal(CU(cuModuleGetTexRef, TR *, void *, const char *)(&none, mod, "nosuch"), 500);
  assert_int_equal(CU(cuModuleGetSurfRef, TR *, void *, const char *)(&none, mod, "t"), 500);

  /* the setters' state, read back (the defaults first: float, one channel) */
  int fmt = 0, nch = 0, am = -1, fm = -1;
  unsigned fl = 9;
  assert_int_equal(CU(cuTexRefGetFormat, int *, int *, TR)(&fmt, &nch, t), 0);
  assert_true(fmt == 0x20 && nch == 1);
  assert_int_equal(CU(cuTexRefSetFormat, TR, int, int)(t, 0x0a /* SIGNED_INT32 */, 1), 0);
  assert_int_equal(CU(cuTexRefSetAddressMode, TR, int, int)(t, 0, 1 /* clamp */), 0);
  assert_int_equal(CU(cuTexRefSetAddressMode, TR, int, int)(t, 3, 1), 1);
  assert_int_equal(CU(cuTexRefSetFilterMode, TR, int)(t, 0), 0);
  assert_int_equal(CU(cuTexRefSetFlags, TR, unsigned)(t, 1 /* READ_AS_INTEGER */), 0);
  assert_int_equal(CU(cuTexRefGetFormat, int *, int *, TR)(&fmt, &nch, t), 0);
  assert_int_equal(CU(cuTexRefGetAddressMode, int *, TR, int)(&am, t, 0), 0);
  assert_int_equal(CU(cuTexRefGetFilterMode, int *, TR)(&fm, t), 0);
  assert_int_equal(CU(cuTexRefGetFlags, unsigned *, TR)(&fl, t), 0);
  assert_true(fmt == 0x0a && nch == 1 && am == 1 && fm == 0 && fl == 1);

  /* bound to linear memory: element i is 5 i + 2 */
  int32_t in[8], out[8];
  for (int i = 0; i < 8; i++) in[i] = 5 * i + 2;
  CUdeviceptr din = 0, dout = 0, got = 0;
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&din, sizeof in), 0);
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&dout, sizeof out), 0);
  assert_int_equal(CU(cuMemcpyHtoD, CUdeviceptr, const void *, size_t)(din, in, sizeof in), 0);
  size_t off = 7;
  assert_int_equal(CU(cuTexRefSetAddress, size_t *, TR, CUdeviceptr, size_t)(&off, t, din, sizeof in), 0);
  assert_int_equal(off, 0);
  assert_int_equal(CU(cuTexRefGetAddress, CUdeviceptr *, TR)(&got, t), 0);
  assert_true(got == din);
  unsigned which = 0;
  void *params[] = {&dout, &which};
  assert_int_equal(LAUNCH(f, params), 0);
  assert_int_equal(CU(cuMemcpyDtoH, void *, CUdeviceptr, size_t)(out, dout, sizeof out), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 5 * i + 2);
  /* bound one element on: the driver binds the aligned address below and
   * returns the byte offset fetches must add (4) */
  assert_int_equal(CU(cuTexRefSetAddress, size_t *, TR, CUdeviceptr, size_t)(&off, t, din + 4, sizeof in - 4),
                   0);
  assert_int_equal(off, 4);
  assert_int_equal(LAUNCH(f, params), 0);
  assert_int_equal(CU(cuMemcpyDtoH, void *, CUdeviceptr, size_t)(out, dout, sizeof out), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 5 * i + 2);
  /* rebound to the output buffer: the next launch reads there */
  int32_t twice[8];
  for (int i = 0; i < 8; i++) twice[i] = 1000 + i;
  assert_int_equal(CU(cuMemcpyHtoD, CUdeviceptr, const void *, size_t)(dout, twice, sizeof twice), 0);
  assert_int_equal(CU(cuTexRefSetAddress, size_t *, TR, CUdeviceptr, size_t)(&off, t, dout, sizeof out), 0);
  assert_int_equal(LAUNCH(f, params), 0);
  assert_int_equal(CU(cuMemcpyDtoH, void *, CUdeviceptr, size_t)(out, dout, sizeof out), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], 1000 + i);

  /* a reference never bound holds no object: the launch faults (sticky) */
  which = 1;
  assert_int_equal(LAUNCH(f, params), 0);
  assert_int_equal(CU(cuCtxSynchronize, void *)(NULL), 700);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_texref)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
