/* test_driver_ext.c: the driver API Python's CUDA stacks use
 * (runtime/driver/driver_ext.c, driver_proc.c) and the nvJitLink stand-in
 * (runtime/nvjitlink/), without Python: through build/runtime/libcuda.so.1
 * and libnvJitLink.so.13 as cuda-bindings reaches them (cuGetProcAddress),
 * on tests/runtime/api_kernels.ptx's add_one (x[i] += 1 for i < n). */
#include "../runtime/test_driver.h"
#include "../runtime/test_util.h"
#include <cmocka.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

static void *jit;
static char *ptx;
static size_t ptx_len;

static int setup(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  tu_open_driver();
  snprintf(path, sizeof path, "%s/runtime/libnvJitLink.so.13", tu_build_dir());
  jit = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  ptx = tu_read_file("tests/runtime/api_kernels.ptx", &ptx_len);
  if (!drv || !jit || !ptx) {
    fprintf(stderr, "needs build/runtime/libcuda.so.1, libnvJitLink.so.13 and tests/runtime/api_kernels.ptx "
                    "(run from the repository root)\n");
    return -1;
  }
  return tu_driver_context() ? -1 : 0;
}

static void test_proc_address(void **state) {
  (void)state;
  /* the highest ABI version: cuMemAlloc is cuMemAlloc_v2 */
  assert_ptr_equal(proc("cuMemAlloc"), dlsym(drv, "cuMemAlloc_v2"));
  assert_ptr_equal(proc("cuLaunchKernelEx"), dlsym(drv, "cuLaunchKernelEx"));
  CUresult (*gpa)(const char *, void **, int, unsigned long long, int *) = dlsym(drv, "cuGetProcAddress_v2");
  void *p = (void *)1;
  int status = 0;
  assert_int_equal(gpa("cuNoSuchFunction", &p, 13000, 0, &status), 500); /* CUDA_ERROR_NOT_FOUND */
  assert_null(p);
  assert_int_equal(status, 1); /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
  assert_int_equal(gpa(NULL, &p, 13000, 0, NULL), 1);
}

/* Link, load as a library, launch with cuLaunchKernelEx, check x[i] + 1. */
static void test_link_library_launch(void **state) {
  (void)state;
  void *ls = NULL, *image = NULL;
  size_t size = 0;
  assert_int_equal(CU(cuLinkCreate, unsigned, int *, void **, void **)(0, NULL, NULL, &ls), 0);
  assert_int_equal(CU(cuLinkAddData, void *, int, void *, size_t, const char *, unsigned, int *,
                      void **)(ls, 1 /* PTX */, ptx, ptx_len + 1, "api_kernels", 0, NULL, NULL),
                   0);
  /* the same module again: add_one would be defined twice; LTO-IR cannot run */
  assert_int_equal(CU(cuLinkAddData, void *, int, void *, size_t, const char *, unsigned, int *,
                      void **)(ls, 1, ptx, ptx_len + 1, "again", 0, NULL, NULL),
                   801);
  assert_int_equal(CU(cuLinkComplete, void *, void **, size_t *)(ls, &image, &size), 0);
  assert_int_equal(size, ptx_len + 1);
  assert_memory_equal(image, ptx, ptx_len);

  void *lib = NULL, *k = NULL, *f = NULL;
  assert_int_equal(CU(cuLibraryLoadData, void **, const void *, int *, void **, unsigned, int *, void **,
                      unsigned)(&lib, image, NULL, NULL, 0, NULL, NULL, 0),
                   0);
  assert_int_equal(CU(cuLinkDestroy, void *)(ls), 0);
  assert_int_equal(CU(cuLibraryGetKernel, void **, void *, const char *)(&k, lib, "add_one"), 0);
  assert_int_equal(CU(cuLibraryGetKernel, void **, void *, const char *)(&k, lib, "no_such"), 500);
  assert_int_equal(CU(cuLibraryGetKernel, void **, void *, const char *)(&k, lib, "add_one"), 0);
  assert_int_equal(CU(cuKernelGetFunction, void **, void *)(&f, k), 0);
  int maxt = 0;
  assert_int_equal(CU(cuKernelGetAttribute, int *, int, void *, int)(&maxt, 0, k, 0), 0);
  assert_int_equal(maxt, 1024); /* no __launch_bounds__: the device's limit */
  const char *name = NULL;
  assert_int_equal(CU(cuKernelGetName, const char **, void *)(&name, k), 0);
  assert_string_equal(name, "add_one");

  enum { N = 1000 };
  int host[N], back[N];
  for (int i = 0; i < N; i++) host[i] = 3 * i - 7;
  CUdeviceptr d = 0, base = 0;
  size_t bytes = 0;
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&d, sizeof host), 0);
  assert_int_equal(
      CU(cuMemcpyHtoDAsync, CUdeviceptr, const void *, size_t, void *)(d, host, sizeof host, NULL), 0);
  int n = N - 10; /* the last 10 stay as they were */
  void *params[] = {&d, &n};
  struct {
    unsigned gx, gy, gz, bx, by, bz, shared;
    void *stream;
    void *attrs;
    unsigned nattrs;
  } cfg = {4, 1, 1, 256, 1, 1, 0, NULL, NULL, 0};
  assert_int_equal(CU(cuLaunchKernelEx, const void *, void *, void **, void **)(&cfg, f, params, NULL), 0);
  assert_int_equal(CU(cuMemcpyDtoHAsync, void *, CUdeviceptr, size_t, void *)(back, d, sizeof back, NULL), 0);
  assert_int_equal(CU(cuStreamSynchronize, void *)(NULL), 0);
  for (int i = 0; i < N; i++) assert_int_equal(back[i], host[i] + (i < n));

  /* a cooperative launch runs (every block resident; tests/coop covers grid.sync()) */
  struct {
    int id;
    char pad[4];
    union {
      char b[64];
      int coop;
    } v;
  } attr = {2, {0}, {.coop = 1}};
  cfg.attrs = &attr;
  cfg.nattrs = 1;
  assert_int_equal(CU(cuLaunchKernelEx, const void *, void *, void **, void **)(&cfg, f, params, NULL), 0);
  assert_int_equal(CU(cuStreamSynchronize, void *)(NULL), 0);

  /* the allocation an interior pointer lies in; what kind of memory */
  assert_int_equal(CU(cuMemGetAddressRange, CUdeviceptr *, size_t *, CUdeviceptr)(&base, &bytes, d + 40), 0);
  assert_true(base == d && bytes == sizeof host);
  unsigned type = 0;
  assert_int_equal(CU(cuPointerGetAttribute, void *, int, CUdeviceptr)(&type, 2, d + 4), 0);
  assert_int_equal(type, 2); /* CU_MEMORYTYPE_DEVICE */
  void *pinned = NULL;
  assert_int_equal(CU(cuMemHostAlloc, void **, size_t, unsigned)(&pinned, 64, 0), 0);
  assert_int_equal(
      CU(cuPointerGetAttribute, void *, int, CUdeviceptr)(&type, 2, (CUdeviceptr)(uintptr_t)pinned), 0);
  assert_int_equal(type, 1); /* CU_MEMORYTYPE_HOST */
  assert_int_equal(CU(cuMemFreeHost, void *)(pinned), 0);
  assert_int_equal(
      CU(cuMemGetAddressRange, CUdeviceptr *, size_t *, CUdeviceptr)(&base, &bytes, (CUdeviceptr)&n), 1);

  /* occupancy: the block size search lands on whole warps */
  int grid = 0, block = 0;
  assert_int_equal(CU(cuOccupancyMaxPotentialBlockSize, int *, int *, void *, size_t (*)(int), size_t,
                      int)(&grid, &block, f, NULL, 0, 0),
                   0);
  assert_true(block > 0 && block <= 1024 && block % 32 == 0);
  assert_true(grid > 0);
  assert_int_equal(CU(cuMemFree, CUdeviceptr)(d), 0);
  assert_int_equal(CU(cuLibraryUnload, void *)(lib), 0);
}

static void test_nvjitlink(void **state) {
  (void)state;
  typedef int (*create_t)(void **, uint32_t, const char **);
  typedef int (*add_t)(void *, int, const void *, size_t, const char *);
  typedef int (*one_t)(void *);
  typedef int (*size_t_)(void *, size_t *);
  typedef int (*get_t)(void *, void *);
  typedef int (*destroy_t)(void **);
  create_t create = (create_t)dlsym(jit, "__nvJitLinkCreate_13_0");
  add_t add = (add_t)dlsym(jit, "__nvJitLinkAddData_13_0");
  one_t complete = (one_t)dlsym(jit, "nvJitLinkComplete");
  size_t_ cubin_size = (size_t_)dlsym(jit, "nvJitLinkGetLinkedCubinSize");
  get_t cubin = (get_t)dlsym(jit, "nvJitLinkGetLinkedCubin");
  size_t_ log_size = (size_t_)dlsym(jit, "nvJitLinkGetErrorLogSize");
  get_t log = (get_t)dlsym(jit, "nvJitLinkGetErrorLog");
  destroy_t destroy = (destroy_t)dlsym(jit, "nvJitLinkDestroy");
  assert_true(create && add && complete && cubin_size && cubin && log_size && log && destroy);
  /* no version symbol: numba-cuda then compiles to PTX, not LTO-IR */
  assert_null(dlsym(jit, "nvJitLinkVersion"));

  const char *opts[] = {"-arch=sm_90"};
  void *h = NULL;
  size_t n = 0;
  assert_int_equal(create(&h, 1, opts), 0);
  assert_int_equal(add(h, 2 /* PTX */, ptx, ptx_len, "api_kernels.ptx"), 0);
  assert_int_equal(complete(h), 0);
  assert_int_equal(cubin_size(h, &n), 0);
  assert_int_equal(n, ptx_len + 1);
  char *out = malloc(n);
  assert_int_equal(cubin(h, out), 0);
  assert_memory_equal(out, ptx, ptx_len);
  free(out);
  assert_int_equal(destroy(&h), 0);
  assert_null(h);

  assert_int_equal(create(&h, 0, NULL), 0);
  assert_int_equal(add(h, 3 /* LTO-IR */, "BC", 2, "kernel.ltoir"), 3); /* INVALID_INPUT */
  assert_int_equal(complete(h), 3);
  assert_int_equal(log_size(h, &n), 0);
  char msg[600];
  assert_true(n > 1 && n <= sizeof msg);
  assert_int_equal(log(h, msg), 0);
  assert_non_null(strstr(msg, "kernel.ltoir is not PTX"));
  assert_int_equal(destroy(&h), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_proc_address),
      cmocka_unit_test(test_link_library_launch),
      cmocka_unit_test(test_nvjitlink),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
