/* test_runtime_api.c: the CUDA runtime drop-in's API, call by call, without
 * nvcc: the test opens build/runtime/libcudart.so.13, registers
 * tests/runtime/api_kernels.ptx in a fatbinary it builds itself (plain and
 * zstd-compressed) the way nvcc's host code does, and checks every entry
 * point's results and CUDA's error semantics. The driver API is reached
 * through build/runtime/libcuda.so.1. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../runtime/test_util.h"
#include "../../runtime/cuda_abi.h"

static void *lib;  /* libcudart.so.13 */
static void *drv;  /* libcuda.so.1 */

static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) fail_msg("libcudart.so.13 does not export %s", name);
  return p;
}
/* F(cudaMalloc)(&p, n): call the library's function with its declared type. */
#define F(name) ((__typeof__(&name))sym(#name))

/* ---- the fatbinary a test program would carry ---- */

typedef struct wrapper {
  int magic, version;
  const void *data;
  void *name;
} wrapper;

static char *ptx_text;
static size_t ptx_len;
static uint8_t *fatbin_plain, *fatbin_zstd;
static wrapper wrap_plain, wrap_zstd;
static void **handle;

/* Host "stubs" and "shadows": only their addresses matter. */
static char stub_add_one, stub_dyn_fill, stub_stat_shared, stub_bounded, stub_use_vars, stub_say, stub_check,
    stub_write_to, stub_z_add_one;
static int shadow_dev_var, shadow_dev_array[16];
static float shadow_cst[4];

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* A fatbinary with one PTX entry for sm_90; zstd-compressed when asked. */
static uint8_t *make_fatbin(int compress) {
  size_t payload = ptx_len + 1, stored = payload;
  uint8_t *data = malloc(payload + 64);
  memcpy(data, ptx_text, payload);
  uint64_t flags = 0x11;
  if (compress) {
    void *z = dlopen("libzstd.so.1", RTLD_NOW);
    if (!z) return NULL;
    size_t (*bound)(size_t) = (size_t(*)(size_t))dlsym(z, "ZSTD_compressBound");
    size_t (*comp)(void *, size_t, const void *, size_t, int) =
        (size_t(*)(void *, size_t, const void *, size_t, int))dlsym(z, "ZSTD_compress");
    if (!bound || !comp) return NULL;
    uint8_t *c = malloc(bound(payload));
    stored = comp(c, bound(payload), ptx_text, payload, 3);
    free(data);
    data = c;
    flags |= 0x8000;
  }
  size_t padded = (stored + 7) / 8 * 8;
  uint8_t *f = calloc(1, 16 + 64 + padded);
  put32(f, 0xBA55ED50u);
  put16(f + 4, 1);
  put16(f + 6, 16);
  put64(f + 8, 64 + padded);
  uint8_t *e = f + 16;
  put16(e, 1);       /* PTX */
  put16(e + 2, 0x101);
  put32(e + 4, 64);  /* entry header size */
  put64(e + 8, padded);
  put32(e + 16, compress ? (uint32_t)stored : 0);
  put16(e + 26, 9);  /* PTX ISA 9.0 */
  put32(e + 28, 90); /* sm_90 */
  put64(e + 40, flags);
  put64(e + 56, compress ? payload : 0);
  memcpy(e + 64, data, stored);
  free(data);
  return f;
}

static void reg_fun(void **h, char *stub, const char *name) {
  F(__cudaRegisterFunction)(h, stub, (char *)name, name, -1, NULL, NULL, NULL, NULL, NULL);
}

static int setup_lib(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  if (!(lib = tu_open_cudart())) return -1;
  snprintf(path, sizeof path, "%s/runtime/libcuda.so.1", tu_build_dir());
  drv = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  ptx_text = tu_read_file("tests/runtime/api_kernels.ptx", &ptx_len);
  if (!ptx_text) {
    fprintf(stderr, "cannot read tests/runtime/api_kernels.ptx (run from the repository root)\n");
    return -1;
  }
  fatbin_plain = make_fatbin(0);
  fatbin_zstd = make_fatbin(1);
  wrap_plain = (wrapper){0x466243b1, 1, fatbin_plain, NULL};
  handle = F(__cudaRegisterFatBinary)(&wrap_plain);
  reg_fun(handle, &stub_add_one, "add_one");
  reg_fun(handle, &stub_dyn_fill, "dyn_fill");
  reg_fun(handle, &stub_stat_shared, "stat_shared");
  reg_fun(handle, &stub_bounded, "bounded");
  reg_fun(handle, &stub_use_vars, "use_vars");
  reg_fun(handle, &stub_say, "say");
  reg_fun(handle, &stub_check, "check");
  reg_fun(handle, &stub_write_to, "write_to");
  F(__cudaRegisterVar)(handle, (char *)&shadow_dev_var, (char *)"dev_var", "dev_var", 0, 4, 0, 0);
  F(__cudaRegisterVar)(handle, (char *)shadow_cst, (char *)"cst", "cst", 0, 16, 1, 0);
  F(__cudaRegisterVar)(handle, (char *)shadow_dev_array, (char *)"dev_array", "dev_array", 0, 64, 0, 0);
  F(__cudaRegisterFatBinaryEnd)(handle);
  if (fatbin_zstd) {
    wrap_zstd = (wrapper){0x466243b1, 1, fatbin_zstd, NULL};
    void **h2 = F(__cudaRegisterFatBinary)(&wrap_zstd);
    reg_fun(h2, &stub_z_add_one, "add_one");
    F(__cudaRegisterFatBinaryEnd)(h2);
  }
  return 0;
}

/* ---- helpers ---- */

static const char *ename(cudaError_t e) { return F(cudaGetErrorName)(e); }
#define assert_err(call, want) assert_string_equal(ename(call), ename(want))
#define assert_ok(call) assert_err(call, cudaSuccess)

static int *dev_ints(int n, int fill) {
  int *d = NULL;
  assert_ok(F(cudaMalloc)((void **)&d, (size_t)n * sizeof(int)));
  int *h = malloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = fill;
  assert_ok(F(cudaMemcpy)(d, h, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
  free(h);
  return d;
}

static void launch1(const void *stub, unsigned grid, unsigned block, void **args, size_t shared) {
  assert_ok(F(cudaLaunchKernel)(stub, (dim3){grid, 1, 1}, (dim3){block, 1, 1}, args, shared, NULL));
}

/* Capture this process's stdout into a string while f runs. */
static char *capture(void (*f)(void)) {
  char path[] = "/tmp/smemu-test-cap-XXXXXX";
  int fd = mkstemp(path), saved = dup(1);
  fflush(stdout);
  dup2(fd, 1);
  f();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  char *s = tu_read_file(path, NULL);
  unlink(path);
  return s ? s : strdup("");
}

/* ---- errors ---- */

static void test_error_names(void **state) {
  (void)state;
  assert_string_equal(F(cudaGetErrorName)(cudaSuccess), "cudaSuccess");
  assert_string_equal(F(cudaGetErrorString)(cudaSuccess), "no error");
  assert_string_equal(F(cudaGetErrorString)(cudaErrorInvalidValue), "invalid argument");
  assert_string_equal(F(cudaGetErrorName)(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
  assert_string_equal(F(cudaGetErrorString)(cudaErrorIllegalAddress), "an illegal memory access was encountered");
  assert_string_equal(F(cudaGetErrorString)(cudaErrorAssert), "device-side assert triggered");
  assert_string_equal(F(cudaGetErrorString)(cudaErrorInvalidConfiguration), "invalid configuration argument");
  assert_string_equal(F(cudaGetErrorName)((cudaError_t)12345), "unrecognized error code");
  assert_string_equal(F(cudaGetErrorString)((cudaError_t)12345), "unrecognized error code");
}

static void test_last_error(void **state) {
  (void)state;
  F(cudaGetLastError)();
  assert_err(F(cudaPeekAtLastError)(), cudaSuccess);
  assert_err(F(cudaSetDevice)(3), cudaErrorInvalidDevice);
  assert_err(F(cudaPeekAtLastError)(), cudaErrorInvalidDevice);
  assert_err(F(cudaPeekAtLastError)(), cudaErrorInvalidDevice);
  assert_err(F(cudaGetLastError)(), cudaErrorInvalidDevice);
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  /* a successful call does not clear it */
  assert_err(F(cudaSetDevice)(3), cudaErrorInvalidDevice);
  assert_ok(F(cudaSetDevice)(0));
  assert_err(F(cudaGetLastError)(), cudaErrorInvalidDevice);
}

/* ---- devices ---- */

static void test_device(void **state) {
  (void)state;
  int n = 0, d = -1, v = 0;
  assert_ok(F(cudaGetDeviceCount)(&n));
  assert_int_equal(n, 1);
  assert_ok(F(cudaGetDevice)(&d));
  assert_int_equal(d, 0);
  assert_ok(F(cudaSetDevice)(0));
  assert_err(F(cudaSetDevice)(1), cudaErrorInvalidDevice);
  assert_ok(F(cudaInitDevice)(0, 0, 0));
  struct cudaDeviceProp p, want;
  memset(&want, 0, sizeof want);
  assert_ok(F(cudaChooseDevice)(&d, &want));
  assert_int_equal(d, 0);
  assert_ok(F(cudaGetDeviceProperties)(&p, 0));
  assert_err(F(cudaGetDeviceProperties)(&p, 2), cudaErrorInvalidDevice);
  assert_int_equal(p.major, 9);
  assert_int_equal(p.minor, 0);
  assert_int_equal(p.warpSize, 32);
  assert_int_equal(p.sharedMemPerBlock, 49152);
  assert_int_equal(p.sharedMemPerBlockOptin, 232448);
  assert_int_equal(p.sharedMemPerMultiprocessor, 233472);
  assert_int_equal(p.reservedSharedMemPerBlock, 1024);
  assert_int_equal(p.maxThreadsPerBlock, 1024);
  assert_int_equal(p.maxThreadsDim[2], 64);
  assert_int_equal(p.maxGridSize[0], 2147483647);
  assert_int_equal(p.maxGridSize[1], 65535);
  assert_int_equal(p.regsPerBlock, 65536);
  assert_int_equal(p.maxThreadsPerMultiProcessor, 2048);
  assert_int_equal(p.maxBlocksPerMultiProcessor, 32);
  assert_int_equal(p.multiProcessorCount, 132);
  assert_non_null(strstr(p.name, "smemu"));
  assert_ok(F(cudaDeviceGetAttribute)(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  assert_int_equal(v, 232448);
  assert_ok(F(cudaDeviceGetAttribute)(&v, cudaDevAttrComputeCapabilityMajor, 0));
  assert_int_equal(v, 9);
  assert_ok(F(cudaDeviceGetAttribute)(&v, cudaDevAttrMaxRegistersPerMultiprocessor, 0));
  assert_int_equal(v, 65536);
  assert_ok(F(cudaDeviceGetAttribute)(&v, cudaDevAttrReservedSharedMemoryPerBlock, 0));
  assert_int_equal(v, 1024);
  assert_err(F(cudaDeviceGetAttribute)(&v, (enum cudaDeviceAttr)9999, 0), cudaErrorInvalidValue);
  assert_err(F(cudaDeviceGetAttribute)(&v, cudaDevAttrWarpSize, 1), cudaErrorInvalidDevice);
  assert_ok(F(cudaDriverGetVersion)(&v));
  assert_int_equal(v, 13000);
  assert_ok(F(cudaRuntimeGetVersion)(&v));
  assert_int_equal(v, 13000);
  unsigned fl = 99;
  assert_ok(F(cudaSetDeviceFlags)(cudaDeviceMapHost));
  assert_ok(F(cudaGetDeviceFlags)(&fl));
  assert_int_equal(fl, cudaDeviceMapHost);
  char bus[32];
  assert_ok(F(cudaDeviceGetPCIBusId)(bus, sizeof bus, 0));
  assert_ok(F(cudaDeviceCanAccessPeer)(&v, 0, 0));
  assert_int_equal(v, 0);
  int lo = 1, hi = 1;
  assert_ok(F(cudaDeviceGetStreamPriorityRange)(&lo, &hi));
  assert_int_equal(lo, 0);
  assert_int_equal(hi, -5);
  assert_ok(F(cudaDeviceSynchronize)());
  assert_ok(F(cudaThreadSynchronize)());
  F(cudaGetLastError)();
}

static void test_limits_and_config(void **state) {
  (void)state;
  size_t v = 0;
  assert_ok(F(cudaDeviceGetLimit)(&v, cudaLimitStackSize));
  assert_int_equal(v, 1024);
  assert_ok(F(cudaDeviceGetLimit)(&v, cudaLimitPrintfFifoSize));
  assert_int_equal(v, 8650752); /* CUDA 13's default, measured on an H200 */
  assert_ok(F(cudaDeviceGetLimit)(&v, cudaLimitMallocHeapSize));
  assert_int_equal(v, 8 << 20);
  assert_ok(F(cudaDeviceSetLimit)(cudaLimitStackSize, 2048));
  assert_ok(F(cudaDeviceGetLimit)(&v, cudaLimitStackSize));
  assert_int_equal(v, 2048);
  assert_ok(F(cudaDeviceSetLimit)(cudaLimitStackSize, 1024));
  assert_err(F(cudaDeviceGetLimit)(&v, (enum cudaLimit)77), cudaErrorUnsupportedLimit);
  enum cudaFuncCache c;
  assert_ok(F(cudaDeviceGetCacheConfig)(&c));
  assert_int_equal(c, cudaFuncCachePreferNone);
  assert_ok(F(cudaDeviceSetCacheConfig)(cudaFuncCachePreferL1));
  assert_ok(F(cudaDeviceGetCacheConfig)(&c));
  assert_int_equal(c, cudaFuncCachePreferL1);
  assert_err(F(cudaDeviceSetCacheConfig)((enum cudaFuncCache)9), cudaErrorInvalidValue);
  assert_ok(F(cudaDeviceSetCacheConfig)(cudaFuncCachePreferNone));
  /* sm_90: 8-byte banks are accepted and ignored */
  enum cudaSharedMemConfig sc;
  assert_ok(F(cudaDeviceSetSharedMemConfig)(cudaSharedMemBankSizeEightByte));
  assert_ok(F(cudaDeviceGetSharedMemConfig)(&sc));
  assert_int_equal(sc, cudaSharedMemBankSizeFourByte);
  assert_err(F(cudaDeviceSetSharedMemConfig)((enum cudaSharedMemConfig)5), cudaErrorInvalidValue);
  F(cudaGetLastError)();
}

/* On sm_35 the 8-byte bank mode can be chosen. The architecture is read
 * once per process, so this runs in a child: this program again, with
 * SMEMU_ARCH=sm_35 and --kepler (see main). */
static int kepler_child(void) {
  if (setup_lib(NULL) < 0) return 2;
  enum cudaSharedMemConfig sc = cudaSharedMemBankSizeDefault;
  struct cudaDeviceProp p;
  if (F(cudaGetDeviceProperties)(&p, 0) || p.major != 3 || p.minor != 5) return 3;
  if (F(cudaDeviceGetSharedMemConfig)(&sc) || sc != cudaSharedMemBankSizeFourByte) return 4;
  if (F(cudaDeviceSetSharedMemConfig)(cudaSharedMemBankSizeEightByte)) return 5;
  if (F(cudaDeviceGetSharedMemConfig)(&sc) || sc != cudaSharedMemBankSizeEightByte) return 6;
  if (F(cudaDeviceSetSharedMemConfig)(cudaSharedMemBankSizeDefault)) return 7;
  if (F(cudaDeviceGetSharedMemConfig)(&sc) || sc != cudaSharedMemBankSizeFourByte) return 8;
  /* 48 KB is all there is: no opt-in above it */
  if (F(cudaFuncSetAttribute)(&stub_dyn_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 49153) !=
      cudaErrorInvalidValue)
    return 9;
  return 0;
}

static void test_shared_config_kepler(void **state) {
  (void)state;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  assert_true(n > 0);
  exe[n] = 0;
  char *argv[] = {exe, "--kepler", NULL};
  char *env[] = {"SMEMU_ARCH=sm_35", "SMEMU_PTX_ANY=1", NULL};
  tu_run r;
  assert_int_equal(tu_spawn(argv, env, &r), 0);
  if (r.rc) fprintf(stderr, "kepler child: exit %d\n%s%s", r.rc, r.out, r.err);
  assert_int_equal(r.rc, 0);
  tu_run_free(&r);
}

/* ---- memory ---- */

static void test_malloc_free(void **state) {
  (void)state;
  void *p = NULL;
  assert_ok(F(cudaMalloc)(&p, 1000));
  assert_non_null(p);
  assert_err(F(cudaMalloc)(NULL, 10), cudaErrorInvalidValue);
  assert_err(F(cudaMalloc)(&p, (size_t)1 << 50), cudaErrorMemoryAllocation);
  assert_err(F(cudaFree)((char *)p + 4), cudaErrorInvalidValue);
  assert_ok(F(cudaFree)(p));
  assert_err(F(cudaFree)(p), cudaErrorInvalidValue);
  assert_ok(F(cudaFree)(NULL));
  void *z = (void *)1;
  assert_ok(F(cudaMalloc)(&z, 0));
  assert_null(z);
  size_t fr = 0, tot = 0, fr2 = 0;
  assert_ok(F(cudaMemGetInfo)(&fr, &tot));
  assert_true(fr <= tot);
  assert_ok(F(cudaMalloc)(&p, 1 << 20));
  assert_ok(F(cudaMemGetInfo)(&fr2, &tot));
  assert_int_equal(fr - fr2, 1 << 20);
  assert_ok(F(cudaFree)(p));
  /* the stream-ordered allocator */
  assert_ok(((cudaError_t(*)(void **, size_t, cudaStream_t))sym("cudaMallocAsync"))(&p, 256, NULL));
  assert_ok(((cudaError_t(*)(void *, cudaStream_t))sym("cudaFreeAsync"))(p, NULL));
  assert_err(((cudaError_t(*)(void **, size_t, cudaStream_t))sym("cudaMallocAsync"))(&p, 256, (cudaStream_t)&p),
             cudaErrorInvalidResourceHandle);
  /* no-ops, and what is not there says so (a stub of runtime/entries.def) */
  assert_ok(((cudaError_t(*)(void))sym("cudaProfilerStart"))());
  assert_ok(((cudaError_t(*)(void))sym("cudaProfilerStop"))());
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  cudaError_t e = ((cudaError_t(*)(void **, unsigned))sym("cudaArrayGetPlane"))(&p, 0);
  dup2(saved, 2);
  close(saved);
  close(null);
  assert_err(e, cudaErrorNotSupported);
  F(cudaGetLastError)();
}

static void test_host_memory(void **state) {
  (void)state;
  int *h = NULL, *m = NULL, *dm = NULL;
  assert_ok(F(cudaMallocHost)((void **)&h, 64 * sizeof(int)));
  assert_ok(F(cudaHostAlloc)((void **)&m, 64 * sizeof(int), cudaHostAllocMapped));
  assert_err(F(cudaHostAlloc)((void **)&m, 64, 0x100), cudaErrorInvalidValue);
  assert_ok(F(cudaHostGetDevicePointer)((void **)&dm, m, 0));
  assert_ptr_equal(dm, m);
  unsigned fl = 0;
  assert_ok(F(cudaHostGetFlags)(&fl, m));
  assert_true(fl & cudaHostAllocMapped);
  for (int i = 0; i < 64; i++) m[i] = i;
  int n = 64;
  void *args[] = {&dm, &n};
  launch1(&stub_add_one, 1, 64, args, 0);
  assert_ok(F(cudaDeviceSynchronize)());
  assert_int_equal(m[63], 64);
  /* a kernel may use pinned memory directly too */
  memset(h, 0, 64 * sizeof(int));
  args[0] = &h;
  launch1(&stub_add_one, 1, 64, args, 0);
  assert_ok(F(cudaDeviceSynchronize)());
  assert_int_equal(h[5], 1);
  assert_err(F(cudaFree)(h), cudaErrorInvalidValue);
  assert_ok(F(cudaFreeHost)(h));
  assert_ok(F(cudaFreeHost)(m));
  /* registered host memory */
  static int reg[32];
  int *rp = reg;
  assert_ok(F(cudaHostRegister)(reg, sizeof reg, 0));
  assert_err(F(cudaHostRegister)(reg, sizeof reg, 0), cudaErrorHostMemoryAlreadyRegistered);
  args[0] = &rp;
  n = 32;
  launch1(&stub_add_one, 1, 32, args, 0);
  assert_ok(F(cudaDeviceSynchronize)());
  assert_int_equal(reg[31], 1);
  assert_ok(F(cudaHostUnregister)(reg));
  assert_err(F(cudaHostUnregister)(reg), cudaErrorHostMemoryNotRegistered);
  F(cudaGetLastError)();
}

static void test_managed_and_pitch(void **state) {
  (void)state;
  int *m = NULL;
  assert_ok(F(cudaMallocManaged)((void **)&m, 128 * sizeof(int), cudaMemAttachGlobal));
  assert_err(F(cudaMallocManaged)((void **)&m, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
  for (int i = 0; i < 128; i++) m[i] = 10;
  int n = 128;
  void *args[] = {&m, &n};
  launch1(&stub_add_one, 2, 64, args, 0);
  struct cudaMemLocation loc = {0, 0};
  assert_ok(F(cudaMemPrefetchAsync)(m, 128 * sizeof(int), loc, 0, NULL));
  assert_ok(F(cudaMemAdvise)(m, 128 * sizeof(int), 1, loc));
  assert_ok(F(cudaDeviceSynchronize)());
  assert_int_equal(m[127], 11);
  struct cudaPointerAttributes a;
  assert_ok(F(cudaPointerGetAttributes)(&a, m));
  assert_int_equal(a.type, cudaMemoryTypeManaged);
  assert_ok(F(cudaFree)(m));

  float *p = NULL;
  size_t pitch = 0;
  assert_ok(F(cudaMallocPitch)((void **)&p, &pitch, 100 * sizeof(float), 5));
  assert_true(pitch >= 400 && pitch % 128 == 0);
  float h[5][100], back[5][100];
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 100; x++) h[y][x] = (float)(y * 1000 + x);
  assert_ok(F(cudaMemcpy2D)(p, pitch, h, sizeof h[0], sizeof h[0], 5, cudaMemcpyHostToDevice));
  assert_ok(F(cudaMemcpy2DAsync)(back, sizeof back[0], p, pitch, sizeof back[0], 5, cudaMemcpyDeviceToHost, NULL));
  assert_ok(F(cudaStreamSynchronize)(NULL));
  assert_memory_equal(h, back, sizeof h);
  assert_err(F(cudaMemcpy2D)(p, pitch, h, 8, sizeof h[0], 5, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  assert_err(F(cudaMemcpy2D)(p, pitch, h, sizeof h[0], sizeof h[0], 500, cudaMemcpyHostToDevice),
             cudaErrorInvalidValue);
  assert_ok(F(cudaMemset2D)(p, pitch, 0, sizeof h[0], 5));
  assert_ok(F(cudaMemcpy2D)(back, sizeof back[0], p, pitch, sizeof back[0], 5, cudaMemcpyDeviceToHost));
  assert_true(back[4][99] == 0.0f);
  assert_ok(F(cudaFree)(p));
  F(cudaGetLastError)();
}

static void test_memcpy_memset(void **state) {
  (void)state;
  int *d = dev_ints(100, 3), *d2 = NULL, h[100];
  assert_ok(F(cudaMalloc)((void **)&d2, sizeof h));
  assert_ok(F(cudaMemcpy)(d2, d, sizeof h, cudaMemcpyDeviceToDevice));
  assert_ok(F(cudaMemcpy)(h, d2, sizeof h, cudaMemcpyDeviceToHost));
  assert_int_equal(h[99], 3);
  assert_ok(F(cudaMemset)(d, 0x01, 8));
  assert_ok(F(cudaMemcpy)(h, d, 12, cudaMemcpyDefault));
  assert_int_equal(h[0], 0x01010101);
  assert_int_equal(h[2], 3);
  assert_ok(F(cudaMemsetAsync)(d, 0, sizeof h, NULL));
  assert_ok(F(cudaMemcpyAsync)(h, d, sizeof h, cudaMemcpyDeviceToHost, NULL));
  assert_ok(F(cudaStreamSynchronize)(NULL));
  assert_int_equal(h[50], 0);
  int local[4] = {1, 2, 3, 4}, other[4];
  assert_ok(F(cudaMemcpy)(other, local, sizeof local, cudaMemcpyHostToHost));
  assert_memory_equal(other, local, sizeof local);
  /* errors */
  assert_err(F(cudaMemcpy)(d, h, sizeof h + 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  assert_err(F(cudaMemcpy)(h, local, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  assert_err(F(cudaMemcpy)(h, local, 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  assert_err(F(cudaMemcpy)(h, d, 4, (enum cudaMemcpyKind)9), cudaErrorInvalidMemcpyDirection);
  assert_err(F(cudaMemset)(local, 0, 4), cudaErrorInvalidValue);
  assert_err(F(cudaMemset)(d, 0, sizeof h + 1), cudaErrorInvalidValue);
  assert_err(F(cudaMemcpyAsync)(h, d, 4, cudaMemcpyDeviceToHost, (cudaStream_t)&h), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaMemcpy)(h, d, 0, cudaMemcpyDeviceToHost));
  struct cudaPointerAttributes a;
  assert_ok(F(cudaPointerGetAttributes)(&a, d + 5));
  assert_int_equal(a.type, cudaMemoryTypeDevice);
  assert_ok(F(cudaPointerGetAttributes)(&a, local));
  assert_int_equal(a.type, cudaMemoryTypeUnregistered);
  assert_ok(F(cudaFree)(d));
  assert_ok(F(cudaFree)(d2));
  F(cudaGetLastError)();
}

/* ---- fatbinaries and symbols ---- */

static void test_fatbin_zstd(void **state) {
  (void)state;
  if (!fatbin_zstd) skip();
  int *d = dev_ints(10, 1), n = 10, h[10];
  void *args[] = {&d, &n};
  launch1(&stub_z_add_one, 1, 32, args, 0);
  assert_ok(F(cudaMemcpy)(h, d, sizeof h, cudaMemcpyDeviceToHost));
  assert_int_equal(h[9], 2);
  assert_ok(F(cudaFree)(d));
}

/* A fatbinary with only a cubin: registering works, launching says why not. */
static void test_fatbin_without_ptx(void **state) {
  (void)state;
  static uint8_t fb[16 + 64 + 64];
  static char stub;
  memset(fb, 0, sizeof fb);
  put32(fb, 0xBA55ED50u);
  put16(fb + 4, 1);
  put16(fb + 6, 16);
  put64(fb + 8, 64 + 64);
  put16(fb + 16, 2); /* ELF */
  put32(fb + 20, 64);
  put64(fb + 24, 64);
  put32(fb + 16 + 28, 90);
  memcpy(fb + 80, "\177ELF", 4);
  static wrapper w;
  w = (wrapper){0x466243b1, 1, fb, NULL};
  void **h = F(__cudaRegisterFatBinary)(&w);
  reg_fun(h, &stub, "add_one");
  F(__cudaRegisterFatBinaryEnd)(h);
  assert_err(F(cudaLaunchKernel)(&stub, (dim3){1, 1, 1}, (dim3){1, 1, 1}, NULL, 0, NULL),
             cudaErrorNoKernelImageForDevice);
  assert_err(F(cudaGetLastError)(), cudaErrorNoKernelImageForDevice);
  /* an -rdc wrapper (version 2) without its list of translation units is refused the same way */
  static wrapper w2;
  static char stub2;
  w2 = (wrapper){0x466243b1, 2, fatbin_plain, NULL};
  h = F(__cudaRegisterFatBinary)(&w2);
  reg_fun(h, &stub2, "add_one");
  F(__cudaRegisterFatBinaryEnd)(h);
  assert_err(F(cudaLaunchKernel)(&stub2, (dim3){1, 1, 1}, (dim3){1, 1, 1}, NULL, 0, NULL),
             cudaErrorNoKernelImageForDevice);
  F(cudaGetLastError)();
}

static void test_symbols(void **state) {
  (void)state;
  int v = 0;
  assert_ok(F(cudaMemcpyFromSymbol)(&v, &shadow_dev_var, sizeof v, 0, cudaMemcpyDeviceToHost));
  assert_int_equal(v, 5);
  float c[4] = {0, 10, 20, 30};
  assert_ok(F(cudaMemcpyToSymbol)(shadow_cst, c, sizeof c, 0, cudaMemcpyHostToDevice));
  int *out = dev_ints(1, 0);
  void *args[] = {&out};
  launch1(&stub_use_vars, 1, 32, args, 0);
  assert_ok(F(cudaMemcpy)(&v, out, sizeof v, cudaMemcpyDeviceToHost));
  assert_int_equal(v, 15);
  int arr[16];
  assert_ok(F(cudaMemcpyFromSymbol)(arr, shadow_dev_array, sizeof arr, 0, cudaMemcpyDeviceToHost));
  assert_int_equal(arr[15], 31);
  int two[2] = {-1, -2};
  assert_ok(F(cudaMemcpyToSymbolAsync)(shadow_dev_array, two, sizeof two, 14 * sizeof(int), cudaMemcpyHostToDevice,
                                       NULL));
  assert_ok(F(cudaMemcpyFromSymbolAsync)(arr, shadow_dev_array, 2 * sizeof(int), 14 * sizeof(int),
                                         cudaMemcpyDeviceToHost, NULL));
  assert_ok(F(cudaStreamSynchronize)(NULL));
  assert_int_equal(arr[1], -2);
  int *addr = NULL;
  size_t size = 0;
  assert_ok(F(cudaGetSymbolAddress)((void **)&addr, shadow_dev_array));
  assert_ok(F(cudaGetSymbolSize)(&size, shadow_dev_array));
  assert_int_equal(size, 64);
  assert_ok(F(cudaMemcpy)(&v, addr + 15, sizeof v, cudaMemcpyDeviceToHost));
  assert_int_equal(v, -2);
  assert_ok(F(cudaGetSymbolSize)(&size, shadow_cst));
  assert_int_equal(size, 16);
  /* errors */
  assert_err(F(cudaMemcpyToSymbol)(shadow_cst, c, sizeof c, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  assert_err(F(cudaMemcpyToSymbol)(shadow_cst, c, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
  assert_err(F(cudaMemcpyFromSymbol)(c, shadow_cst, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidMemcpyDirection);
  assert_err(F(cudaMemcpyToSymbol)(&v, c, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
  assert_err(F(cudaGetSymbolAddress)((void **)&addr, &v), cudaErrorInvalidSymbol);
  assert_ok(F(cudaFree)(out));
  F(cudaGetLastError)();
}

/* ---- launches ---- */

static void test_launch_paths(void **state) {
  (void)state;
  int *d = dev_ints(64, 0), n = 64, h[64];
  void *args[] = {&d, &n};
  /* <<<>>>: push, the stub pops, looks up its kernel and launches */
  assert_int_equal(F(__cudaPushCallConfiguration)((dim3){1, 1, 1}, (dim3){64, 1, 1}, 0, NULL), 0);
  dim3 g, b;
  size_t sh = 1;
  cudaStream_t s = (cudaStream_t)1;
  assert_ok(F(__cudaPopCallConfiguration)(&g, &b, &sh, &s));
  assert_int_equal(b.x, 64);
  assert_int_equal(sh, 0);
  assert_null(s);
  assert_err(F(__cudaPopCallConfiguration)(&g, &b, &sh, &s), cudaErrorMissingConfiguration);
  cudaKernel_t k = NULL;
  assert_ok(F(__cudaGetKernel)(&k, &stub_add_one));
  assert_non_null(k);
  assert_ok(F(__cudaLaunchKernel)(k, g, b, args, sh, s));
  assert_ok(F(__cudaLaunchKernel_ptsz)(k, g, b, args, sh, s));
  /* cudaLaunchKernel and cudaLaunchKernelExC */
  assert_ok(F(cudaLaunchKernel)(&stub_add_one, (dim3){2, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL));
  assert_ok(F(cudaLaunchKernel_ptsz)(&stub_add_one, (dim3){2, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL));
  cudaLaunchConfig_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.gridDim = (dim3){1, 1, 1};
  cfg.blockDim = (dim3){64, 1, 1};
  assert_ok(F(cudaLaunchKernelExC)(&cfg, &stub_add_one, args));
  assert_ok(F(cudaMemcpy)(h, d, sizeof h, cudaMemcpyDeviceToHost));
  assert_int_equal(h[0], 5);
  assert_int_equal(h[63], 5);
  /* dynamic shared memory */
  int m = 1000;
  void *dargs[] = {&d, &m};
  launch1(&stub_dyn_fill, 1, 128, dargs, 1000 * sizeof(int));
  assert_ok(F(cudaMemcpy)(h, d, sizeof(int), cudaMemcpyDeviceToHost));
  assert_int_equal(h[0], 2997);
  assert_ok(F(cudaFree)(d));
  F(cudaGetLastError)();
}

static cudaError_t launch_cfg(const void *stub, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t s) {
  return F(cudaLaunchKernel)(stub, g, b, args, shared, s);
}

static void test_launch_errors(void **state) {
  (void)state;
  int *d = dev_ints(1024, 0), n = 1024;
  void *args[] = {&d, &n};
  dim3 one = {1, 1, 1};
  /* CUDA 13: every bad configuration is an invalid argument, not sticky */
  assert_err(launch_cfg(&stub_add_one, one, (dim3){1025, 1, 1}, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(F(cudaPeekAtLastError)(), cudaErrorInvalidValue);
  assert_err(F(cudaGetLastError)(), cudaErrorInvalidValue);
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  assert_err(launch_cfg(&stub_add_one, one, (dim3){32, 32, 2}, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, one, (dim3){1, 1, 65}, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, one, (dim3){0, 1, 1}, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, (dim3){0, 1, 1}, one, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, (dim3){1, 65536, 1}, one, args, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, (dim3){1, 1, 0}, one, args, 0, NULL), cudaErrorInvalidValue);
  /* above __launch_bounds__ (.maxntid 64) */
  assert_err(launch_cfg(&stub_bounded, one, (dim3){128, 1, 1}, args, 0, NULL), cudaErrorInvalidValue);
  assert_ok(launch_cfg(&stub_bounded, one, (dim3){64, 1, 1}, args, 0, NULL));
  /* shared memory: 48 KB less the static bytes, unless opted in */
  assert_err(launch_cfg(&stub_dyn_fill, one, one, args, 49152 + 4, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_stat_shared, one, one, args, 49152 - 4096 + 4, NULL), cudaErrorInvalidValue);
  assert_ok(launch_cfg(&stub_stat_shared, one, one, args, 49152 - 4096, NULL));
  assert_ok(F(cudaFuncSetAttribute)(&stub_dyn_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  assert_ok(launch_cfg(&stub_dyn_fill, one, one, args, 65536, NULL));
  assert_err(launch_cfg(&stub_dyn_fill, one, one, args, 65536 + 4, NULL), cudaErrorInvalidValue);
  /* bad handles and arguments */
  static char unknown;
  assert_err(launch_cfg(&unknown, one, one, args, 0, NULL), cudaErrorInvalidResourceHandle);
  cudaKernel_t kh = NULL;
  assert_err(F(__cudaGetKernel)(&kh, &unknown), cudaErrorInvalidResourceHandle);
  assert_err(launch_cfg(&stub_add_one, one, one, NULL, 0, NULL), cudaErrorInvalidValue);
  assert_err(launch_cfg(&stub_add_one, one, one, args, 0, (cudaStream_t)&unknown), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaDeviceSynchronize)());
  assert_ok(F(cudaFree)(d));
  F(cudaGetLastError)();
}

/* Launches run when the program synchronises: device printf appears there. */
static void say_then_sync(void) {
  int v = 7;
  void *args[] = {&v};
  launch1(&stub_say, 1, 32, args, 0);
  printf("host before sync\n");
  fflush(stdout);
  assert_ok(F(cudaDeviceSynchronize)());
  printf("host after sync\n");
}

static void test_printf_deferred(void **state) {
  (void)state;
  char *out = capture(say_then_sync);
  assert_string_equal(out, "host before sync\nsay 7\nhost after sync\n");
  free(out);
}

/* ---- functions and occupancy ---- */

static void test_func_attributes(void **state) {
  (void)state;
  struct cudaFuncAttributes a;
  assert_ok(F(cudaFuncGetAttributes)(&a, &stub_stat_shared));
  assert_int_equal(a.sharedSizeBytes, 4096);
  assert_int_equal(a.maxThreadsPerBlock, 1024);
  assert_int_equal(a.maxDynamicSharedSizeBytes, 49152 - 4096);
  assert_int_equal(a.ptxVersion, 90);
  assert_int_equal(a.binaryVersion, 90);
  assert_int_equal(a.numRegs, 0); /* no cubin in this fatbinary */
  assert_int_equal(a.preferredShmemCarveout, -1);
  assert_ok(F(cudaFuncGetAttributes)(&a, &stub_bounded));
  assert_int_equal(a.maxThreadsPerBlock, 64);
  assert_err(F(cudaFuncGetAttributes)(&a, &a), cudaErrorInvalidResourceHandle); /* CUDA 13 */
  assert_err(F(cudaFuncGetAttributes)(NULL, &stub_bounded), cudaErrorInvalidValue);
  assert_ok(F(cudaFuncSetAttribute)(&stub_stat_shared, cudaFuncAttributePreferredSharedMemoryCarveout, 25));
  assert_ok(F(cudaFuncSetAttribute)(&stub_stat_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000));
  assert_ok(F(cudaFuncGetAttributes)(&a, &stub_stat_shared));
  assert_int_equal(a.preferredShmemCarveout, 25);
  assert_int_equal(a.maxDynamicSharedSizeBytes, 100000);
  assert_err(F(cudaFuncSetAttribute)(&stub_stat_shared, cudaFuncAttributePreferredSharedMemoryCarveout, 101),
             cudaErrorInvalidValue);
  assert_err(F(cudaFuncSetAttribute)(&stub_stat_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     232448 - 4096 + 1),
             cudaErrorInvalidValue);
  assert_ok(F(cudaFuncSetAttribute)(&stub_stat_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 4096));
  assert_err(F(cudaFuncSetAttribute)(&stub_stat_shared, (enum cudaFuncAttribute)3, 0), cudaErrorInvalidValue);
  assert_ok(F(cudaFuncSetCacheConfig)(&stub_stat_shared, cudaFuncCachePreferShared));
  assert_err(F(cudaFuncSetCacheConfig)(&stub_stat_shared, (enum cudaFuncCache)8), cudaErrorInvalidValue);
  assert_err(F(cudaFuncSetCacheConfig)(&a, cudaFuncCachePreferShared), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaFuncSetSharedMemConfig)(&stub_stat_shared, cudaSharedMemBankSizeEightByte));
  const char *name = NULL;
  assert_ok(F(cudaFuncGetName)(&name, &stub_stat_shared));
  assert_string_equal(name, "stat_shared");
  F(cudaGetLastError)();
}

static void test_occupancy(void **state) {
  (void)state;
  int b = -1;
  /* no register counts in this fatbinary: threads and shared memory limit */
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 1024, 0));
  assert_int_equal(b, 2);
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 32, 0));
  assert_int_equal(b, 32);
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 96, 0));
  assert_int_equal(b, 21);
  /* (20000 + 1024 reserved) rounded to 128 = 21120: 233472 / 21120 = 11 */
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)(&b, &stub_add_one, 64, 20000, 0));
  assert_int_equal(b, 11);
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 64, 49152 + 4));
  assert_int_equal(b, 0);
  /* above __launch_bounds__ (64): computed anyway, as CUDA does (2048 / 128) */
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_bounded, 128, 0));
  assert_int_equal(b, 16);
  /* above the device's 1024 threads per block */
  assert_ok(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 1056, 0));
  assert_int_equal(b, 0);
  assert_err(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &stub_add_one, 0, 0), cudaErrorInvalidValue);
  assert_err(F(cudaOccupancyMaxActiveBlocksPerMultiprocessor)(&b, &b, 32, 0), cudaErrorInvalidResourceHandle);
  size_t dyn = 0;
  assert_ok(F(cudaOccupancyAvailableDynamicSMemPerBlock)(&dyn, &stub_add_one, 4, 128));
  assert_int_equal(dyn, 49152); /* 233472 / 4 = 58368, capped at 48 KB */
  /* the reserved 1 KB per block is not subtracted (CUDA 13, measured) */
  assert_ok(F(cudaOccupancyAvailableDynamicSMemPerBlock)(&dyn, &stub_add_one, 16, 128));
  assert_int_equal(dyn, 233472 / 16 / 128 * 128);
  /* stat_shared (4096 static bytes) has a preferred carveout of 25% (64 KB
   * on sm_90) and has opted in to 232448 - 4096 dynamic bytes
   * (test_func_attributes): 65536 / 4 - 4096; one block gets the opt-in limit */
  assert_ok(F(cudaOccupancyAvailableDynamicSMemPerBlock)(&dyn, &stub_stat_shared, 4, 128));
  assert_int_equal(dyn, 65536 / 4 - 4096);
  assert_ok(F(cudaOccupancyAvailableDynamicSMemPerBlock)(&dyn, &stub_stat_shared, 1, 128));
  assert_int_equal(dyn, 232448 - 4096);
  F(cudaGetLastError)();
}

/* ---- streams and events ---- */

static int order[8], norder;
static void host_fn(void *u) { order[norder++] = (int)(intptr_t)u; }
static void stream_cb(cudaStream_t s, cudaError_t st, void *u) {
  (void)s;
  order[norder++] = st == cudaSuccess ? (int)(intptr_t)u : -1;
}

static void test_streams(void **state) {
  (void)state;
  cudaStream_t a, b, c;
  assert_ok(F(cudaStreamCreate)(&a));
  assert_ok(F(cudaStreamCreateWithFlags)(&b, cudaStreamNonBlocking));
  assert_ok(F(cudaStreamCreateWithPriority)(&c, 0, -3));
  assert_err(F(cudaStreamCreateWithFlags)(&c, 0x10), cudaErrorInvalidValue);
  unsigned fl = 9;
  int pr = 9;
  assert_ok(F(cudaStreamGetFlags)(b, &fl));
  assert_int_equal(fl, cudaStreamNonBlocking);
  assert_ok(F(cudaStreamGetPriority)(c, &pr));
  assert_int_equal(pr, -3);
  int *d = dev_ints(32, 0), n = 32, h[32];
  void *args[] = {&d, &n};
  norder = 0;
  assert_ok(launch_cfg(&stub_add_one, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, a));
  assert_ok(F(cudaLaunchHostFunc)(a, host_fn, (void *)1));
  assert_ok(F(cudaStreamAddCallback)(a, stream_cb, (void *)2, 0));
  assert_err(F(cudaStreamAddCallback)(a, stream_cb, NULL, 1), cudaErrorInvalidValue);
  assert_int_equal(norder, 0); /* nothing runs before a synchronisation */
  cudaEvent_t e;
  assert_ok(F(cudaEventCreate)(&e));
  assert_ok(F(cudaEventRecord)(e, a));
  assert_ok(F(cudaStreamWaitEvent)(b, e, 0));
  assert_ok(launch_cfg(&stub_add_one, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, b));
  assert_ok(F(cudaStreamQuery)(b));
  assert_int_equal(norder, 2);
  assert_int_equal(order[0], 1);
  assert_int_equal(order[1], 2);
  assert_ok(F(cudaStreamSynchronize)(a));
  assert_ok(F(cudaMemcpyAsync)(h, d, sizeof h, cudaMemcpyDeviceToHost, c));
  assert_ok(F(cudaStreamSynchronize)(c));
  assert_int_equal(h[31], 2);
  assert_ok(F(cudaStreamSynchronize)(cudaStreamLegacy));
  assert_ok(F(cudaStreamSynchronize)(cudaStreamPerThread));
  assert_ok(F(cudaStreamDestroy)(a));
  assert_err(F(cudaStreamDestroy)(a), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaStreamSynchronize)(a), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaStreamQuery)(a), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaStreamDestroy)(NULL), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaStreamDestroy)(b));
  assert_ok(F(cudaStreamDestroy)(c));
  assert_ok(F(cudaEventDestroy)(e));
  assert_ok(F(cudaFree)(d));
  F(cudaGetLastError)();
}

static void test_events(void **state) {
  (void)state;
  cudaEvent_t a, b, nt, never;
  assert_ok(F(cudaEventCreate)(&a));
  assert_ok(F(cudaEventCreateWithFlags)(&b, cudaEventBlockingSync));
  assert_ok(F(cudaEventCreateWithFlags)(&nt, cudaEventDisableTiming));
  assert_ok(F(cudaEventCreate)(&never));
  assert_err(F(cudaEventCreateWithFlags)(&never, 0x80), cudaErrorInvalidValue);
  assert_ok(F(cudaEventQuery)(never));
  int *d = dev_ints(4096, 0), n = 4096;
  void *args[] = {&d, &n};
  assert_ok(F(cudaEventRecord)(a, NULL));
  launch1(&stub_add_one, 16, 256, args, 0);
  assert_ok(F(cudaEventRecordWithFlags)(b, NULL, 0));
  assert_ok(F(cudaEventRecord)(nt, NULL));
  float ms = -1;
  assert_err(F(cudaEventElapsedTime)(&ms, a, b), cudaErrorNotReady);
  assert_ok(F(cudaEventSynchronize)(b));
  assert_ok(F(cudaEventElapsedTime)(&ms, a, b));
  assert_true(ms >= 0.0f);
  assert_ok(F(cudaEventQuery)(b));
  assert_err(F(cudaEventElapsedTime)(&ms, a, nt), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaEventElapsedTime)(&ms, a, never), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaEventElapsedTime)(NULL, a, b), cudaErrorInvalidValue);
  assert_err(F(cudaEventRecord)((cudaEvent_t)&ms, NULL), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaEventDestroy)(a));
  assert_err(F(cudaEventDestroy)(a), cudaErrorInvalidResourceHandle);
  assert_err(F(cudaEventSynchronize)(a), cudaErrorInvalidResourceHandle);
  assert_ok(F(cudaEventDestroy)(b));
  assert_ok(F(cudaEventDestroy)(nt));
  assert_ok(F(cudaEventDestroy)(never));
  assert_ok(F(cudaFree)(d));
  F(cudaGetLastError)();
}

/* ---- sticky errors and reset (run last: they reset the device) ---- */

static void test_assert_sticky(void **state) {
  (void)state;
  int v = 3;
  void *args[] = {&v};
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2); /* the assertion message and smemu's note */
  launch1(&stub_check, 1, 32, args, 0);
  cudaError_t e = F(cudaDeviceSynchronize)();
  dup2(saved, 2);
  close(saved);
  close(null);
  assert_err(e, cudaErrorAssert);
  void *p = NULL;
  /* CUDA 13: cudaGetLastError returns the fault once and clears it; the
   * calls that need the device keep returning it (and record it again) */
  assert_err(F(cudaGetLastError)(), cudaErrorAssert);
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  assert_err(F(cudaPeekAtLastError)(), cudaSuccess);
  assert_err(F(cudaMalloc)(&p, 16), cudaErrorAssert);
  assert_err(F(cudaPeekAtLastError)(), cudaErrorAssert);
  assert_err(F(cudaGetLastError)(), cudaErrorAssert);
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  assert_err(launch_cfg(&stub_add_one, (dim3){1, 1, 1}, (dim3){1, 1, 1}, args, 0, NULL), cudaErrorAssert);
  assert_err(F(cudaGetLastError)(), cudaErrorAssert);
  assert_err(F(cudaDeviceSynchronize)(), cudaErrorAssert);
  int n = 0;
  assert_ok(F(cudaGetDeviceCount)(&n));
  assert_ok(F(cudaDeviceReset)());
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  assert_ok(F(cudaMalloc)(&p, 16));
  assert_ok(F(cudaFree)(p));
}

static void test_illegal_address_and_reset(void **state) {
  (void)state;
  int *bad = (int *)16;
  void *args[] = {&bad};
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  launch1(&stub_write_to, 1, 32, args, 0);
  assert_ok(F(cudaGetLastError)()); /* the launch itself was fine */
  cudaError_t e = F(cudaStreamSynchronize)(NULL);
  dup2(saved, 2);
  close(saved);
  close(null);
  assert_err(e, cudaErrorIllegalAddress);
  assert_err(F(cudaDeviceSynchronize)(), cudaErrorIllegalAddress);
  assert_err(F(cudaGetLastError)(), cudaErrorIllegalAddress);
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  assert_err(F(cudaStreamSynchronize)(NULL), cudaErrorIllegalAddress);
  assert_ok(F(cudaDeviceReset)());
  assert_err(F(cudaGetLastError)(), cudaSuccess);
  /* the reset freed every allocation and put variables back */
  int v = 0;
  assert_ok(F(cudaMemcpyFromSymbol)(&v, &shadow_dev_var, sizeof v, 0, cudaMemcpyDeviceToHost));
  assert_int_equal(v, 5);
  int *d = dev_ints(8, 4), h[8], n = 8;
  void *a2[] = {&d, &n};
  launch1(&stub_add_one, 1, 8, a2, 0);
  assert_ok(F(cudaMemcpy)(h, d, sizeof h, cudaMemcpyDeviceToHost));
  assert_int_equal(h[7], 5);
  assert_ok(F(cudaDeviceReset)());
  assert_err(F(cudaMemcpy)(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  F(cudaGetLastError)();
}

/* ---- the driver API, through libcuda.so.1 ---- */

typedef int CUresult;
#define D(name, type) ((type)dlsym(drv, #name))

static void test_driver_api(void **state) {
  (void)state;
  if (!drv) fail_msg("cannot open libcuda.so.1");
  CUresult (*init)(unsigned) = D(cuInit, CUresult(*)(unsigned));
  CUresult (*devget)(int *, int) = D(cuDeviceGet, CUresult(*)(int *, int));
  CUresult (*count)(int *) = D(cuDeviceGetCount, CUresult(*)(int *));
  CUresult (*attr)(int *, int, int) = D(cuDeviceGetAttribute, CUresult(*)(int *, int, int));
  CUresult (*name)(char *, int, int) = D(cuDeviceGetName, CUresult(*)(char *, int, int));
  CUresult (*ctxcreate)(void **, void *, unsigned, int) = D(cuCtxCreate_v4, CUresult(*)(void **, void *, unsigned, int));
  CUresult (*ctxdestroy)(void *) = D(cuCtxDestroy_v2, CUresult(*)(void *));
  CUresult (*ctxsync)(void) = D(cuCtxSynchronize, CUresult(*)(void));
  CUresult (*load)(void **, const void *) = D(cuModuleLoadData, CUresult(*)(void **, const void *));
  CUresult (*loadex)(void **, const void *, unsigned, int *, void **) =
      D(cuModuleLoadDataEx, CUresult(*)(void **, const void *, unsigned, int *, void **));
  CUresult (*getfn)(void **, void *, const char *) = D(cuModuleGetFunction, CUresult(*)(void **, void *, const char *));
  CUresult (*getglobal)(unsigned long long *, size_t *, void *, const char *) =
      D(cuModuleGetGlobal_v2, CUresult(*)(unsigned long long *, size_t *, void *, const char *));
  CUresult (*unload)(void *) = D(cuModuleUnload, CUresult(*)(void *));
  CUresult (*alloc)(unsigned long long *, size_t) = D(cuMemAlloc_v2, CUresult(*)(unsigned long long *, size_t));
  CUresult (*mfree)(unsigned long long) = D(cuMemFree_v2, CUresult(*)(unsigned long long));
  CUresult (*htod)(unsigned long long, const void *, size_t) =
      D(cuMemcpyHtoD_v2, CUresult(*)(unsigned long long, const void *, size_t));
  CUresult (*dtoh)(void *, unsigned long long, size_t) = D(cuMemcpyDtoH_v2, CUresult(*)(void *, unsigned long long, size_t));
  CUresult (*setd32)(unsigned long long, unsigned, size_t) =
      D(cuMemsetD32_v2, CUresult(*)(unsigned long long, unsigned, size_t));
  CUresult (*launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **,
                     void **) = D(cuLaunchKernel, CUresult(*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                                                              unsigned, unsigned, void *, void **, void **));
  CUresult (*fattr)(int *, int, void *) = D(cuFuncGetAttribute, CUresult(*)(int *, int, void *));
  CUresult (*errname)(CUresult, const char **) = D(cuGetErrorName, CUresult(*)(CUresult, const char **));
  CUresult (*errstr)(CUresult, const char **) = D(cuGetErrorString, CUresult(*)(CUresult, const char **));
  assert_non_null(init);
  assert_non_null(launch);
  int dev = -1, n = 0, v = 0;
  /* the runtime API has run in this process and initialised the driver, as
   * CUDA's does (tests/hw/harden: driver copies work without cuInit) */
  assert_int_equal(devget(&dev, 0), 0);
  assert_int_equal(init(0), 0);
  assert_int_equal(count(&n), 0);
  assert_int_equal(n, 1);
  assert_int_equal(devget(&dev, 0), 0);
  assert_int_equal(devget(&dev, 1), 101);
  assert_int_equal(attr(&v, 75, dev), 0); /* compute capability major */
  assert_int_equal(v, 9);
  char nm[128];
  assert_int_equal(name(nm, sizeof nm, dev), 0);
  void *ctx = NULL, *mod = NULL, *fn = NULL;
  assert_int_equal(ctxcreate(&ctx, NULL, 0, dev), 0);
  assert_int_equal(load(&mod, ptx_text), 0);
  assert_int_equal(getfn(&fn, mod, "add_one"), 0);
  void *none = NULL;
  assert_int_equal(getfn(&none, mod, "nope"), 500);
  unsigned long long d = 0, g = 0;
  size_t gsize = 0;
  assert_int_equal(alloc(&d, 16 * sizeof(int)), 0);
  assert_int_equal(setd32(d, 41, 16), 0);
  int count16 = 16;
  void *params[] = {&d, &count16};
  assert_int_equal(launch(fn, 1, 1, 1, 16, 1, 1, 0, NULL, params, NULL), 0);
  /* the same with a packed parameter buffer */
  struct {
    unsigned long long p;
    int n;
  } packed = {d, 16};
  size_t psize = sizeof packed;
  void *extra[] = {(void *)1, &packed, (void *)2, &psize, (void *)0};
  assert_int_equal(launch(fn, 1, 1, 1, 16, 1, 1, 0, NULL, NULL, extra), 0);
  assert_int_equal(launch(fn, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), 1);
  assert_int_equal(ctxsync(), 0);
  int h[16];
  assert_int_equal(dtoh(h, d, sizeof h), 0);
  assert_int_equal(h[15], 43);
  assert_int_equal(htod(d, h, sizeof h), 0);
  assert_int_equal(getglobal(&g, &gsize, mod, "dev_var"), 0);
  assert_int_equal(gsize, 4);
  assert_int_equal(dtoh(&v, g, 4), 0);
  assert_int_equal(v, 5);
  assert_int_equal(fattr(&v, 0, fn), 0); /* max threads per block */
  assert_int_equal(v, 1024);
  char log[256] = "x";
  int opts[] = {5, 6};
  void *vals[] = {log, (void *)(size_t)sizeof log};
  void *bad = NULL;
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  CUresult r = loadex(&bad, "// not ptx\n.version 9.0\n.target sm_90\n.address_size 64\n garbage {", 2, opts, vals);
  dup2(saved, 2);
  close(saved);
  close(null);
  assert_int_equal(r, 218);
  assert_true(strlen(log) > 0);
  const char *s = NULL;
  assert_int_equal(errname(700, &s), 0);
  assert_string_equal(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
  assert_int_equal(errstr(1, &s), 0);
  assert_string_equal(s, "invalid argument");
  assert_int_equal(mfree(d), 0);
  assert_int_equal(unload(mod), 0);
  assert_int_equal(unload(mod), 400);
  assert_int_equal(ctxdestroy(ctx), 0);
}


/* ---- a kernel that does not decode ---- */

/* A module whose kernel `bad` holds an instruction smemu does not know (at
 * PTX line 12, column 3) next to a good one: launching `bad` must say why
 * it cannot run, once, with the PTX line:col, and fail as a GPU whose PTX
 * JIT compiler rejects the code does (cudaErrorInvalidPtx); the good kernel
 * still runs. The same through the driver API's cuModuleGetFunction. */
static const char undecodable_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry good(.param .u64 p)\n{\n  ret;\n}\n"
    ".visible .entry bad(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  frobnicate.u32 %r2, %r1;\n"
    "  ret;\n}\n";
static char stub_good, stub_bad;
static void *bad_fn, *bad_mod;
static int launch_rc[4];

static char *capture_stderr(void (*f)(void)) {
  char path[] = "/tmp/smemu-test-err-XXXXXX";
  int fd = mkstemp(path), saved = dup(2);
  fflush(stderr);
  dup2(fd, 2);
  f();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  char *s = tu_read_file(path, NULL);
  unlink(path);
  return s ? s : strdup("");
}

static int count_of(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, sub)); p++) n++;
  return n;
}

static void launch_bad_twice(void) {
  void *args[] = {&bad_fn};
  launch_rc[0] = F(cudaLaunchKernel)(&stub_good, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL);
  launch_rc[1] = F(cudaLaunchKernel)(&stub_bad, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL);
  launch_rc[2] = F(cudaLaunchKernel)(&stub_bad, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL);
  launch_rc[3] = F(cudaGetLastError)();
}

static void driver_get_bad_twice(void) {
  CUresult (*load)(void **, const void *) = D(cuModuleLoadData, CUresult(*)(void **, const void *));
  CUresult (*getfn)(void **, void *, const char *) = D(cuModuleGetFunction, CUresult(*)(void **, void *, const char *));
  void *fn = NULL;
  launch_rc[0] = load(&bad_mod, undecodable_ptx);
  launch_rc[1] = getfn(&fn, bad_mod, "bad");
  launch_rc[2] = getfn(&fn, bad_mod, "bad");
  launch_rc[3] = getfn(&fn, bad_mod, "good");
}

static void test_undecodable_kernel(void **state) {
  (void)state;
  char *saved_text = ptx_text;
  size_t saved_len = ptx_len;
  ptx_text = (char *)undecodable_ptx;
  ptx_len = strlen(undecodable_ptx);
  uint8_t *fb = make_fatbin(0);
  ptx_text = saved_text;
  ptx_len = saved_len;
  static wrapper w;
  w = (wrapper){0x466243b1, 1, fb, NULL};
  void **h = F(__cudaRegisterFatBinary)(&w);
  reg_fun(h, &stub_good, "good");
  reg_fun(h, &stub_bad, "bad");
  F(__cudaRegisterFatBinaryEnd)(h);
  char *err = capture_stderr(launch_bad_twice);
  assert_err(launch_rc[0], cudaSuccess);
  assert_err(launch_rc[1], cudaErrorInvalidPtx);
  assert_err(launch_rc[2], cudaErrorInvalidPtx);
  assert_err(launch_rc[3], cudaErrorInvalidPtx);
  if (!strstr(err, "kernel bad cannot run: ") || !strstr(err, ":12:3: unknown instruction 'frobnicate.u32'"))
    fail_msg("stderr: %s", err);
  assert_int_equal(count_of(err, "frobnicate"), 1); /* once */
  assert_null(strstr(err, "registered but not in the PTX"));
  free(err);
  assert_ok(F(cudaDeviceSynchronize)());

  /* a module that does not parse: every kernel fails the same way, the
   * parser's line:col said once */
  ptx_text = (char *)".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry good(.param .u64 p)\n"
                     "{\n  ret;\n}\n.visible .entry bad(.param .u64 p)\n{\n  mov.u32 %r1, 1 2;\n}\n";
  ptx_len = strlen(ptx_text);
  uint8_t *fb2 = make_fatbin(0);
  ptx_text = saved_text;
  ptx_len = saved_len;
  static wrapper w2;
  w2 = (wrapper){0x466243b1, 1, fb2, NULL};
  h = F(__cudaRegisterFatBinary)(&w2);
  reg_fun(h, &stub_good, "good");
  reg_fun(h, &stub_bad, "bad");
  F(__cudaRegisterFatBinaryEnd)(h);
  err = capture_stderr(launch_bad_twice);
  assert_err(launch_rc[0], cudaErrorInvalidPtx);
  assert_err(launch_rc[1], cudaErrorInvalidPtx);
  if (!strstr(err, ":10:18: expected ',' or ';' after an operand, found '2'")) fail_msg("stderr: %s", err);
  assert_int_equal(count_of(err, "expected ','"), 1);
  free(err);

  if (!drv) fail_msg("cannot open libcuda.so.1");
  err = capture_stderr(driver_get_bad_twice);
  assert_int_equal(launch_rc[0], 0);   /* the good kernel decodes: the module loads */
  assert_int_equal(launch_rc[1], 218); /* CUDA_ERROR_INVALID_PTX */
  assert_int_equal(launch_rc[2], 218);
  assert_int_equal(launch_rc[3], 0);
  if (!strstr(err, "kernel bad cannot run: cuModuleLoadData image:12:3: unknown instruction 'frobnicate.u32'"))
    fail_msg("stderr: %s", err);
  assert_int_equal(count_of(err, "frobnicate"), 1);
  free(err);
  CUresult (*unload)(void *) = D(cuModuleUnload, CUresult(*)(void *));
  assert_int_equal(unload(bad_mod), 0);
  /* a module whose only kernel does not decode does not load; the JIT
   * error log names the kernel */
  static const char only_bad[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                 ".visible .entry bad(.param .u64 p)\n{\n  frobnicate.u32 %r1, %r1;\n}\n";
  CUresult (*loadex)(void **, const void *, unsigned, int *, void **) =
      D(cuModuleLoadDataEx, CUresult(*)(void **, const void *, unsigned, int *, void **));
  char log[512] = "";
  int opts[] = {5, 6};
  void *vals[] = {log, (void *)(size_t)sizeof log}, *mod2 = NULL;
  int saved = dup(2), null = open("/dev/null", O_WRONLY);
  dup2(null, 2);
  CUresult r = loadex(&mod2, only_bad, 2, opts, vals);
  dup2(saved, 2);
  close(saved);
  close(null);
  assert_int_equal(r, 218);
  if (!strstr(log, ":6:3: unknown instruction 'frobnicate.u32'") || !strstr(log, "(kernel bad cannot run)"))
    fail_msg("log: %s", log);
}


/* ---- the checks' summary names each class ---- */

/* Two launches under SMEMU_CHECK=sync,init: `uninit` reads a __shared__
 * word nothing wrote (one line: one initcheck finding), `maskless` runs
 * bar.warp.sync 0xfffffffe on a full warp (lane 0 is not in the mask: one
 * barrier error, for the 32 threads, then an illegal instruction). The summary at exit must count one of each, under its
 * own name. */
static const char checks_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry uninit(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n  .shared .align 4 .b32 s[32];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  ld.shared.u32 %r1, [s];\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ".visible .entry maskless(.param .u64 p)\n{\n"
    "  bar.warp.sync 0xfffffffe;\n  ret;\n}\n";
static char stub_uninit, stub_maskless;

static int checks_child(void) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 2;
  ptx_text = (char *)checks_ptx;
  ptx_len = strlen(checks_ptx);
  static wrapper w;
  w = (wrapper){0x466243b1, 1, make_fatbin(0), NULL};
  void **h = F(__cudaRegisterFatBinary)(&w);
  reg_fun(h, &stub_uninit, "uninit");
  reg_fun(h, &stub_maskless, "maskless");
  F(__cudaRegisterFatBinaryEnd)(h);
  int *d = NULL;
  if (F(cudaMalloc)((void **)&d, 64)) return 3;
  void *args[] = {&d};
  if (F(cudaLaunchKernel)(&stub_uninit, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL)) return 4;
  if (F(cudaLaunchKernel)(&stub_maskless, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL)) return 5;
  /* the mask without the caller then traps, as on an H100 */
  if (F(cudaDeviceSynchronize)() != cudaErrorIllegalInstruction) return 6;
  return 0; /* the runtime writes its summary at exit */
}

static void test_checks_summary_classes(void **state) {
  (void)state;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  assert_true(n > 0);
  exe[n] = 0;
  char *argv[] = {exe, "--checks-child", NULL};
  char *env[] = {"SMEMU_CHECK=sync,init", NULL};
  tu_run r;
  assert_int_equal(tu_spawn(argv, env, &r), 0);
  if (r.rc || !strstr(r.err, "== smemu checks: 2 launches checked, 0 hazards, 1 barrier error, 1 uninitialized shared read, 0 uninitialized global reads\n"))
    fail_msg("checks child: exit %d\n%s%s", r.rc, r.out, r.err);
  tu_run_free(&r);
}


/* ---- the bank size of 3.x, per kernel ---- */

/* On compute capability 3.x cudaFuncSetSharedMemConfig picks a kernel's
 * bank size, over the device's (CUDA C Programming Guide, 3.x shared
 * memory). `stride2` (named for its steps of two 8-byte words) reads the
 * 32-bit word 6t (byte 24t) in thread t of one warp. 4-byte mode: bank
 * 6t % 32, so lanes t and t + 16 meet (96 % 32 = 0) at bytes 24t and 24t +
 * 384, in different 256-byte segments (which a 64-bit bank does not serve
 * together): 2 wavefronts. 8-byte mode: bank (24t / 8) % 32 = 3t % 32, all
 * different (3 is odd): 1 wavefront. On sm_90 (4-byte banks only) 2.
 * The child launches it four times:
 *   device 4-byte, kernel default       -> 2
 *   device 4-byte, kernel 8-byte        -> 1
 *   device 8-byte, kernel 4-byte        -> 2
 *   device 8-byte, kernel default       -> 1
 * and the runtime's JSON (SMEMU_JSON) lists each launch's wavefronts. On
 * sm_90 the same calls change nothing (HARDWARE.md: a no-op there). */
static const char stride2_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry stride2(.param .u64 p)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .shared .align 8 .b32 s[200];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, 24;\n  mov.u32 %r3, s;\n  add.u32 %r2, %r2, %r3;\n"
    "  ld.shared.u32 %r3, [%r2];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd1, %rd1;\n  st.global.u32 [%rd1], %r3;\n  ret;\n}\n";
static char stub_stride2;

static int bank_config_child(void) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 2;
  ptx_text = (char *)stride2_ptx;
  ptx_len = strlen(stride2_ptx);
  static wrapper w;
  w = (wrapper){0x466243b1, 1, make_fatbin(0), NULL};
  void **h = F(__cudaRegisterFatBinary)(&w);
  reg_fun(h, &stub_stride2, "stride2");
  F(__cudaRegisterFatBinaryEnd)(h);
  int *d = NULL;
  if (F(cudaMalloc)((void **)&d, 64)) return 3;
  void *args[] = {&d};
  static const enum cudaSharedMemConfig dev[4] = {cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeFourByte,
                                                  cudaSharedMemBankSizeEightByte, cudaSharedMemBankSizeEightByte};
  static const enum cudaSharedMemConfig fun[4] = {cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeEightByte,
                                                  cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeDefault};
  for (int i = 0; i < 4; i++) {
    if (F(cudaDeviceSetSharedMemConfig)(dev[i])) return 4;
    if (F(cudaFuncSetSharedMemConfig)(&stub_stride2, fun[i])) return 5;
    if (F(cudaLaunchKernel)(&stub_stride2, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, NULL)) return 6;
  }
  return F(cudaDeviceSynchronize)() ? 7 : 0;
}

/* The wavefront counts of the child's launches on arch, in order. */
static void bank_config_run(const char *arch, const int want[4]) {
  char exe[PATH_MAX], json[] = "/tmp/smemu-test-banks-XXXXXX", envj[64], enva[64];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  assert_true(n > 0);
  exe[n] = 0;
  int fd = mkstemp(json);
  close(fd);
  snprintf(envj, sizeof envj, "SMEMU_JSON=%s", json);
  snprintf(enva, sizeof enva, "SMEMU_ARCH=%s", arch);
  char *argv[] = {exe, "--bank-config-child", NULL};
  char *env[] = {enva, "SMEMU_PTX_ANY=1", envj, "SMEMU_REPORT=banks", "SMEMU_REPORT_FILE=/dev/null", NULL};
  tu_run r;
  assert_int_equal(tu_spawn(argv, env, &r), 0);
  if (r.rc) fail_msg("bank config child on %s: exit %d\n%s%s", arch, r.rc, r.out, r.err);
  tu_run_free(&r);
  char *j = tu_read_file(json, NULL);
  unlink(json);
  assert_non_null(j);
  const char *p = j;
  for (int i = 0; i < 4; i++) {
    p = strstr(p, "\"shared_ld_wavefronts\": ");
    if (!p) fail_msg("%s: launch %d missing in %s", arch, i, j);
    p += strlen("\"shared_ld_wavefronts\": ");
    if (atoi(p) != want[i]) fail_msg("%s: launch %d has %d load wavefronts, expected %d\n%s", arch, i, atoi(p), want[i], j);
  }
  free(j);
}

static void test_bank_config_per_kernel(void **state) {
  (void)state;
  static const int kepler[4] = {2, 1, 2, 1}, hopper[4] = {2, 2, 2, 2};
  bank_config_run("sm_35", kepler);
  bank_config_run("sm_90", hopper);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--kepler")) return kepler_child();
  if (argc > 1 && !strcmp(argv[1], "--checks-child")) return checks_child();
  if (argc > 1 && !strcmp(argv[1], "--bank-config-child")) return bank_config_child();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_names),
      cmocka_unit_test(test_last_error),
      cmocka_unit_test(test_device),
      cmocka_unit_test(test_limits_and_config),
      cmocka_unit_test(test_shared_config_kepler),
      cmocka_unit_test(test_malloc_free),
      cmocka_unit_test(test_host_memory),
      cmocka_unit_test(test_managed_and_pitch),
      cmocka_unit_test(test_memcpy_memset),
      cmocka_unit_test(test_fatbin_zstd),
      cmocka_unit_test(test_fatbin_without_ptx),
      cmocka_unit_test(test_symbols),
      cmocka_unit_test(test_launch_paths),
      cmocka_unit_test(test_launch_errors),
      cmocka_unit_test(test_printf_deferred),
      cmocka_unit_test(test_func_attributes),
      cmocka_unit_test(test_occupancy),
      cmocka_unit_test(test_streams),
      cmocka_unit_test(test_events),
      cmocka_unit_test(test_driver_api),
      cmocka_unit_test(test_assert_sticky),
      cmocka_unit_test(test_illegal_address_and_reset),
      cmocka_unit_test(test_undecodable_kernel),
      cmocka_unit_test(test_checks_summary_classes),
      cmocka_unit_test(test_bank_config_per_kernel),
  };
  return cmocka_run_group_tests(tests, setup_lib, NULL);
}
