/* export_tables.c: cuGetExportTable, the driver's private interfaces.
 * NVIDIA's static CUDA runtime (libcudart_static.a, linked into every
 * program nvcc builds without -cudart shared) reaches the driver through
 * cuGetProcAddress for the public entry points and through these tables,
 * each a row of function pointers named by a UUID, for the rest: the
 * primary context, module registration, context-local storage, tool hooks
 * and an integrity handshake. What it asks for, in which order and with
 * which arguments was recorded on an H200 (tests/hw/static_rt); the slot
 * meanings follow that recording and public reverse-engineering notes.
 * Tables with a size word start with their size in bytes, as the driver's
 * do; slots the runtime was never seen to call report themselves once and
 * return CUDA_ERROR_NOT_SUPPORTED. */
#include "rt.h"
#include "static_rt.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef void *CUctx;
enum { CU_OK = 0, CU_INVALID_VALUE = 1, CU_INVALID_HANDLE = 400, CU_NOT_FOUND = 500, CU_NOT_SUPPORTED = 801 };

CUresult cuGetExportTable(const void **table, const void *id);
/* smemu's own driver entry points the tables build on */
CUresult cuDevicePrimaryCtxRetain(CUctx *pctx, int dev);
CUresult cuCtxGetCurrent(CUctx *pctx);
CUresult cuModuleLoadData(void **module, const void *image);
CUresult cuDriverGetVersion(int *v);
CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceGetUuid(unsigned char *uuid, int dev);
CUresult cuDeviceGetAttribute(int *v, int attr, int dev);

/* ---- slots nobody was seen calling ---- */

static void unknown_slot(const char *table, int slot) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  static struct {
    const char *table;
    int slot;
  } said[64]; /* more than there are unknown slots */
  static int nsaid;
  int first = 1;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < nsaid && first; i++) first = !(said[i].slot == slot && !strcmp(said[i].table, table));
  if (first && nsaid < 64) said[nsaid].table = table, said[nsaid++].slot = slot;
  pthread_mutex_unlock(&mu);
  if (first)
    rt_msg("the CUDA runtime called private driver function %s[%d], which smemu does not provide", table,
           slot);
}

#define UNKNOWN(tab, name, slot)                                                                             \
  static CUresult tab##_##slot(void) {                                                                       \
    unknown_slot(name, slot);                                                                                \
    return CU_NOT_SUPPORTED;                                                                                 \
  }

/* ---- {6bd5fb6c-...}: the runtime's interface (module loading, primary context) ---- */

#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u

/* A module from what the runtime hands over: nvcc's wrapper around a
 * translation unit's fatbinary, or the fatbinary itself (cuModuleLoadData
 * takes both). */
static CUresult load_image(void **module, const void *image) {
  if (!module || !image) return CU_INVALID_VALUE;
  return cuModuleLoadData(module, image);
}

static CUresult cudart_module_from_fatbin(void **module, const void *wrapper) {
  return load_image(module, wrapper);
}

static CUresult cudart_primary_ctx(CUctx *pctx, int dev) { return cuDevicePrimaryCtxRetain(pctx, dev); }

static CUresult cudart_module_from_fatbin_ex(void **module, const void *wrapper, void *a3, void *a4,
                                             unsigned a5) {
  (void)a3;
  (void)a4;
  (void)a5;
  return load_image(module, wrapper);
}

static CUresult cudart_fn7(uintptr_t a) {
  (void)a;
  return CU_OK;
}

static CUresult cudart_module_from_fatbin_ex2(const void *fatbin, void **module, void *a3, void *a4,
                                              unsigned a5) {
  (void)a3;
  (void)a4;
  (void)a5;
  return load_image(module, fatbin);
}

/* In NVIDIA's driver it loads the PTX compiler; smemu needs none. */
static CUresult cudart_load_compilers(void) { return CU_OK; }

UNKNOWN(cudart, "{6bd5fb6c}", 3)
UNKNOWN(cudart, "{6bd5fb6c}", 4)
UNKNOWN(cudart, "{6bd5fb6c}", 5)
UNKNOWN(cudart, "{6bd5fb6c}", 9)
UNKNOWN(cudart, "{6bd5fb6c}", 11)

static const void *const cudart_table[13] = {
    (void *)(13 * sizeof(void *)),
    (void *)cudart_module_from_fatbin,
    (void *)cudart_primary_ctx,
    (void *)cudart_3,
    (void *)cudart_4,
    (void *)cudart_5,
    (void *)cudart_module_from_fatbin_ex,
    (void *)cudart_fn7,
    (void *)cudart_module_from_fatbin_ex2,
    (void *)cudart_9,
    NULL, /* empty in the driver too */
    (void *)cudart_11,
    (void *)cudart_load_compilers,
};

/* ---- {a094798c-...}: tool callback hooks: two buffers the runtime reads ---- */

/* The first buffer holds one 32-bit "callback enabled" word per runtime
 * API callback id: before its driver call, the static runtime's
 * cudaEventRecordWithFlags reads the word at byte 0x5c8, 4 * 370, 370
 * being CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010, and a
 * non-zero word sends it into the tool hooks. cupti_runtime_cbid.h of CUDA
 * 13.0 has 523 ids (CUPTI_RUNTIME_TRACE_CBID_SIZE); room for 1024 keeps
 * every read inside zeroed memory of this table's own, whatever the
 * linker puts after it. */
static uint32_t hook_buf1[1024];
static void *hook_buf2[2];

static void hooks_buffer1(void **ptr, size_t *size) {
  if (ptr) *ptr = hook_buf1;
  if (size) *size = sizeof hook_buf1;
}

static void hooks_buffer2(void **ptr, size_t *size) {
  if (ptr) *ptr = hook_buf2;
  if (size) *size = 0xe; /* the driver's answer */
}

UNKNOWN(hooks, "{a094798c}", 1)
UNKNOWN(hooks, "{a094798c}", 3)
UNKNOWN(hooks, "{a094798c}", 4)
UNKNOWN(hooks, "{a094798c}", 5)

static const void *const hooks_table[7] = {
    (void *)(7 * sizeof(void *)),
    (void *)hooks_1,
    (void *)hooks_buffer1,
    (void *)hooks_3,
    (void *)hooks_4,
    (void *)hooks_5,
    (void *)hooks_buffer2,
};

/* ---- {42d85a81-...}: tools thread-local state ---- */

UNKNOWN(tls, "{42d85a81}", 1)
UNKNOWN(tls, "{42d85a81}", 2)

static const void *const tls_table[3] = {(void *)(3 * sizeof(void *)), (void *)tls_1, (void *)tls_2};

/* ---- {c693336e-...}: context-local storage (no size word) ---- */

typedef struct cls_entry {
  CUctx ctx;
  void *key, *value;
  void (*dtor)(CUctx, void *, void *);
  struct cls_entry *next;
} cls_entry;

static cls_entry *cls_list;
static pthread_mutex_t cls_mu = PTHREAD_MUTEX_INITIALIZER;

static CUctx cls_ctx(CUctx ctx) {
  if (!ctx) cuCtxGetCurrent(&ctx);
  return ctx;
}

static CUresult cls_put(CUctx ctx, void *key, void *value, void (*dtor)(CUctx, void *, void *)) {
  ctx = cls_ctx(ctx);
  if (!ctx) return 201; /* CUDA_ERROR_INVALID_CONTEXT */
  pthread_mutex_lock(&cls_mu);
  cls_entry *e = cls_list;
  while (e && !(e->ctx == ctx && e->key == key)) e = e->next;
  if (!e && (e = calloc(1, sizeof *e))) {
    e->ctx = ctx;
    e->key = key;
    e->next = cls_list;
    cls_list = e;
  }
  if (e) {
    e->value = value;
    e->dtor = dtor;
  }
  pthread_mutex_unlock(&cls_mu);
  return e ? CU_OK : 2; /* CUDA_ERROR_OUT_OF_MEMORY */
}

static CUresult cls_delete(CUctx ctx, void *key) {
  ctx = cls_ctx(ctx);
  pthread_mutex_lock(&cls_mu);
  for (cls_entry **p = &cls_list; *p; p = &(*p)->next)
    if ((*p)->ctx == ctx && (*p)->key == key) {
      cls_entry *e = *p;
      *p = e->next;
      free(e);
      break;
    }
  pthread_mutex_unlock(&cls_mu);
  return CU_OK;
}

static CUresult cls_get(void **value, CUctx ctx, void *key) {
  if (!value) return CU_INVALID_VALUE;
  ctx = cls_ctx(ctx);
  CUresult r = CU_INVALID_HANDLE;
  pthread_mutex_lock(&cls_mu);
  for (cls_entry *e = cls_list; e; e = e->next)
    if (e->ctx == ctx && e->key == key) {
      *value = e->value;
      r = CU_OK;
      break;
    }
  pthread_mutex_unlock(&cls_mu);
  return r;
}

void static_rt_ctx_reset(void) {
  pthread_mutex_lock(&cls_mu);
  cls_entry *all = cls_list;
  cls_list = NULL;
  pthread_mutex_unlock(&cls_mu);
  while (all) {
    cls_entry *e = all;
    all = e->next;
    if (e->dtor) e->dtor(e->ctx, e->key, e->value);
    free(e);
  }
  cudaDeviceReset();
}

static const void *const cls_table[4] = {(void *)cls_put, (void *)cls_delete, (void *)cls_get, NULL};

/* ---- {263e8860-...}: context checks ---- */

static CUresult checks_context(CUctx ctx, uint32_t *flags, const void **extra) {
  (void)ctx;
  (void)extra;
  if (flags) *flags = 0;
  return CU_OK;
}

static uint32_t checks_3(void) { return 0; }

UNKNOWN(checks, "{263e8860}", 1)
UNKNOWN(checks, "{263e8860}", 4)
UNKNOWN(checks, "{263e8860}", 5)
UNKNOWN(checks, "{263e8860}", 6)
UNKNOWN(checks, "{263e8860}", 7)
UNKNOWN(checks, "{263e8860}", 8)
UNKNOWN(checks, "{263e8860}", 9)
UNKNOWN(checks, "{263e8860}", 10)
UNKNOWN(checks, "{263e8860}", 11)
UNKNOWN(checks, "{263e8860}", 12)
UNKNOWN(checks, "{263e8860}", 13)
UNKNOWN(checks, "{263e8860}", 14)

static const void *const checks_table[15] = {
    (void *)(15 * sizeof(void *)),
    (void *)checks_1,
    (void *)checks_context,
    (void *)checks_3,
    (void *)checks_4,
    (void *)checks_5,
    (void *)checks_6,
    (void *)checks_7,
    (void *)checks_8,
    (void *)checks_9,
    (void *)checks_10,
    (void *)checks_11,
    (void *)checks_12,
    (void *)checks_13,
    (void *)checks_14,
};

/* ---- {f8cff951-...}: asked for first: the runtime's error log ---- */

/* The runtime hands its error messages (a component name, a format and
 * its arguments, e.g. "%s cannot be NULL") to the driver's log, which
 * keeps them for cuLogs* callbacks; nobody reads them here. */
static CUresult first_log(const char *component, uintptr_t a1, const char *fmt) {
  (void)component;
  (void)a1;
  (void)fmt;
  return CU_OK;
}

UNKNOWN(first, "{f8cff951}", 2)

static const void *const first_table[3] = {(void *)(3 * sizeof(void *)), (void *)first_log, (void *)first_2};

/* ---- {d4082055-...}: the integrity handshake ---- */

static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);
UNKNOWN(integrity, "{d4082055}", 2)

static const void *const integrity_table[3] = {(void *)(3 * sizeof(void *)), (void *)integrity_check,
                                               (void *)integrity_2};

static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]) {
  if (!result) return CU_INVALID_VALUE;
  static_rt_integrity_in in = {0};
  int v = 0, n = 0;
  cuDriverGetVersion(&v);
  in.driver_version = (uint32_t)v;
  in.version = version;
  in.pid = (uint32_t)getpid();
  in.tid = (uint32_t)(uintptr_t)pthread_self();
  in.cudart_table = cudart_table;
  in.integrity_table = integrity_table;
  in.fn = integrity_table[1];
  in.unix_seconds = unix_seconds;
  if (cuDeviceGetCount(&n) != CU_OK) n = 0;
  static_rt_device_id devs[4];
  if (n > 4) n = 4;
  for (int d = 0; d < n; d++) {
    memset(&devs[d], 0, sizeof devs[d]);
    cuDeviceGetUuid(devs[d].uuid, d);
    cuDeviceGetAttribute(&devs[d].pci_domain, 50, d); /* CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID */
    cuDeviceGetAttribute(&devs[d].pci_bus, 33, d);    /* CU_DEVICE_ATTRIBUTE_PCI_BUS_ID */
    cuDeviceGetAttribute(&devs[d].pci_device, 34, d); /* CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID */
  }
  static_rt_integrity(&in, devs, n, result);
  return CU_OK;
}

/* ---- the directory ---- */

static const struct {
  unsigned char id[16];
  const void *const *table;
} tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
     cudart_table},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
     hooks_table},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
     tls_table},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
     cls_table},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
     checks_table},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
     integrity_table},
    {{0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9},
     first_table},
};

RT_EXPORT CUresult cuGetExportTable(const void **table, const void *id) {
  if (!table || !id) return CU_INVALID_VALUE;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
    if (!memcmp(tables[i].id, id, 16)) {
      *table = tables[i].table;
      return CU_OK;
    }
  *table = NULL;
  /* NVIDIA's libraries ask for interfaces of their own (cuFFT does, with
   * the driver functions it found by name) and then fail: name it */
  if (rt_nv_library_refused_at(__builtin_return_address(0))) return CU_NOT_SUPPORTED;
  if (getenv("SMEMU_DEBUG_EXPORT")) {
    const unsigned char *u = id;
    rt_msg("cuGetExportTable: no table {%02x%02x%02x%02x-...}", u[0], u[1], u[2], u[3]);
  }
  return CU_NOT_SUPPORTED;
}

const void *static_rt_unwrap(const void *image) {
  if (!image || *(const uint32_t *)image != WRAPPER_MAGIC) return image;
  const void *inner = *(const void *const *)((const char *)image + 8);
  return inner ? inner : image;
}
