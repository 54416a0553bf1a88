/* rt.h: the drop-in runtime's internal interface. One emulated device and
 * its smemu context, the registered fatbinaries (modules), kernels and
 * variables, the allocations the program made, streams, events and the
 * queue of deferred work, shared by the files of runtime/. The runtime uses
 * only include/smemu.h from the emulator. Every exported entry point takes
 * the state lock (rt_begin) and releases it with its result (rt_end). */
#ifndef SMEMU_RT_H
#define SMEMU_RT_H

#include "cuda_abi.h"
#include "smemu.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define RT_EXPORT __attribute__((visibility("default")))

/* ---- fatbinaries (fatbin.c) ---- */

/* What the cubin (SASS) of a kernel says: registers, frame. */
typedef struct fb_kinfo {
  char *name; /* mangled kernel name */
  int regs;   /* registers per thread (EIATTR_REGCOUNT), -1 unknown */
  int frame;  /* local bytes per thread (EIATTR_FRAME_SIZE), -1 unknown */
} fb_kinfo;

/* The parts of a fatbinary the runtime uses. */
typedef struct fb_image {
  char *ptx; /* the chosen PTX text (malloc'd, NUL-terminated), or NULL */
  size_t ptx_len;
  int ptx_arch;       /* its architecture, e.g. 90 */
  int nptx;           /* PTX entries seen */
  int ptx_archs[16];  /* their architectures */
  int nsass;          /* SASS (cubin) entries seen */
  int sass_archs[16]; /* their architectures */
  int cubin_arch;     /* architecture of the cubin the kernel figures come from, 0 none */
  uint8_t *cubin;     /* that cubin (malloc'd), for SASS-informed counting */
  size_t cubin_len;
  uint32_t const_bytes; /* user __constant__ bytes of that cubin */
  fb_kinfo *kinfo;      /* per kernel, from that cubin */
  int nkinfo;
  int ptx_too_new; /* every PTX targets an architecture above the emulated one */
  /* ptx_too_new, but a cubin the emulated GPU would run is there (SASS of
   * its major architecture, not above it): a GPU runs that SASS, smemu
   * the newer PTX in its place (libraries such as CuPy's CUB carry PTX for
   * their newest architecture alone) */
  int ptx_stands_in;
  char err[256]; /* why there is no PTX, when ptx is NULL */
} fb_image;

/* Parse the fatbinary at data (magic 0xBA55ED50), PTX text or a cubin, and
 * pick the PTX for compute capability `cc` (major*10+minor). Returns 0, or
 * -1 with out->err set when data is no fatbinary at all. */
int fb_parse(const void *data, int cc, fb_image *out);
/* The same reading at most `avail` bytes of data (the fuzz target). */
int fb_parse_n(const void *data, size_t avail, int cc, fb_image *out);
void fb_free(fb_image *img);
/* The kernel figures of a kernel, or NULL. */
const fb_kinfo *fb_kernel(const fb_image *img, const char *name);

/* ---- registered code ---- */

typedef struct rt_module {
  fb_image img;         /* what the fatbinary holds */
  char *label;          /* for messages: the program, or "module N" */
  smemu_module *mod;    /* loaded PTX (lazily), or NULL */
  cudaError_t load_err; /* why loading failed, or cudaSuccess */
  int nfuncs, nvars;    /* registered kernels and variables */
  int warned;           /* the no-PTX message was printed */
  int from_driver;      /* loaded by cuModuleLoadData: unloadable */
  fb_image *parts;      /* -rdc: each translation unit's fatbinary, linked on load */
  int nparts;
  struct smemu_sass_job *sass_job; /* its SASS counting, started at registration, or NULL */
  struct rt_module *next;
} rt_module;

/* -rdc programs (core/rdc.c): the NULL-terminated list of the translation
 * units' fatbinaries that nvcc's link stub hands with the linked image. */
int rt_module_set_parts(rt_module *m, void *const *fatbins);
/* The same from nvcc's fatbinary wrapper: 1 when it is an -rdc one (version
 * 2) and its parts are set, 0 when it is not, -1 when out of memory. */
int rt_module_rdc_wrapper(rt_module *m, const void *wrapper);
/* Links and loads the parts' PTX into m->mod; cudaErrorInvalidPtx (with the
 * linker's message printed) when they do not link. */
cudaError_t rt_module_load_parts(rt_module *m, smemu_ctx *ctx);
void rt_module_free_parts(rt_module *m);

typedef struct rt_func {
  rt_module *m;     /* owning module */
  const void *host; /* host stub (the launch handle), NULL for driver functions */
  char *name;       /* mangled name */
  smemu_kernel *k;  /* resolved kernel, NULL until the module is loaded */
  int64_t max_dyn;  /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1 default */
  int carveout;     /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 default */
  int cache_config; /* cudaFuncSetCacheConfig */
  int shmem_config; /* cudaFuncSetSharedMemConfig */
  char *why;        /* why the kernel cannot run (its decode error), or NULL */
  int warned;       /* `why` was printed */
  struct rt_func *next;
} rt_func;

typedef struct rt_var {
  rt_module *m;
  const void *host;   /* host shadow (the symbol handle) */
  char *name;         /* PTX name */
  size_t size;        /* bytes, as registered */
  int constant;       /* __constant__ */
  void **managed_ptr; /* __managed__: where the host reads the address, else NULL */
  struct rt_var *next;
} rt_var;

/* ---- streams, events, deferred work (queue.c) ---- */

/* Launch and stream attributes: cudaLaunchAttributeID (= CUlaunchAttributeID)
 * 0..RT_ATTR_IDS-1, each value 64 bytes (cudaLaunchAttributeValue). */
#define RT_ATTR_IDS 17
typedef struct rt_attr {
  int id;
  char pad[4];
  unsigned char val[64];
} rt_attr;

typedef struct rt_stream {
  unsigned flags;
  int priority;
  uint32_t attr_set;                   /* bit per attribute id set by cudaStreamSetAttribute */
  unsigned char attr[RT_ATTR_IDS][64]; /* their values */
  struct rt_stream *next;
} rt_stream;

typedef struct rt_event {
  unsigned flags;
  int recorded; /* cudaEventRecord was called at least once */
  int pending;  /* records queued, not yet reached */
  double t;     /* host monotonic time when the last record was reached */
  struct rt_event *next;
} rt_event;

enum { OP_LAUNCH, OP_EVENT, OP_HOSTFN, OP_CALLBACK };

typedef struct rt_op {
  int kind;
  rt_stream *stream;
  rt_func *f; /* OP_LAUNCH */
  uint32_t grid[3], block[3], shared;
  uint32_t cluster[3];     /* cluster dimensions of a cudaLaunchKernelEx launch */
  int has_cluster;         /* 1: cluster is set, 0: the kernel's own */
  int bank_mode;           /* 4 or 8: the bank size in force when it was launched */
  uint8_t *params;         /* copied argument values, at each parameter's offset */
  rt_event *ev;            /* OP_EVENT */
  cudaHostFn_t fn;         /* OP_HOSTFN */
  cudaStreamCallback_t cb; /* OP_CALLBACK */
  void *user;
  /* OP_LAUNCH: runs it (the queue knows no launches, only this callback;
   * not called after a sticky error) */
  void (*run)(struct rt_op *op);
  rt_attr *attrs; /* OP_LAUNCH: the launch's attributes (cudaLaunchKernelEx), copied; freed with op */
  unsigned nattrs;
  struct rt_op *next;
  int origin; /* OP_LAUNCH: RT_FROM_HOST, a graph's kernel node, or a device-side launch */
} rt_op;
enum { RT_FROM_HOST, RT_FROM_GRAPH, RT_FROM_DEVICE };

/* ---- the process-wide state (core/state.c; start-up, reset and exit:
 * core/lifecycle.c) ---- */

/* The checkers among the analyses (their reports come at exit). */
#define RT_CHECKS (SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_GLOBAL_RACES)

/* ALLOC_MAPPED: device memory mapped by cuMemMap (driver/vmm.c), counted
 * and freed there */
enum { ALLOC_DEVICE = 1, ALLOC_HOST, ALLOC_MANAGED, ALLOC_REGISTERED, ALLOC_MAPPED };

typedef struct rt_alloc {
  void *p;
  size_t size;
  int kind; /* ALLOC_* */
  unsigned flags;
} rt_alloc;

typedef struct rt_state {
  pthread_mutex_t lock; /* recursive; held by every entry point */
  int inited;           /* environment read */
  smemu_ctx *ctx;       /* the device's context, created on first use */
  smemu_arch_info arch; /* its profile */
  int arch_ok;          /* SMEMU_ARCH names a known profile */
  char arch_name[32];

  /* options from the environment (see runtime/README.md) */
  int threads;  /* SMEMU_THREADS */
  int schedule; /* SMEMU_SCHEDULE: fixed, or random[:SEED] */
  uint64_t seed;
  uint32_t analyses;                 /* SMEMU_CHECK */
  uint64_t max_insns;                /* SMEMU_MAX_INSNS */
  double timeout;                    /* SMEMU_TIMEOUT: seconds per launch, 0 none */
  int quiet;                         /* SMEMU_QUIET */
  int report_banks, report_launches; /* SMEMU_REPORT */
  int report_hazards;                /* SMEMU_REPORT=hazards: every hazard in detail */
  int report_pipeline;               /* SMEMU_REPORT=pipeline: each kernel's async pipeline */
  char *report_file;                 /* SMEMU_REPORT_FILE */
  char *json_file;                   /* SMEMU_JSON */
  char *html_file;                   /* SMEMU_HTML (html_report.c) */

  cudaError_t sticky; /* a kernel fault: every later call returns it */
  rt_module *mods;
  rt_func *funcs;
  rt_var *vars;
  int nmods;

  rt_alloc *allocs; /* the program's allocations, sorted by p */
  size_t nallocs, cap_allocs;
  size_t allocated; /* bytes in cudaMalloc/Managed/Pitch allocations */

  rt_stream default_stream;
  rt_stream *streams;
  rt_event *events;
  rt_op *qhead, *qtail; /* deferred work in issue order */
  int qlen;
  int draining;

  /* device settings */
  unsigned device_flags;
  int cache_config;
  int shmem_config; /* as set; the getter reports the effective one */
  size_t stack_limit, printf_fifo, heap_limit;
  int unregistered; /* __cudaUnregisterFatBinary ran (exit has begun) */
  int san_continue; /* SMEMU_CONTINUE_AFTER_ERROR: a fault ends its launch only */
  int san_leaks;    /* SMEMU_LEAK_CHECK=full: unfreed allocations at exit */
  int san_memcheck; /* memcheck's records: every bad address, failed API calls */
  int driver_ready; /* a context was created: the driver API counts as initialised */

  /* the device runtime's limits as set (0: CUDA's defaults; core/cdp.c) */
  size_t pending_limit, sync_depth;
} rt_state;

extern rt_state rt;

/* Enter an entry point: take the lock and read the environment. With
 * need_ctx, also create the context; returns its failure or the sticky
 * error (lock still held: always pair with rt_end). */
cudaError_t rt_begin(int need_ctx);
/* Leave: release the lock, record e as the thread's last error when it is
 * one, and return it. */
cudaError_t rt_end(cudaError_t e);
/* Record e as the last error without the lock dance (inside rt_begin/end). */
void rt_set_last(cudaError_t e);
/* The thread's last error; clear: reset it to cudaSuccess (state.c). */
cudaError_t rt_last_error(int clear);
/* The context, creating it; NULL when the architecture is unknown. */
smemu_ctx *rt_ctx(void);
/* Print "smemu: ..." on stderr (unless SMEMU_QUIET). */
void rt_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A driver entry point of this library by name, with the highest ABI
 * suffix (_v3, _v2, none); NULL when there is none (driver_proc.c). */
void *rt_driver_symbol(const char *symbol);
/* Host monotonic time in seconds. */
double rt_now(void);
/* cudaDeviceReset's work: drain, drop the context and everything in it. */
void rt_reset(void);

/* NVIDIA's libraries smemu does not provide (core/nv_libs.c): when path
 * (or the file holding code) is one, say once which and what uses it, and
 * return 1; else 0, saying nothing. */
int rt_nv_library_refused(const char *path);
int rt_nv_library_refused_at(const void *code);

/* A generated stub's work (core/stubs.c, runtime/entries.def): message once,
 * return not supported; rt_is_stub: whether an exported name is a stub. */
int rt_stub(const char *name, int driver, int nodev, int *said);
int rt_is_stub(const char *name);
/* Whether name is an old driver name that passes its _v2 stub on
 * (driver/old_names.c): cuGetProcAddress counts it as that stub. */
int rt_old_name_is_stub(const char *name);

/* User objects (cudart/userobj.c), inside rt_begin/rt_end: the runtime's and
 * the driver's entry points share them. */
cudaError_t rt_userobj_create(cudaUserObject_t *out, void *ptr, cudaHostFn_t destroy, unsigned refs,
                              unsigned flags);
cudaError_t rt_userobj_retain(cudaUserObject_t h, unsigned count);
cudaError_t rt_userobj_release(cudaUserObject_t h, unsigned count);

/* The log the log API reads (core/log.c): every message rt_msg prints, and
 * the registered callbacks, which see each as it comes. */
void rt_log_add(int level, const char *text, size_t len);
cudaError_t rt_log_register(cudaLogsCallback_t fn, void *data, cudaLogsCallbackHandle *out);
cudaError_t rt_log_unregister(cudaLogsCallbackHandle h);
/* The iterator of the next message. */
unsigned rt_log_current(void);
/* Copy the messages from *iter on (NULL: all) into buf (n bytes, NUL
 * included); returns the bytes written or (size_t)-1 when none fits. */
size_t rt_log_dump(unsigned *iter, char *buf, size_t n);

/* Interprocess handles (cudart/ipc.c), external resources (external.c),
 * graphics resources (interop.c): the checks both APIs share, inside
 * rt_begin/rt_end. */
cudaError_t rt_ipc_get_mem(void *handle, const void *p);
cudaError_t rt_ipc_open(const void *handle);
cudaError_t rt_ipc_get_event(void *handle, cudaEvent_t event);
cudaError_t rt_external_import(void *out, const void *desc, int last);
cudaError_t rt_graphics_map(int count, const void *resources);

/* Global memory of the emulated part (device.c). */
size_t rt_total_memory(void);
/* A cudaDeviceAttr (= CUdevice_attribute) of the device; -1 when unknown. */
int rt_device_attribute(int attr, int *value);

/* The map from smemu status to a CUDA error for a failed launch; sets
 * *sticky when the error leaves the context unusable. */
cudaError_t rt_launch_error(smemu_status s, const char *msg, int *sticky);

/* Allocation table. */
rt_alloc *rt_alloc_find(const void *p); /* exact base */
int rt_alloc_add(void *p, size_t size, int kind, unsigned flags);
void rt_alloc_remove(void *p);

/* ---- modules (register.c) ---- */
rt_func *rt_func_by_host(const void *host);
rt_var *rt_var_by_host(const void *host);
/* Load the module's PTX into the context if needed; resolves its kernels. */
cudaError_t rt_module_load(rt_module *m);
/* The function's kernel, loading its module first. */
cudaError_t rt_func_kernel(rt_func *f, smemu_kernel **k);
/* Prints once why f (in its module's PTX) cannot run: f->why. */
void rt_func_warn(rt_func *f);
/* A variable's device address and size, loading its module first. */
cudaError_t rt_var_addr(rt_var *v, void **p, size_t *size);
/* Register a module from an image (fatbinary, PTX or cubin); the driver API. */
rt_module *rt_module_new(const void *image, const char *label);
rt_func *rt_func_new(rt_module *m, const void *host, const char *name);
void rt_module_free(rt_module *m);
/* Forget every loaded smemu object (the context is gone). */
void rt_modules_unload(void);

/* A library's kernels (cudart/library.c): their count, and up to max of
 * them in module order into out (either may be NULL). */
cudaError_t rt_library_kernels(rt_module *m, unsigned *count, rt_func **out, unsigned max);

/* ---- queue (queue.c) ---- */
/* Run every deferred operation now, in issue order. */
void rt_drain(void);
void rt_enqueue(rt_op *op);
/* The stream object for a handle (0, legacy and per-thread are the
 * default stream); NULL when the handle is not a live stream. */
rt_stream *rt_stream_get(cudaStream_t s);
/* The event object for a handle, or NULL. */
rt_event *rt_event_get(cudaEvent_t e);
void rt_streams_reset(void);

/* ---- memory pools (pool.c) ---- */
/* At a stream, event or device synchronisation: pools give back the
 * reserved memory over their release threshold. */
void rt_pool_sync(void);
/* A stream, event or device synchronisation (cudart/device.c): every
 * deferred operation run, then rt_pool_sync; the sticky error. */
cudaError_t rt_sync_all(void);
/* Stream capture of the stream-ordered allocator (cudart/capture.c): a
 * node when the stream captures (returns its status), else -1. */
int rt_capture_malloc(void **p, size_t size, cudaStream_t stream);
int rt_capture_free(void *p, cudaStream_t stream);
/* cudaDeviceReset: the pools forget their blocks (their memory is gone). */
void rt_pool_reset(void);

/* ---- launches (launch.c) ---- */
/* Check a launch as the driver does and queue it. */
cudaError_t rt_launch(rt_func *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
/* The cluster dimensions among cudaLaunchAttribute/CUlaunchAttribute
 * entries (same layout) into dims, or NULL when there are none. */
const uint32_t *rt_cluster_attr(const void *attrs, unsigned n, uint32_t dims[3]);
/* Cluster dimensions for the next rt_launch of this host thread (set by
 * cudaLaunchKernelEx / cuLaunchKernelEx around their launch), or NULL. */
extern _Thread_local const uint32_t *rt_cluster_request;
/* A launch's attributes (cudaLaunchAttribute = CUlaunchAttribute): checked,
 * then used around rt_launch (launch_attr.c). rt_attrs_check returns the
 * error of attributes a launch cannot take; rt_attrs_begin sets the
 * cluster request and the attributes rt_launch stores in its operation;
 * rt_attrs_end clears them and, after a launch that was queued, queues
 * the records of its completion events. */
cudaError_t rt_attrs_check(const void *attrs, unsigned n);
void rt_attrs_begin(const void *attrs, unsigned n, uint32_t dims[3]);
void rt_attrs_end(cudaError_t launched, cudaStream_t stream);
extern _Thread_local const rt_attr *rt_attrs_request;
#include "core/devrt.h"
/* whether attributes a make a cooperative launch */
int rt_attrs_cooperative(const rt_attr *a, unsigned n);
extern _Thread_local unsigned rt_nattrs_request;
/* cudaOccupancyMaxActiveClusters for f (launch.c). */
int rt_active_clusters(rt_func *f, int block_size, size_t dyn, uint32_t csize);
/* A parameter's offset and size (cudaFuncGetParamInfo, cuFuncGetParamInfo). */
cudaError_t rt_func_param_info(rt_func *f, size_t index, size_t *offset, size_t *size);
/* The function's figures: registers (0 unknown), max threads per block. */
int rt_func_regs(const rt_func *f);
int rt_func_max_threads(rt_func *f);
/* Blocks of f per multiprocessor for a block size and dynamic shared bytes. */
int rt_occupancy(rt_func *f, int block_size, size_t dyn_shared);

/* ---- bounds of copies and fills (bounds.c) ---- */
/* Whether [p, p+n) may be a side of a copy or fill: inside the tracked
 * allocation holding p, or (device 0) in untracked host memory. */
int rt_side_ok(const void *p, size_t n, int device);
/* Whether bytes [lo, hi) from p may be a side: when p is in a tracked
 * allocation, inside that one; otherwise (device 0) host memory. */
int rt_region_ok(const void *p, size_t lo, size_t hi, int device);
/* Bytes a strided region spans: h rows of w bytes, pitch apart; 0 when
 * empty, SIZE_MAX when the product overflows. */
size_t rt_span(size_t pitch, size_t w, size_t h);
/* The error of copying n bytes of `kind` from src to dst (cudaSuccess,
 * cudaErrorInvalidMemcpyDirection, cudaErrorInvalidValue). */
cudaError_t rt_check_copy(void *dst, const void *src, size_t n, int kind);

/* Texture and surface objects whose image overlaps [p, p+n) stop reading
 * it: their handles fault from now on (texture.c; the memory is freed). */
void rt_tex_forget(const void *p, size_t n);
/* Runs a launch now, outside the queue (cudart/launch.c; graph kernel nodes). */
void rt_run_launch(rt_op *op);
/* cudaMemcpy3D with a cudaArray on a side (array.c). */
cudaError_t rt_copy3d_array(const struct cudaMemcpy3DParms *p);

/* ---- reports (report.c) ---- */
/* Note a finished launch (with its status) for SMEMU_REPORT / SMEMU_JSON. */
void rt_report_launch(const rt_func *f, smemu_status s);

/* ---- dynamic parallelism (core/cdp.c) ---- */
/* Around each launch that runs: rt_cdp_enter before it (a kernel that may
 * launch from the device gets the device runtime), rt_cdp_leave after it
 * with its status: runs the grids and copies it queued, then its tail
 * launches. */
struct cdp_grid;
/* rt_cdp_enter: -1 when the launch must not run (a message said why) */
int rt_cdp_enter(const rt_op *op, struct cdp_grid **g);
void rt_cdp_leave(struct cdp_grid *g, smemu_status s);
/* The context is going: forget the device memory of the parameter buffers. */
void rt_cdp_reset(void);
/* cudaGraphLaunch from the device (cudart/graph_exec.c): whether h was
 * instantiated for device launch (else cudaErrorInvalidValue); running
 * it, no lock taken. */
cudaError_t rt_gexec_device_check(uint64_t h);
void rt_gexec_device_run(uint64_t h);
/* cudaLimitDevRuntimePendingLaunchCount and cudaLimitDevRuntimeSyncDepth */
size_t rt_cdp_pending_limit(void);
size_t rt_cdp_sync_depth(void);
/* A kernel's cudaFuncAttributes (cudart/launch.c), no lock taken. */
void rt_func_attributes(rt_func *f, struct cudaFuncAttributes *attr);
/* Why a launch of f with this shape fails (cudaErrorInvalidValue and
 * friends, as rt_launch returns them), or cudaSuccess; no lock taken. */
cudaError_t rt_launch_check(rt_func *f, smemu_kernel *k, dim3 g, dim3 b, size_t shared);
/* Write the reports (at exit). */
void rt_report_finish(void);

/* ---- compute-sanitizer's records (sanitizer.c) ---- */
/* Read SMEMU_CONTINUE_AFTER_ERROR, SMEMU_LEAK_CHECK, SMEMU_PRINT_LIMIT. */
void rt_san_init(void);
/* A section is written at exit (init check, leak check, continue, limit). */
int rt_san_active(void);
/* Errors found so far (faults, uninitialised global reads, leaks once
 * rt_san_finish ran), and those that are not failed launches: for an
 * error exit code. */
uint64_t rt_san_errors(void);
uint64_t rt_san_extra_errors(void);
/* At exit, first: the leak check (idempotent). */
void rt_san_finish(void);
/* The other checks' errors of a launch, which ERROR SUMMARY counts too
 * (report.c, per launch): hazards of error severity (as RACECHECK SUMMARY
 * counts them), threads at a misused barrier (as synccheck counts), threads
 * that read unwritten shared memory, and a failed launch memcheck did not
 * count. */
void rt_san_checks(uint64_t races, uint64_t sync_threads, uint64_t init_threads, int failed);
/* Note a launch's records (its status and CUDA error); returns the error
 * the program sees (memcheck: cudaErrorLaunchFailure), and *contained = 1
 * when the fault ends the launch only (--continue-after-error). */
cudaError_t rt_san_launch(const rt_func *f, smemu_status s, cudaError_t e, int *contained);
/* A failed call (memcheck reports each); name NULL: found from the stack. */
void rt_san_api_error(cudaError_t e, const char *name);
/* initcheck: a copy reads n bytes at src (device memory nothing wrote is an error). */
void rt_san_copy_source(const void *src, size_t n, const char *call);
/* cudaDeviceReset is about to drop every allocation. */
void rt_san_reset(void);
/* At exit: the leak check, then the records and ERROR SUMMARY. */
void rt_san_write(FILE *f);
/* The same records as a JSON member ",\n  \"sanitizer\": {...}". */
void rt_san_json(FILE *f);

/* The HTML report (SMEMU_HTML, html_report.c): note a launch; write it at exit. */
void rt_html_launch(smemu_status s);
void rt_html_finish(void);

#endif
