/* test_runtime_small_api.c: the runtime's smaller API areas through
 * build/runtime/libcudart.so.13 and libcuda.so.1: the generated stubs of
 * runtime/entries.def, stream attributes, launch attributes, parameter
 * layout, user objects, the log API, the library API and the peer queries
 * of one device. Kernels come from tests/runtime/api_kernels.ptx loaded as
 * a library; add_one(int *x, unsigned n) does x[i] += 1 for i < n. The
 * expected error codes are the ones CUDA 13.0's header documentation
 * states; tests/hw/rtapi/small_api.out has an H200's answers to many of
 * them, which tests/runtime/programs.txt's small_api compares. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../runtime/cuda_abi.h"
#include "../runtime/test_util.h"

static void *lib, *drv;
static char *ptx;
static size_t ptx_len;

static void *sym(void *h, const char *name) {
  void *p = dlsym(h, name);
  if (!p) fail_msg("%s is not exported", name);
  return p;
}
#define F(name) ((__typeof__(&name))sym(lib, #name))
/* a function of the library by name with the given type (no declaration) */
#define G(type, name) ((type)sym(lib, name))

typedef int CUresult;

static int setup(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  snprintf(path, sizeof path, "%s/runtime/libcuda.so.1", tu_build_dir());
  drv = lib ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  ptx = tu_read_file("tests/runtime/api_kernels.ptx", &ptx_len);
  if (!lib || !drv || !ptx) {
    fprintf(stderr, "needs build/runtime/libcudart.so.13, libcuda.so.1 and tests/runtime/api_kernels.ptx "
                    "(run from the repository root)\n");
    return -1;
  }
  setenv("SMEMU_QUIET", "1", 1);
  return 0;
}

static cudaLibrary_t load_library(void) {
  cudaLibrary_t l = NULL;
  assert_int_equal(F(cudaLibraryLoadData)(&l, ptx, NULL, NULL, 0, NULL, NULL, 0), cudaSuccess);
  assert_non_null(l);
  return l;
}

/* ---- stubs ---- */

static void test_stubs(void **state) {
  (void)state;
  F(cudaGetLastError)();
  /* mapping external memory cannot happen on one emulated device: not
   * supported, recorded as the last error (not sticky) */
  assert_int_equal(
      G(int (*)(void *, void *, const void *), "cudaExternalMemoryGetMappedBuffer")(NULL, NULL, NULL), 801);
  assert_int_equal(F(cudaPeekAtLastError)(), 801);
  assert_int_equal(F(cudaGetLastError)(), 801);
  assert_int_equal(F(cudaGetLastError)(), cudaSuccess);
  int n;
  assert_int_equal(F(cudaGetDeviceCount)(&n), cudaSuccess);
  /* the driver's: the code, no last error */
  assert_int_equal(((CUresult(*)(void *, void *, unsigned, void *))sym(
                       drv, "cuSignalExternalSemaphoresAsync"))(NULL, NULL, 0, NULL),
                   801);
  assert_int_equal(F(cudaGetLastError)(), cudaSuccess);
  /* a name with only stubs resolves to the newest, which says "not supported" */
  CUresult (*gpa)(const char *, void **, int, unsigned long long, int *) = sym(drv, "cuGetProcAddress_v2");
  void *fn = NULL;
  int status = -1;
  assert_int_equal(gpa("cuStreamWaitValue32", &fn, 13000, 0, &status), 0);
  assert_ptr_equal(fn, sym(drv, "cuStreamWaitValue32_v2"));
  assert_int_equal(((CUresult(*)(void))fn)(), 801);
  /* an implemented function keeps its newest implemented version */
  assert_int_equal(gpa("cuCtxSynchronize", &fn, 13000, 0, &status), 0);
  assert_ptr_equal(fn, sym(drv, "cuCtxSynchronize_v2"));
}

/* ---- stream attributes ---- */

static void test_stream_attributes(void **state) {
  (void)state;
  cudaStream_t a, b;
  unsigned char v[64], w[64];
  assert_int_equal(F(cudaStreamCreateWithPriority)(&a, 0, -3), cudaSuccess);
  assert_int_equal(F(cudaStreamCreate)(&b), cudaSuccess);
  /* the priority attribute is the stream's priority */
  assert_int_equal(F(cudaStreamGetAttribute)(a, 8, v), cudaSuccess);
  assert_int_equal(*(int *)v, -3);
  memset(v, 0, sizeof v);
  *(int *)v = -1;
  assert_int_equal(F(cudaStreamSetAttribute)(a, 8, v), cudaSuccess);
  int prio = 0;
  assert_int_equal(F(cudaStreamGetPriority)(a, &prio), cudaSuccess);
  assert_int_equal(prio, -1);
  /* unset attributes read as an H200's: policy -1, domain map {0, 1} */
  memset(w, 0x55, sizeof w);
  assert_int_equal(F(cudaStreamGetAttribute)(b, 3, w), cudaSuccess);
  assert_int_equal(*(int *)w, -1);
  assert_int_equal(F(cudaStreamGetAttribute)(b, 9, w), cudaSuccess);
  assert_int_equal(w[0], 0);
  assert_int_equal(w[1], 1);
  /* synchronisation policy: spin (2) set, read back, copied */
  memset(v, 0, sizeof v);
  *(int *)v = 2;
  assert_int_equal(F(cudaStreamSetAttribute)(a, 3, v), cudaSuccess);
  assert_int_equal(F(cudaStreamGetAttribute)(a, 3, w), cudaSuccess);
  assert_int_equal(*(int *)w, 2);
  assert_int_equal(F(cudaStreamCopyAttributes)(b, a), cudaSuccess);
  memset(w, 0, sizeof w);
  assert_int_equal(F(cudaStreamGetAttribute)(b, 3, w), cudaSuccess);
  assert_int_equal(*(int *)w, 2);
  assert_int_equal(F(cudaStreamGetPriority)(b, &prio), cudaSuccess);
  assert_int_equal(prio, -1);
  /* the cluster dimension is a launch attribute, not a stream's */
  assert_int_equal(F(cudaStreamGetAttribute)(a, 4, w), cudaErrorInvalidValue);
  assert_int_equal(F(cudaStreamSetAttribute)(a, 99, v), cudaErrorInvalidValue);
  assert_int_equal(F(cudaStreamGetAttribute)(a, 3, NULL), cudaErrorInvalidValue);
  assert_int_equal(F(cudaStreamGetAttribute)((cudaStream_t)(uintptr_t)0x5000, 3, w),
                   cudaErrorInvalidResourceHandle);
  /* ids: distinct streams differ, the default stream's handles agree */
  unsigned long long ia, ib, i0, il;
  assert_int_equal(F(cudaStreamGetId)(a, &ia), cudaSuccess);
  assert_int_equal(F(cudaStreamGetId)(b, &ib), cudaSuccess);
  assert_int_equal(F(cudaStreamGetId)(0, &i0), cudaSuccess);
  assert_int_equal(F(cudaStreamGetId)(cudaStreamLegacy, &il), cudaSuccess);
  assert_true(ia != ib && ia != i0);
  assert_true(i0 == il);
  int dev = -1;
  assert_int_equal(F(cudaStreamGetDevice)(a, &dev), cudaSuccess);
  assert_int_equal(dev, 0);
  /* the driver's names reach the same attributes */
  memset(w, 0, sizeof w);
  assert_int_equal(((CUresult(*)(cudaStream_t, int, void *))sym(drv, "cuStreamGetAttribute"))(b, 3, w), 0);
  assert_int_equal(*(int *)w, 2);
  F(cudaStreamDestroy)(a);
  F(cudaStreamDestroy)(b);
  F(cudaGetLastError)();
}

/* ---- launches through a library kernel, with attributes ---- */

static void test_library_and_launch_attributes(void **state) {
  (void)state;
  cudaLibrary_t l = load_library();
  unsigned count = 0;
  assert_int_equal(F(cudaLibraryGetKernelCount)(&count, l), cudaSuccess);
  assert_int_equal(count, 8); /* api_kernels.ptx's eight .entry */
  cudaKernel_t ks[8];
  assert_int_equal(F(cudaLibraryEnumerateKernels)(ks, 8, l), cudaSuccess);
  const char *name = NULL;
  assert_int_equal(F(cudaFuncGetName)(&name, (const void *)ks[0]), cudaSuccess);
  assert_string_equal(name, "add_one");
  assert_int_equal(F(cudaFuncGetName)(&name, (const void *)ks[7]), cudaSuccess);
  assert_string_equal(name, "write_to");
  cudaKernel_t k = NULL;
  assert_int_equal(F(cudaLibraryGetKernel)(&k, l, "add_one"), cudaSuccess);
  assert_ptr_equal(k, ks[0]);
  assert_int_equal(F(cudaLibraryGetKernel)(&k, l, "nope"), cudaErrorSymbolNotFound);
  assert_int_equal(F(cudaLibraryGetKernel)(&k, l, "add_one"), cudaSuccess);

  /* parameter layout: (u64 x at 0, 8 bytes; u32 n at 8, 4 bytes) */
  size_t off = 99, size = 99;
  assert_int_equal(F(cudaFuncGetParamInfo)((const void *)k, 0, &off, &size), cudaSuccess);
  assert_int_equal(off, 0);
  assert_int_equal(size, 8);
  assert_int_equal(F(cudaFuncGetParamInfo)((const void *)k, 1, &off, &size), cudaSuccess);
  assert_int_equal(off, 8);
  assert_int_equal(size, 4);
  assert_int_equal(F(cudaFuncGetParamInfo)((const void *)k, 2, &off, &size), cudaErrorInvalidValue);
  assert_int_equal(
      ((CUresult(*)(void *, size_t, size_t *, size_t *))sym(drv, "cuKernelGetParamInfo"))(k, 1, &off, &size),
      0);
  assert_int_equal(off, 8);

  /* a library global keeps its PTX initialiser (dev_var = 5) */
  void *gp = NULL;
  size_t gn = 0;
  assert_int_equal(F(cudaLibraryGetGlobal)(&gp, &gn, l, "dev_var"), cudaSuccess);
  assert_int_equal(gn, 4);
  int gv = 0;
  assert_int_equal(F(cudaMemcpy)(&gv, gp, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  assert_int_equal(gv, 5);
  assert_int_equal(F(cudaLibraryGetManaged)(&gp, &gn, l, "dev_var"), cudaErrorSymbolNotFound);
  void *fp;
  assert_int_equal(F(cudaLibraryGetUnifiedFunction)(&fp, l, "add_one"), cudaErrorInvalidValue);

  /* cudaLaunchKernelEx with a priority and a launch-completion event: the
   * event completes with the kernel, which added 1 to each of 64 ints */
  enum { N = 64 };
  int host[N], *dx = NULL;
  for (int i = 0; i < N; i++) host[i] = i;
  assert_int_equal(F(cudaMalloc)((void **)&dx, sizeof host), cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(dx, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  cudaEvent_t start, done;
  assert_int_equal(F(cudaEventCreate)(&start), cudaSuccess);
  assert_int_equal(F(cudaEventCreate)(&done), cudaSuccess);
  assert_int_equal(F(cudaEventRecord)(start, 0), cudaSuccess);
  unsigned n = N;
  void *args[] = {&dx, &n};
  struct {
    int id;
    char pad[4];
    union {
      unsigned char bytes[64];
      int i;
      struct {
        cudaEvent_t ev;
        int flags;
      } e;
    } v;
  } attrs[2];
  memset(attrs, 0, sizeof attrs);
  attrs[0].id = 8; /* priority */
  attrs[0].v.i = -2;
  attrs[1].id = 12; /* launch completion event */
  attrs[1].v.e.ev = done;
  cudaLaunchConfig_t cfg = {{1, 1, 1}, {N, 1, 1}, 0, 0, (cudaLaunchAttribute *)attrs, 2};
  assert_int_equal(F(cudaLaunchKernelExC)(&cfg, (const void *)k, args), cudaSuccess);
  assert_int_equal(F(cudaEventSynchronize)(done), cudaSuccess);
  assert_int_equal(F(cudaEventQuery)(done), cudaSuccess);
  /* only a recorded event has a time */
  float ms = -1;
  assert_int_equal(F(cudaEventElapsedTime)(&ms, start, done), cudaSuccess);
  assert_true(ms >= 0);
  assert_int_equal(F(cudaMemcpy)(host, dx, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < N; i++) assert_int_equal(host[i], i + 1);
  /* an unknown attribute fails the launch, which does not run */
  attrs[0].id = 15;
  assert_int_equal(F(cudaLaunchKernelExC)(&cfg, (const void *)k, args), cudaErrorInvalidValue);
  assert_int_equal(F(cudaGetLastError)(), cudaErrorInvalidValue);
  /* a cooperative launch runs (tests/coop covers grid.sync()) */
  attrs[0].id = 2;
  attrs[0].v.i = 1;
  assert_int_equal(F(cudaLaunchKernelExC)(&cfg, (const void *)k, args), cudaSuccess);
  assert_int_equal(F(cudaDeviceSynchronize)(), cudaSuccess);
  /* a plain launch of the kernel handle (the third to add 1) */
  assert_int_equal(F(cudaLaunchKernel)((const void *)k, (dim3){1, 1, 1}, (dim3){N, 1, 1}, args, 0, 0),
                   cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(host, dx, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < N; i++) assert_int_equal(host[i], i + 3);
  F(cudaGetLastError)();
  F(cudaEventDestroy)(start);
  F(cudaEventDestroy)(done);
  F(cudaFree)(dx);

  /* the driver's enumeration of the same library */
  unsigned dcount = 0;
  assert_int_equal(((CUresult(*)(unsigned *, void *))sym(drv, "cuLibraryGetKernelCount"))(&dcount, l), 0);
  assert_int_equal(dcount, 8);
  assert_int_equal(F(cudaLibraryUnload)(l), cudaSuccess);
  assert_int_equal(F(cudaLibraryUnload)(l), cudaErrorInvalidResourceHandle);
  assert_int_equal(F(cudaLibraryGetKernelCount)(&count, l), cudaErrorInvalidResourceHandle);
  assert_int_equal(F(cudaGetKernel)(&k, (const void *)&setup), cudaErrorInvalidDeviceFunction);
  F(cudaGetLastError)();
}

/* ---- user objects ---- */

static int destroyed;
static void destroy_cb(void *p) { destroyed += *(int *)p; }

static void test_user_objects(void **state) {
  (void)state;
  static int weight = 7;
  cudaUserObject_t o = NULL;
  destroyed = 0;
  assert_int_equal(F(cudaUserObjectCreate)(&o, &weight, destroy_cb, 2, 0), cudaErrorInvalidValue); /* flags */
  assert_int_equal(F(cudaUserObjectCreate)(&o, &weight, destroy_cb, 0, 1), cudaErrorInvalidValue); /* count */
  assert_int_equal(F(cudaUserObjectCreate)(&o, &weight, destroy_cb, 2, 1), cudaSuccess);
  assert_int_equal(F(cudaUserObjectRelease)(o, 1), cudaSuccess);
  assert_int_equal(destroyed, 0);
  assert_int_equal(F(cudaUserObjectRetain)(o, 2), cudaSuccess);
  assert_int_equal(F(cudaUserObjectRelease)(o, 2), cudaSuccess);
  assert_int_equal(destroyed, 0);
  assert_int_equal(F(cudaUserObjectRelease)(o, 1), cudaSuccess); /* the last reference */
  assert_int_equal(destroyed, 7);
  /* the handle is gone: refused, not a crash */
  assert_int_equal(F(cudaUserObjectRelease)(o, 1), cudaErrorInvalidValue);
  /* the driver's names share them */
  CUresult (*cu_create)(cudaUserObject_t *, void *, cudaHostFn_t, unsigned, unsigned) =
      sym(drv, "cuUserObjectCreate");
  CUresult (*cu_release)(cudaUserObject_t, unsigned) = sym(drv, "cuUserObjectRelease");
  assert_int_equal(cu_create(&o, &weight, destroy_cb, 1, 1), 0);
  assert_int_equal(F(cudaUserObjectRelease)(o, 1), cudaSuccess);
  assert_int_equal(destroyed, 14);
  assert_int_equal(cu_release(o, 1), 1);
  F(cudaGetLastError)();
}

/* ---- the log ---- */

static char seen[256];
static void log_cb(void *data, int level, char *msg, size_t len) {
  (void)data, (void)level;
  snprintf(seen, sizeof seen, "%.*s", (int)len, msg);
}

static void test_logs(void **state) {
  (void)state;
  cudaLogIterator it = 0;
  cudaLogsCallbackHandle h = NULL;
  assert_int_equal(F(cudaLogsCurrent)(&it, 1), cudaErrorInvalidValue);
  assert_int_equal(F(cudaLogsCurrent)(&it, 0), cudaSuccess);
  assert_int_equal(F(cudaLogsRegisterCallback)(log_cb, NULL, &h), cudaSuccess);
  /* a stub's message (the first call of it) is a log entry, quiet or not */
  G(int (*)(void), "cudaWaitExternalSemaphoresAsync")();
  assert_non_null(strstr(seen, "cudaWaitExternalSemaphoresAsync"));
  char buf[4096];
  size_t size = sizeof buf;
  assert_int_equal(F(cudaLogsDumpToMemory)(&it, buf, &size, 0), cudaSuccess);
  assert_true(size > 0 && size == strlen(buf));
  assert_non_null(strstr(buf, "cudaWaitExternalSemaphoresAsync"));
  assert_int_equal(buf[size - 1], '\n');
  /* the iterator moved on: nothing new */
  size = sizeof buf;
  assert_int_equal(F(cudaLogsDumpToMemory)(&it, buf, &size, 0), cudaSuccess);
  assert_int_equal(size, 0);
  /* a buffer too small for any message */
  G(int (*)(void), "cudaExternalMemoryGetMappedMipmappedArray")();
  size = 8;
  assert_int_equal(F(cudaLogsDumpToMemory)(&it, buf, &size, 0), cudaErrorInvalidValue);
  assert_int_equal(size, 0);
  assert_int_equal(F(cudaLogsUnregisterCallback)(h), cudaSuccess);
  assert_int_equal(F(cudaLogsUnregisterCallback)(h), cudaErrorInvalidValue);
  F(cudaGetLastError)();
}

/* ---- peers: one device ---- */

static void test_peers(void **state) {
  (void)state;
  int v = -1, dev = -1;
  assert_int_equal(F(cudaDeviceGetP2PAttribute)(&v, 1, 0, 0), cudaErrorInvalidDevice); /* the same device */
  assert_int_equal(F(cudaDeviceGetP2PAttribute)(&v, 1, 0, 1), cudaErrorInvalidDevice); /* no device 1 */
  assert_int_equal(F(cudaDeviceGetP2PAttribute)(&v, 9, 0, 1), cudaErrorInvalidDevice); /* devices first */
  unsigned caps[1];
  int ops[1] = {0};
  assert_int_equal(F(cudaDeviceGetP2PAtomicCapabilities)(caps, ops, 1, 0, 0), cudaErrorInvalidDevice);
  assert_int_equal(F(cudaDeviceGetP2PAtomicCapabilities)(caps, ops, 0, 0, 1), cudaErrorInvalidValue);
  assert_int_equal(F(cudaDeviceEnablePeerAccess)(1, 0), cudaErrorInvalidDevice);
  assert_int_equal(F(cudaDeviceEnablePeerAccess)(1, 1), cudaErrorInvalidDevice); /* before the flags */
  assert_int_equal(F(cudaDeviceEnablePeerAccess)(0, 0), cudaErrorPeerAccessUnsupported);
  assert_int_equal(F(cudaDeviceEnablePeerAccess)(0, 1), cudaErrorInvalidValue);
  assert_int_equal(F(cudaDeviceDisablePeerAccess)(0), cudaErrorPeerAccessNotEnabled);
  assert_int_equal(F(cudaDeviceGetByPCIBusId)(&dev, "0000:00:00.0"), cudaSuccess);
  assert_int_equal(dev, 0);
  dev = -1;
  assert_int_equal(F(cudaDeviceGetByPCIBusId)(&dev, "00:00.0"), cudaSuccess);
  assert_int_equal(dev, 0);
  assert_int_equal(F(cudaDeviceGetByPCIBusId)(&dev, "0000:41:00.0"), cudaErrorInvalidDevice);
  assert_int_equal(F(cudaDeviceGetByPCIBusId)(&dev, "bus zero"), cudaErrorInvalidValue);
  int valid[2] = {0, 1};
  assert_int_equal(F(cudaSetValidDevices)(valid, 1), cudaSuccess);
  assert_int_equal(F(cudaSetValidDevices)(valid + 1, 1), cudaErrorInvalidDevice);
  assert_int_equal(F(cudaSetValidDevices)(NULL, 1), cudaErrorInvalidValue);
  assert_int_equal(F(cudaCtxResetPersistingL2Cache)(), cudaSuccess);
  F(cudaGetLastError)();
}

/* ---- memory: batches, pitched and 3D allocations, 2D fills ---- */

static void test_memory(void **state) {
  (void)state;
  enum { N = 32 };
  int a[N], b[N], back[N];
  for (int i = 0; i < N; i++) a[i] = 3 * i + 1, b[i] = -i;
  int *da = NULL, *db = NULL;
  assert_int_equal(F(cudaMalloc)((void **)&da, sizeof a), cudaSuccess);
  assert_int_equal(F(cudaMalloc)((void **)&db, sizeof b), cudaSuccess);
  cudaStream_t s;
  assert_int_equal(F(cudaStreamCreate)(&s), cudaSuccess);
  /* two host-to-device copies in one batch, one attribute (stream order) */
  void *dsts[2] = {da, db};
  const void *srcs[2] = {a, b};
  size_t sizes[2] = {sizeof a, sizeof b}, idx[2] = {0, 1};
  struct {
    int order;
    int loc[4];
    unsigned flags;
  } attrs[2] = {{1, {0}, 0}, {1, {0}, 0}};
  cudaError_t (*batch)(void *const *, const void *const *, const size_t *, size_t, void *, size_t *, size_t,
                       cudaStream_t) = sym(lib, "cudaMemcpyBatchAsync");
  assert_int_equal(batch(dsts, srcs, sizes, 2, attrs, idx, 1, s), cudaSuccess);
  assert_int_equal(F(cudaStreamSynchronize)(s), cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(back, db, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < N; i++) assert_int_equal(back[i], -i);
  assert_int_equal(F(cudaMemcpy)(back, da, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < N; i++) assert_int_equal(back[i], 3 * i + 1);
  /* the documented refusals: legacy stream, first index not 0, no order */
  assert_int_equal(batch(dsts, srcs, sizes, 2, attrs, idx, 1, 0), cudaErrorInvalidValue);
  idx[0] = 1;
  assert_int_equal(batch(dsts, srcs, sizes, 2, attrs, idx, 1, s), cudaErrorInvalidValue);
  idx[0] = 0;
  attrs[0].order = 0;
  assert_int_equal(batch(dsts, srcs, sizes, 2, attrs, idx, 1, s), cudaErrorInvalidValue);
  attrs[0].order = 1;
  assert_int_equal(batch(dsts, srcs, sizes, 2, attrs, idx, 3, s),
                   cudaErrorInvalidValue); /* numAttrs > count */

  /* cudaMalloc3D: 100 bytes wide, 3 x 2 rows, pitch a multiple of 512 */
  struct cudaPitchedPtr pp;
  size_t pitch = 0;
  assert_int_equal(F(cudaMalloc3D)(&pp, (struct cudaExtent){100, 3, 2}), cudaSuccess);
  assert_non_null(pp.ptr);
  assert_int_equal(pp.pitch, 512);
  assert_int_equal(pp.xsize, 100);
  assert_int_equal(pp.ysize, 3);
  /* the whole 6 rows are one allocation */
  assert_int_equal(F(cudaMemset)(pp.ptr, 0, 6 * 512), cudaSuccess);

  /* cuMemsetD2D32: 5 values in each of 6 rows; the bytes between stay 0 */
  CUresult (*d2d32)(unsigned long long, size_t, unsigned, size_t, size_t) = sym(drv, "cuMemsetD2D32_v2");
  assert_int_equal(d2d32((unsigned long long)(uintptr_t)pp.ptr, pp.pitch, 0xdeadbeefu, 5, 6), 0);
  static unsigned char host[6 * 512];
  assert_int_equal(F(cudaMemcpy)(host, pp.ptr, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 512; c += 4) {
      unsigned v;
      memcpy(&v, host + r * 512 + c, 4);
      assert_int_equal(v, c < 20 ? 0xdeadbeefu : 0u);
    }
  /* sizes near SIZE_MAX are too much memory, not a wrapped small request */
  void *big = NULL;
  assert_int_equal(F(cudaMalloc)(&big, SIZE_MAX - 100), cudaErrorMemoryAllocation);
  assert_int_equal(F(cudaMallocPitch)(&big, &pitch, SIZE_MAX - 10, 1), cudaErrorMemoryAllocation);
  assert_int_equal(F(cudaMallocPitch)(&big, &pitch, 1024, SIZE_MAX / 512), cudaErrorMemoryAllocation);
  assert_int_equal(F(cudaMalloc3D)(&pp, (struct cudaExtent){1, SIZE_MAX / 1024, 1023}),
                   cudaErrorMemoryAllocation);
  F(cudaGetLastError)();
  /* cuMemAllocPitch: element size 4, 8 or 16 only */
  unsigned long long dp = 0;
  CUresult (*alloc_pitch)(unsigned long long *, size_t *, size_t, size_t, unsigned) =
      sym(drv, "cuMemAllocPitch_v2");
  assert_int_equal(alloc_pitch(&dp, &pitch, 1000, 4, 3), 1);
  assert_int_equal(alloc_pitch(&dp, &pitch, 1000, 4, 4), 0);
  assert_int_equal(pitch, 1024);
  assert_int_equal(F(cudaFree)((void *)(uintptr_t)dp), cudaSuccess);

  /* attaching managed memory: the allocation itself, one flag */
  void *m = NULL;
  assert_int_equal(F(cudaMallocManaged)(&m, 256, cudaMemAttachGlobal), cudaSuccess);
  assert_int_equal(F(cudaStreamAttachMemAsync)(s, m, 0, cudaMemAttachSingle), cudaSuccess);
  assert_int_equal(F(cudaStreamAttachMemAsync)(s, m, 0, 3), cudaErrorInvalidValue);
  assert_int_equal(F(cudaStreamAttachMemAsync)(s, da, 0, cudaMemAttachSingle), cudaErrorInvalidValue);
  F(cudaFree)(m);
  F(cudaFree)(pp.ptr);
  F(cudaFree)(da);
  F(cudaFree)(db);
  F(cudaStreamDestroy)(s);
  F(cudaGetLastError)();
}

/* ---- per-thread default-stream names: the same entry points ---- */

static void test_per_thread_names(void **state) {
  (void)state;
  int in[4] = {1, 2, 3, 4}, out[4] = {0};
  int *d = NULL;
  assert_int_equal(F(cudaMalloc)((void **)&d, sizeof in), cudaSuccess);
  cudaError_t (*memcpy_ptds)(void *, const void *, size_t, int) = sym(lib, "cudaMemcpy_ptds");
  assert_int_equal(memcpy_ptds(d, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
  CUresult (*dtoh)(void *, unsigned long long, size_t) = sym(drv, "cuMemcpyDtoH_v2_ptds");
  assert_int_equal(dtoh(out, (unsigned long long)(uintptr_t)d, sizeof out), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], i + 1);
  assert_int_equal(((cudaError_t(*)(cudaStream_t))sym(lib, "cudaStreamQuery_ptsz"))(0), cudaSuccess);
  /* a bad handle gets the base's answer */
  assert_int_equal(
      ((cudaError_t(*)(cudaStream_t))sym(lib, "cudaStreamQuery_ptsz"))((cudaStream_t)(uintptr_t)0x77),
      cudaErrorInvalidResourceHandle);
  /* a stub's variant is the stub */
  assert_int_equal(((int (*)(void))sym(lib, "cudaSignalExternalSemaphoresAsync_ptsz"))(), 801);
  F(cudaFree)(d);
  F(cudaGetLastError)();
}

/* ---- the driver's launch API before cuLaunchKernel ---- */

static void test_legacy_launch(void **state) {
  (void)state;
  cudaLibrary_t l = load_library();
  cudaKernel_t k = NULL;
  assert_int_equal(F(cudaLibraryGetKernel)(&k, l, "add_one"), cudaSuccess);
  enum { N = 64 };
  int host[N], *dx = NULL;
  for (int i = 0; i < N; i++) host[i] = 10 * i;
  assert_int_equal(F(cudaMalloc)((void **)&dx, sizeof host), cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(dx, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  CUresult (*set_size)(void *, unsigned) = sym(drv, "cuParamSetSize");
  CUresult (*set_v)(void *, int, void *, unsigned) = sym(drv, "cuParamSetv");
  CUresult (*set_i)(void *, int, unsigned) = sym(drv, "cuParamSeti");
  CUresult (*shape)(void *, int, int, int) = sym(drv, "cuFuncSetBlockShape");
  CUresult (*grid)(void *, int, int) = sym(drv, "cuLaunchGrid");
  /* add_one(int *x, unsigned n): x at 0 (8 bytes), n at 8 (4 bytes) */
  assert_int_equal(set_size(k, 12), 0);
  assert_int_equal(set_v(k, 0, &dx, 8), 0);
  assert_int_equal(set_i(k, 8, N), 0);
  assert_int_equal(set_i(k, 10, N), 1);   /* past the size set */
  assert_int_equal(set_size(k, 5000), 1); /* above the 4 KB parameter space */
  assert_int_equal(shape(k, 32, 1, 1), 0);
  assert_int_equal(shape(k, 0, 1, 1), 1);
  assert_int_equal(grid(k, 2, 1), 0); /* 2 blocks of 32: every element */
  assert_int_equal(F(cudaMemcpy)(host, dx, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < N; i++) assert_int_equal(host[i], 10 * i + 1);
  assert_int_equal(grid((void *)(uintptr_t)0x1234, 1, 1), 400); /* no function */
  F(cudaFree)(dx);
  assert_int_equal(F(cudaLibraryUnload)(l), cudaSuccess);
  F(cudaGetLastError)();
}

/* ---- interprocess handles, external resources, graphics: an H200's answers ---- */

static void test_ipc_external_graphics(void **state) {
  (void)state;
  struct {
    char b[64];
  } h, h2;
  void *d = NULL, *p = NULL;
  assert_int_equal(F(cudaMalloc)(&d, 256), cudaSuccess);
  cudaError_t (*get_mem)(void *, void *) = sym(lib, "cudaIpcGetMemHandle");
  cudaError_t (*open_mem)(void **, __typeof__(h), unsigned) = sym(lib, "cudaIpcOpenMemHandle");
  assert_int_equal(get_mem(&h, d), cudaSuccess);
  /* opened in the process that made it */
  assert_int_equal(open_mem(&p, h, 1), cudaErrorDeviceUninitialized);
  assert_int_equal(G(cudaError_t(*)(void *), "cudaIpcCloseMemHandle")(d), cudaErrorInvalidValue);
  assert_int_equal(get_mem(&h, (char *)d + 16), cudaErrorInvalidValue); /* not an allocation's base */
  void *m = NULL;
  assert_int_equal(F(cudaMallocHost)(&m, 64), cudaSuccess);
  assert_int_equal(get_mem(&h, m), cudaErrorInvalidValue); /* pinned host memory */
  memset(&h2, 0, sizeof h2);
  assert_int_equal(open_mem(&p, h2, 0), cudaErrorInvalidValue); /* no handle */
  cudaEvent_t plain, shared;
  assert_int_equal(F(cudaEventCreate)(&plain), cudaSuccess);
  assert_int_equal(F(cudaEventCreateWithFlags)(&shared, cudaEventInterprocess | cudaEventDisableTiming),
                   cudaSuccess);
  cudaError_t (*get_ev)(void *, cudaEvent_t) = sym(lib, "cudaIpcGetEventHandle");
  assert_int_equal(get_ev(&h, plain), cudaErrorInvalidResourceHandle);
  assert_int_equal(get_ev(&h, shared), cudaSuccess);
  cudaEvent_t opened;
  assert_int_equal(G(cudaError_t(*)(cudaEvent_t *, __typeof__(h)), "cudaIpcOpenEventHandle")(&opened, h),
                   cudaErrorDeviceUninitialized);
  /* external memory and semaphores: a descriptor without a type, a handle never made */
  int desc[64] = {0};
  void *ext = NULL;
  assert_int_equal(G(cudaError_t(*)(void **, const void *), "cudaImportExternalMemory")(&ext, desc),
                   cudaErrorInvalidValue);
  desc[0] = 1; /* an opaque file descriptor: well formed, but nothing to import it into */
  assert_int_equal(G(cudaError_t(*)(void **, const void *), "cudaImportExternalMemory")(&ext, desc),
                   cudaErrorNotSupported);
  assert_int_equal(G(cudaError_t(*)(void *), "cudaDestroyExternalMemory")(NULL), cudaErrorInvalidValue);
  assert_int_equal(G(cudaError_t(*)(void *), "cudaDestroyExternalSemaphore")(NULL), cudaErrorInvalidValue);
  /* graphics: no resource is ever registered */
  assert_int_equal(G(cudaError_t(*)(void *), "cudaGraphicsUnregisterResource")(NULL),
                   cudaErrorInvalidResourceHandle);
  assert_int_equal(G(cudaError_t(*)(int, void **, cudaStream_t), "cudaGraphicsMapResources")(0, NULL, 0),
                   cudaErrorInvalidValue);
  size_t sz;
  assert_int_equal(
      G(cudaError_t(*)(void **, size_t *, void *), "cudaGraphicsResourceGetMappedPointer")(&p, &sz, NULL),
      cudaErrorInvalidResourceHandle);
  assert_int_equal(((CUresult(*)(void *))sym(drv, "cuGraphicsUnregisterResource"))(NULL), 400);
  F(cudaEventDestroy)(plain);
  F(cudaEventDestroy)(shared);
  F(cudaFreeHost)(m);
  F(cudaFree)(d);
  F(cudaGetLastError)();
}

/* ---- virtual memory management: one allocation mapped twice ---- */

static void test_vmm(void **state) {
  (void)state;
  struct {
    int type, handle_types, loc_type, loc_id;
    void *win32;
    unsigned char flags[8];
  } prop = {1, 0, 1, 0, NULL, {0}};
  struct {
    int loc_type, loc_id, flags;
  } rw = {1, 0, 3};
  size_t g = 0;
  CUresult (*gran)(size_t *, const void *, int) = sym(drv, "cuMemGetAllocationGranularity");
  CUresult (*create)(unsigned long long *, size_t, const void *, unsigned long long) =
      sym(drv, "cuMemCreate");
  CUresult (*release)(unsigned long long) = sym(drv, "cuMemRelease");
  CUresult (*reserve)(unsigned long long *, size_t, size_t, unsigned long long, unsigned long long) =
      sym(drv, "cuMemAddressReserve");
  CUresult (*addr_free)(unsigned long long, size_t) = sym(drv, "cuMemAddressFree");
  CUresult (*map)(unsigned long long, size_t, size_t, unsigned long long, unsigned long long) =
      sym(drv, "cuMemMap");
  CUresult (*unmap)(unsigned long long, size_t) = sym(drv, "cuMemUnmap");
  CUresult (*access)(unsigned long long, size_t, const void *, size_t) = sym(drv, "cuMemSetAccess");
  assert_int_equal(gran(&g, &prop, 0), 0);
  assert_int_equal(g, 2u << 20);
  size_t free0, free1, total;
  assert_int_equal(F(cudaMemGetInfo)(&free0, &total), cudaSuccess);
  unsigned long long h = 0, base = 0;
  assert_int_equal(create(&h, g + 1, &prop, 0), 1); /* not a multiple of the granularity */
  assert_int_equal(create(&h, g, &prop, 0), 0);
  assert_int_equal(F(cudaMemGetInfo)(&free1, &total), cudaSuccess);
  assert_int_equal(free0 - free1, g); /* physical memory counts */
  assert_int_equal(reserve(&base, 2 * g, 0, 0, 0), 0);
  assert_int_equal(base % g, 0);
  /* the one allocation at both halves of the reservation */
  assert_int_equal(map(base, g, 0, h, 0), 0);
  assert_int_equal(map(base + g, g, 0, h, 0), 0);
  assert_int_equal(map(base, g, 0, h, 0), 1); /* already mapped */
  assert_int_equal(access(base, 2 * g, &rw, 1), 0);
  int vals[4] = {1, 2, 3, 4}, back[4];
  assert_int_equal(F(cudaMemcpy)((void *)(uintptr_t)base, vals, sizeof vals, cudaMemcpyHostToDevice),
                   cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(back, (void *)(uintptr_t)(base + g), sizeof back, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  for (int i = 0; i < 4; i++) assert_int_equal(back[i], i + 1);
  /* a kernel writes through one mapping, the other sees it */
  cudaLibrary_t l = load_library();
  cudaKernel_t k = NULL;
  assert_int_equal(F(cudaLibraryGetKernel)(&k, l, "add_one"), cudaSuccess);
  void *x = (void *)(uintptr_t)base;
  unsigned n = 4;
  void *args[] = {&x, &n};
  assert_int_equal(F(cudaLaunchKernel)((const void *)k, (dim3){1, 1, 1}, (dim3){32, 1, 1}, args, 0, 0),
                   cudaSuccess);
  assert_int_equal(F(cudaMemcpy)(back, (void *)(uintptr_t)(base + g), sizeof back, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  for (int i = 0; i < 4; i++) assert_int_equal(back[i], i + 2);
  struct cudaPointerAttributes pa;
  assert_int_equal(F(cudaPointerGetAttributes)(&pa, x), cudaSuccess);
  assert_int_equal(pa.type, cudaMemoryTypeDevice);
  assert_int_equal(F(cudaFree)(x), cudaErrorInvalidValue); /* not cudaMalloc's */
  F(cudaGetLastError)();
  /* freeing the range while mapped is refused; unmapped, it goes */
  assert_int_equal(addr_free(base, 2 * g), 1);
  assert_int_equal(unmap(base, g), 0);
  assert_int_equal(F(cudaMemcpy)(back, x, sizeof back, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  F(cudaGetLastError)();
  assert_int_equal(release(h), 0); /* the other mapping keeps it */
  assert_int_equal(release(h), 1); /* released already: the mapping's reference is not the handle's */
  assert_int_equal(F(cudaMemcpy)(back, (void *)(uintptr_t)(base + g), sizeof back, cudaMemcpyDeviceToHost),
                   cudaSuccess);
  assert_int_equal(back[0], 2);
  assert_int_equal(unmap(base + g, g), 0);
  assert_int_equal(F(cudaMemGetInfo)(&free1, &total), cudaSuccess);
  assert_int_equal(free1, free0); /* the last mapping gone: released */
  assert_int_equal(addr_free(base, 2 * g), 0);
  assert_int_equal(release(h), 1); /* gone */
  F(cudaLibraryUnload)(l);
  F(cudaGetLastError)();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stubs),
      cmocka_unit_test(test_stream_attributes),
      cmocka_unit_test(test_library_and_launch_attributes),
      cmocka_unit_test(test_user_objects),
      cmocka_unit_test(test_logs),
      cmocka_unit_test(test_peers),
      cmocka_unit_test(test_memory),
      cmocka_unit_test(test_per_thread_names),
      cmocka_unit_test(test_legacy_launch),
      cmocka_unit_test(test_ipc_external_graphics),
      cmocka_unit_test(test_vmm),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
