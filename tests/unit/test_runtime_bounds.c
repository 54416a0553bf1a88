/* test_runtime_bounds.c: every copy and fill entry point of the CUDA
 * runtime drop-in (and the driver API's) against out-of-range pointers and
 * sizes, compared with what an H100 (CUDA 13.0, driver 580) returned for the same calls
 * (tests/hw/harden/bounds.cu, recorded into tests/hw/harden/bounds.out by
 * tests/hw/harden/record.sh). The cases here are bounds.cu's, one for one,
 * in the same order and with the same names; each line is the error name,
 * plus " then ERROR" when a valid copy afterwards fails (a sticky error).
 * Also: overflowing sizes must not wrap into a pass. Opens
 * build/runtime/libcudart.so.13 like test_runtime_api.c. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../runtime/test_util.h"
#include "../../runtime/cuda_abi.h"

static void *lib;
static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) fail_msg("libcudart.so.13 does not export %s", name);
  return p;
}
#define F(name) ((__typeof__(&name))sym(#name))

/* the driver API's, by their ABI names */
typedef int (*cu_name_t)(int, const char **);
typedef int (*cu_htod_t)(uintptr_t, const void *, size_t);
typedef int (*cu_dtoh_t)(void *, uintptr_t, size_t);
typedef int (*cu_dtod_t)(uintptr_t, uintptr_t, size_t);
typedef int (*cu_htod_async_t)(uintptr_t, const void *, size_t, cudaStream_t);
typedef int (*cu_dtoh_async_t)(void *, uintptr_t, size_t, cudaStream_t);
typedef int (*cu_set8_t)(uintptr_t, unsigned char, size_t);
typedef int (*cu_set16_t)(uintptr_t, unsigned short, size_t);
typedef int (*cu_set32_t)(uintptr_t, unsigned int, size_t);
#define CU(type, name) ((type)sym(name))

static char shadow_sym[256];
static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".global .align 4 .b8 sym[256];\n.visible .entry k() { ret; }\n";

static void register_module(void) {
  static uint8_t fb[16 + 64 + 512];
  uint32_t u32;
  uint16_t u16;
  uint64_t u64, padded = (sizeof ptx + 7) / 8 * 8;
  u32 = 0xBA55ED50u, memcpy(fb, &u32, 4);
  u16 = 1, memcpy(fb + 4, &u16, 2);
  u16 = 16, memcpy(fb + 6, &u16, 2);
  u64 = 64 + padded, memcpy(fb + 8, &u64, 8);
  u16 = 1, memcpy(fb + 16, &u16, 2);
  u32 = 64, memcpy(fb + 20, &u32, 4);
  u64 = padded, memcpy(fb + 24, &u64, 8);
  u32 = 90, memcpy(fb + 44, &u32, 4);
  memcpy(fb + 80, ptx, sizeof ptx);
  static struct { int magic, version; const void *data; void *name; } wrap = {0x466243b1, 1, fb, NULL};
  void **h = F(__cudaRegisterFatBinary)(&wrap);
  F(__cudaRegisterVar)(h, shadow_sym, (char *)"sym", "sym", 0, 256, 0, 0);
  F(__cudaRegisterFatBinaryEnd)(h);
}

static char *host, *dev, *dev2;
static char out[16384];
static size_t outn;

static void show(const char *name, cudaError_t e) {
  outn += (size_t)snprintf(out + outn, sizeof out - outn, "%s %s", name, F(cudaGetErrorName)(e));
  F(cudaGetLastError)();
  cudaError_t after = F(cudaMemcpy)(dev2, host, 16, cudaMemcpyHostToDevice);
  if (after != cudaSuccess) outn += (size_t)snprintf(out + outn, sizeof out - outn, " then %s", F(cudaGetErrorName)(after));
  outn += (size_t)snprintf(out + outn, sizeof out - outn, "\n");
}

static void showcu(const char *name, int r) {
  const char *s = "?";
  CU(cu_name_t, "cuGetErrorName")(r, &s);
  outn += (size_t)snprintf(out + outn, sizeof out - outn, "%s %s\n", name, s);
  F(cudaGetLastError)();
}

static struct cudaPitchedPtr pitched(void *p, size_t pitch, size_t xs, size_t ys) {
  return (struct cudaPitchedPtr){p, pitch, xs, ys};
}
static struct cudaExtent extent(size_t w, size_t h, size_t d) { return (struct cudaExtent){w, h, d}; }

/* bounds.cu's main, call for call */
static void run_cases(void) {
  host = calloc(1, 1 << 20);
  assert_int_equal(F(cudaMalloc)((void **)&dev, 256), 0);
  assert_int_equal(F(cudaMalloc)((void **)&dev2, 1024), 0);
  cudaStream_t st;
  F(cudaStreamCreate)(&st);
  show("memcpy_h2d_ok", F(cudaMemcpy)(dev, host, 256, cudaMemcpyHostToDevice));
  show("memcpy_h2d_over", F(cudaMemcpy)(dev, host, 257, cudaMemcpyHostToDevice));
  show("memcpy_h2d_offset_over", F(cudaMemcpy)(dev + 200, host, 100, cudaMemcpyHostToDevice));
  show("memcpy_h2d_past_end", F(cudaMemcpy)(dev + 256, host, 1, cudaMemcpyHostToDevice));
  show("memcpy_d2h_over", F(cudaMemcpy)(host, dev, 512, cudaMemcpyDeviceToHost));
  show("memcpy_d2d_dst_over", F(cudaMemcpy)(dev, dev2, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_d2d_src_over", F(cudaMemcpy)(dev2, dev, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_d2d_overlap", F(cudaMemcpy)(dev2 + 8, dev2, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_default_h2d_over", F(cudaMemcpy)(dev, host, 512, cudaMemcpyDefault));
  show("memcpy_default_d2h_over", F(cudaMemcpy)(host, dev, 512, cudaMemcpyDefault));
  show("memcpy_default_d2d_over", F(cudaMemcpy)(dev, dev2, 512, cudaMemcpyDefault));
  show("memcpy_default_offset_over", F(cudaMemcpy)(dev + 255, host, 2, cudaMemcpyDefault));
  show("memcpy_default_ok", F(cudaMemcpy)(dev, host, 256, cudaMemcpyDefault));
  show("memcpy_bad_kind", F(cudaMemcpy)(dev, host, 16, (enum cudaMemcpyKind)7));
  show("memcpy_null_dst", F(cudaMemcpy)(NULL, host, 16, cudaMemcpyHostToDevice));
  show("memcpy_zero_over", F(cudaMemcpy)(dev + 256, host, 0, cudaMemcpyHostToDevice));
  show("memcpyasync_h2d_over", F(cudaMemcpyAsync)(dev, host, 512, cudaMemcpyHostToDevice, st));
  show("memcpyasync_d2h_over", F(cudaMemcpyAsync)(host, dev, 512, cudaMemcpyDeviceToHost, st));
  show("memcpyasync_default_over", F(cudaMemcpyAsync)(dev, host, 512, cudaMemcpyDefault, st));
  show("memcpy2d_dst_over", F(cudaMemcpy2D)(dev, 64, host, 64, 64, 5, cudaMemcpyHostToDevice));
  show("memcpy2d_src_over", F(cudaMemcpy2D)(host, 64, dev, 64, 64, 5, cudaMemcpyDeviceToHost));
  show("memcpy2d_default_over", F(cudaMemcpy2D)(dev, 64, host, 64, 64, 5, cudaMemcpyDefault));
  show("memcpy2d_ok", F(cudaMemcpy2D)(dev, 64, host, 64, 64, 4, cudaMemcpyHostToDevice));
  show("memcpy2dasync_over", F(cudaMemcpy2DAsync)(dev, 64, host, 64, 64, 5, cudaMemcpyHostToDevice, st));
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = pitched(host, 64, 64, 4);
  p.dstPtr = pitched(dev, 64, 64, 2);
  p.extent = extent(64, 2, 3);
  p.kind = cudaMemcpyHostToDevice;
  show("memcpy3d_over", F(cudaMemcpy3D)(&p));
  show("memcpy3dasync_over", F(cudaMemcpy3DAsync)(&p, st));
  p.extent = extent(64, 2, 2);
  show("memcpy3d_ok", F(cudaMemcpy3D)(&p));
  show("memset_over", F(cudaMemset)(dev, 0, 257));
  show("memset_offset_over", F(cudaMemset)(dev + 128, 0, 129));
  show("memset_ok", F(cudaMemset)(dev, 0, 256));
  show("memsetasync_over", F(cudaMemsetAsync)(dev, 0, 257, st));
  show("memset2d_over", F(cudaMemset2D)(dev, 64, 0, 64, 5));
  show("memset2d_ok", F(cudaMemset2D)(dev, 64, 0, 64, 4));
  show("memset2dasync_over", F(cudaMemset2DAsync)(dev, 64, 0, 64, 5, st));
  show("memset3d_over", F(cudaMemset3D)(pitched(dev, 64, 64, 2), 0, extent(64, 2, 3)));
  show("memset3d_ok", F(cudaMemset3D)(pitched(dev, 64, 64, 2), 0, extent(64, 2, 2)));
  show("memset3dasync_over", F(cudaMemset3DAsync)(pitched(dev, 64, 64, 2), 0, extent(64, 2, 3), st));
  show("tosymbol_over", F(cudaMemcpyToSymbol)(shadow_sym, host, 257, 0, cudaMemcpyHostToDevice));
  show("tosymbol_offset_over", F(cudaMemcpyToSymbol)(shadow_sym, host, 16, 248, cudaMemcpyHostToDevice));
  show("tosymbol_ok", F(cudaMemcpyToSymbol)(shadow_sym, host, 256, 0, cudaMemcpyHostToDevice));
  show("fromsymbol_over", F(cudaMemcpyFromSymbol)(host, shadow_sym, 257, 0, cudaMemcpyDeviceToHost));
  show("tosymbolasync_over", F(cudaMemcpyToSymbolAsync)(shadow_sym, host, 257, 0, cudaMemcpyHostToDevice, st));
  show("fromsymbolasync_over", F(cudaMemcpyFromSymbolAsync)(host, shadow_sym, 257, 0, cudaMemcpyDeviceToHost, st));
  show("tosymbol_d2d_src_over", F(cudaMemcpyToSymbol)(shadow_sym, dev, 200, 0, cudaMemcpyDeviceToDevice));
  show("tosymbol_d2d_src_over2", F(cudaMemcpyToSymbol)(shadow_sym, dev + 128, 200, 0, cudaMemcpyDeviceToDevice));
  show("peer_over", F(cudaMemcpyPeer)(dev, 0, dev2, 0, 512));
  show("peer_ok", F(cudaMemcpyPeer)(dev, 0, dev2, 0, 256));
  show("peerasync_over", F(cudaMemcpyPeerAsync)(dev, 0, dev2, 0, 512, st));
  char *pinned;
  F(cudaMallocHost)((void **)&pinned, 256);
  show("pinned_src_over", F(cudaMemcpy)(dev2, pinned, 512, cudaMemcpyHostToDevice));
  show("pinned_dst_over", F(cudaMemcpy)(pinned, dev2, 512, cudaMemcpyDeviceToHost));
  show("pinned_default_over", F(cudaMemcpy)(pinned, dev2, 512, cudaMemcpyDefault));
  show("pinned_memset", F(cudaMemset)(pinned, 0, 16));
  F(cudaFreeHost)(pinned);
  char *reg = host + 4096;
  F(cudaHostRegister)(reg, 256, 0);
  show("registered_dst_over", F(cudaMemcpy)(reg, dev2, 512, cudaMemcpyDeviceToHost));
  show("registered_default_over", F(cudaMemcpy)(reg, dev2, 512, cudaMemcpyDefault));
  show("registered_default_ok", F(cudaMemcpy)(reg, dev2, 256, cudaMemcpyDefault));
  F(cudaHostUnregister)(reg);
  char *managed;
  F(cudaMallocManaged)((void **)&managed, 256, cudaMemAttachGlobal);
  show("managed_default_over", F(cudaMemcpy)(managed, host, 512, cudaMemcpyDefault));
  show("managed_h2d_over", F(cudaMemcpy)(managed, host, 512, cudaMemcpyHostToDevice));
  show("managed_memset_over", F(cudaMemset)(managed, 0, 257));
  F(cudaFree)(managed);
  F(cudaStreamSynchronize)(st);
  /* no cuInit, as in bounds.cu: the runtime has initialised the driver */
  uintptr_t d = (uintptr_t)dev, d2 = (uintptr_t)dev2;
  showcu("cu_htod_over", CU(cu_htod_t, "cuMemcpyHtoD_v2")(d, host, 257));
  showcu("cu_dtoh_over", CU(cu_dtoh_t, "cuMemcpyDtoH_v2")(host, d, 257));
  showcu("cu_dtod_over", CU(cu_dtod_t, "cuMemcpyDtoD_v2")(d, d2, 512));
  showcu("cu_memcpy_over", CU(cu_dtod_t, "cuMemcpy")(d, (uintptr_t)host, 512));
  showcu("cu_htod_async_over", CU(cu_htod_async_t, "cuMemcpyHtoDAsync_v2")(d, host, 257, st));
  showcu("cu_dtoh_async_over", CU(cu_dtoh_async_t, "cuMemcpyDtoHAsync_v2")(host, d, 257, st));
  showcu("cu_memsetd8_over", CU(cu_set8_t, "cuMemsetD8_v2")(d, 0, 257));
  showcu("cu_memsetd16_over", CU(cu_set16_t, "cuMemsetD16_v2")(d, 0, 129));
  showcu("cu_memsetd32_over", CU(cu_set32_t, "cuMemsetD32_v2")(d, 0, 65));
  showcu("cu_memsetd32_ok", CU(cu_set32_t, "cuMemsetD32_v2")(d, 0, 64));
  showcu("cu_memsetd32_misaligned", CU(cu_set32_t, "cuMemsetD32_v2")(d + 2, 0, 4));
  F(cudaStreamSynchronize)(st);
  outn += (size_t)snprintf(out + outn, sizeof out - outn, "done 0\n");
}

/* smemu's answers equal the H200's, line by line. */
static void test_bounds_like_the_gpu(void **state) {
  (void)state;
  char *want = tu_read_file("tests/hw/harden/bounds.out", NULL);
  if (!want) fail_msg("cannot read tests/hw/harden/bounds.out (run from the repository root)");
  run_cases();
  if (strcmp(out, want)) {
    /* name the first line that differs */
    const char *a = out, *b = want;
    while (*a && *a == *b) a++, b++;
    while (a > out && a[-1] != '\n') a--, b--;
    fail_msg("smemu: %.*s\nGPU:   %.*s", (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
  }
  free(want);
}

/* Sizes whose end wraps around the address space are refused, never
 * copied: each would otherwise pass a check of the form base + n <= end. */
static void test_overflowing_sizes(void **state) {
  (void)state;
  char *d;
  assert_int_equal(F(cudaMalloc)((void **)&d, 4096), 0);
  static char h[64];
  size_t huge[] = {SIZE_MAX, SIZE_MAX - 4095, (size_t)1 << 63, SIZE_MAX - (uintptr_t)d + 1};
  for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
    assert_int_equal(F(cudaMemcpy)(d + 16, h, huge[i], cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(F(cudaMemcpy)(d + 16, h, huge[i], cudaMemcpyDefault), cudaErrorInvalidValue);
    assert_int_equal(F(cudaMemset)(d + 16, 0, huge[i]), cudaErrorInvalidValue);
    assert_int_equal(F(cudaMemcpyToSymbol)(shadow_sym, h, 16, huge[i], cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    assert_int_equal(F(cudaMemcpy2D)(d, huge[i], h, 1, 1, 3, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_int_equal(F(cudaMemset2D)(d, huge[i], 0, 1, 3), cudaErrorInvalidValue);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = pitched(h, 1, 1, 1);
    p.dstPtr = pitched(d, huge[i], 1, huge[i]);
    p.extent = extent(1, 1, 2);
    p.kind = cudaMemcpyHostToDevice;
    assert_int_equal(F(cudaMemcpy3D)(&p), cudaErrorInvalidValue);
    assert_int_equal(CU(cu_set32_t, "cuMemsetD32_v2")((uintptr_t)d, 0, huge[i] / 2 + 1), 1 /* INVALID_VALUE */);
  }
  F(cudaGetLastError)();
  F(cudaFree)(d);
}

static int setup(void **state) {
  (void)state;
  if (!(lib = tu_open_cudart())) return -1;
  register_module();
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bounds_like_the_gpu),
      cmocka_unit_test(test_overflowing_sizes),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
