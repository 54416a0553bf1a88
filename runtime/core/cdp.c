/* cdp.c: dynamic parallelism (CUDA 12+ CDP2): kernels that launch kernels.
 * A kernel's calls of the device runtime (cudaGetParameterBufferV2 and
 * cudaLaunchDeviceV2, which <<<>>> in device code becomes, streams, events,
 * errors, queries, cudaMemcpyAsync/cudaMemsetAsync) come here from the
 * executor (smemu_set_devcall, src/exec/devcall.c), on the worker threads
 * that run the calling blocks. A launch or copy is queued on the calling
 * grid; when the grid has run, rt_cdp_leave runs what it queued.
 *
 * The schedule: a grid's queued work runs after the whole grid has run, in
 * the order of the launching block's linear index, then of the calls in
 * that block; each child grid runs to completion, its own children and tail
 * launches included, before the next; then the grid's tail launches
 * (cudaStreamTailLaunch) in the order they were made. Every device stream
 * (the block's NULL stream, named streams, cudaStreamFireAndForget) is thus
 * served in issue order, a tail launch starts after its parent and all the
 * parent's other work, and a child sees every write its parent made: a
 * schedule a GPU may pick (it may also run children while their parent
 * runs: a program must not rely on either). A child's writes reach the
 * parent never during the parent's run, as CUDA guarantees nothing before
 * the parent grid completes. The queued work runs from a stack of frames
 * (run_frames), so a chain of nested launches takes no host stack per
 * level. Each child runs through the runtime's own launch path: the checks
 * see it as any grid, and a child that faults is reported with its launch
 * site (parent kernel, block, thread, source line).
 *
 * cudaGraphLaunch from the device queues an executable instantiated for
 * device launch like a child grid (cudaStreamGraphTailLaunch: as a tail
 * launch); as on an H200, an executable has one such launch queued at a
 * time, and a kernel that calls cudaGraphLaunch runs only as a graph's node.
 *
 * Limits, as on an H200 (tests/cdp/recorded): a launch fails with
 * cudaErrorLaunchPendingCountExceeded when cudaLimitDevRuntimePendingLaunchCount
 * (2048) launches are launched and not complete (a grid is complete when
 * its children are, so a chain of nested launches counts every level); a
 * chain of 40 nested grids launches without error there, so smemu sets no
 * nesting limit of its own. Errors are the calling thread's
 * (cudaGetLastError/cudaPeekAtLastError). The parameter
 * buffers cudaGetParameterBufferV2 hands out are device memory of a pool
 * made before the first launch of a kernel that uses the device runtime,
 * each a fresh one while its grid runs (a buffer used twice in one grid
 * would look like a race between its writers to the checks); a grid's
 * buffers are free again once it has run (their launches copied them). */
#include "rt.h"
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CDP_LAUNCH, CDP_COPY, CDP_SET, CDP_GRAPH };
#define POOL_BYTES (4u << 20)
#define STR_BYTES 16384u
#define STREAM_TAIL 3
#define STREAM_FAF 4
#define STREAM_GRAPH_TAIL 0x0100000000000000ull

typedef struct cdp_op {
  int kind;
  uint64_t stream; /* as the call gave it: 0 (the block's NULL stream), STREAM_TAIL, ... */
  uint32_t block;  /* the calling block's linear index */
  uint64_t seq;    /* call order (within a block, program order) */
  rt_func *f;      /* CDP_LAUNCH */
  uint32_t grid[3], dim[3], shared;
  uint8_t *params;
  uint64_t dst, src, width, height, dpitch, spitch; /* CDP_COPY, CDP_SET (src: the byte) */
  uint64_t graph;                                   /* CDP_GRAPH: the executable */
  char site[512];                                   /* who launched it, where */
  int started;                                      /* its grid ran (and has a frame) */
} cdp_op;

typedef struct thread_err {
  uint32_t block, thread;
  cudaError_t e;
} thread_err;

typedef struct cdp_grid {
  rt_func *f;
  int counted; /* a device launch: pending until its work completes */
  int failed;  /* it faulted: its work is dropped */
  int pass;    /* 0: its work, 1: its tail launches; 2: done */
  size_t next; /* the next queued item of the pass */
  cdp_op *ops;
  size_t n, cap;
  thread_err *errs;
  size_t nerrs, caperrs;
  size_t mark_top, mark_bufs; /* the parameter buffers in use when it started */
} cdp_grid;

/* A parameter buffer: cudaGetParameterBufferV2's kernel and shape. */
typedef struct pbuf {
  uint64_t addr;
  smemu_kernel *k;
  uint32_t grid[3], dim[3], shared;
  int launched;
} pbuf;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static cdp_grid *cur; /* the grid running now */
/* the grids whose queued work is being run, innermost last (a stack, so
 * that a chain of nested launches needs no host recursion) */
static cdp_grid **frames;
static size_t nframes, capframes;
static int looping;       /* a loop runs queued work: a finished grid joins it */
static cdp_op *launching; /* the queued launch being started */
static uint64_t *graphs;  /* executables with a device launch queued, not yet run */
static size_t ngraphs, capgraphs;

static size_t pending;
static uint64_t seq, next_handle = 0x1000;
static uint8_t *pool; /* POOL_BYTES of parameter buffers, then strings */
static size_t top;    /* of them, the bytes handed out */
static pbuf *bufs;    /* in address order */
static size_t nbufs, capbufs;
static size_t str_used;

size_t rt_cdp_pending_limit(void) { return rt.pending_limit ? rt.pending_limit : 2048; }
size_t rt_cdp_sync_depth(void) { return rt.sync_depth ? rt.sync_depth : 2; }

static uint32_t u32_at(const smemu_devcall *c, int i) {
  uint32_t v;
  memcpy(&v, c->args[i], 4);
  return v;
}
static uint64_t u64_at(const smemu_devcall *c, int i) {
  uint64_t v;
  memcpy(&v, c->args[i], 8);
  return v;
}
static void dim_at(const smemu_devcall *c, int i, uint32_t d[3]) { memcpy(d, c->args[i], 12); }

static uint32_t linear(const uint32_t i[3], const uint32_t d[3]) {
  return i[0] + d[0] * (i[1] + d[1] * i[2]);
}

/* Room for one more element in the array *p of *cap elements holding n:
 * 0, or -1 when out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return 0;
  size_t c = *cap ? 2 * *cap : 16;
  void *q = realloc(*p, c * size);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

/* ---- the calling thread's error ---- */
static thread_err *err_of(cdp_grid *g, const smemu_devcall *c, int make) {
  uint32_t b = linear(c->block, c->grid), t = linear(c->thread, c->block_dim);
  for (size_t i = 0; i < g->nerrs; i++)
    if (g->errs[i].block == b && g->errs[i].thread == t) return &g->errs[i];
  if (!make) return NULL;
  if (grow((void **)&g->errs, &g->caperrs, g->nerrs, sizeof *g->errs) < 0) return NULL;
  g->errs[g->nerrs] = (thread_err){b, t, cudaSuccess};
  return &g->errs[g->nerrs++];
}

static cudaError_t fail(cdp_grid *g, const smemu_devcall *c, cudaError_t e) {
  thread_err *te = e ? err_of(g, c, 1) : NULL;
  if (te) te->e = e;
  return e;
}

/* ---- kernels ---- */
static rt_func *func_of(smemu_kernel *k) {
  smemu_module *mod = smemu_kernel_module(k);
  const char *name = smemu_kernel_name(k);
  rt_module *owner = NULL;
  for (rt_module *m = rt.mods; m; m = m->next)
    if (m->mod == mod) owner = m;
  for (rt_func *f = rt.funcs; f; f = f->next)
    if (f->m == owner && f->name && !strcmp(f->name, name)) {
      smemu_kernel *fk;
      return rt_func_kernel(f, &fk) == cudaSuccess && fk == k ? f : NULL;
    }
  /* a kernel no host stub registered (a module the driver API loaded) */
  if (!owner) return NULL;
  rt_func *f = rt_func_new(owner, NULL, name);
  if (f) f->k = k;
  return f;
}

static void site_of(const smemu_devcall *c, char *out, size_t n) {
  int k = snprintf(out, n, "%s, block (%u,%u,%u), thread (%u,%u,%u)", smemu_kernel_name(c->kernel),
                   c->block[0], c->block[1], c->block[2], c->thread[0], c->thread[1], c->thread[2]);
  if (c->file && k > 0 && (size_t)k < n) snprintf(out + k, n - (size_t)k, ", at %s:%u", c->file, c->line);
}

static cdp_op *add_op(cdp_grid *g, const smemu_devcall *c, int kind, uint64_t stream) {
  if (grow((void **)&g->ops, &g->cap, g->n, sizeof *g->ops) < 0) return NULL;
  cdp_op *o = &g->ops[g->n++];
  memset(o, 0, sizeof *o);
  o->kind = kind;
  o->stream = stream;
  o->block = linear(c->block, c->grid);
  o->seq = seq++;
  site_of(c, o->site, sizeof o->site);
  return o;
}

/* Queue a launch of k whose parameters are at params: the error a GPU's
 * launch call returns, or cudaSuccess. */
static cudaError_t launch(cdp_grid *g, smemu_devcall *c, smemu_kernel *k, const uint32_t grid[3],
                          const uint32_t dim[3], uint32_t shared, uint64_t params, uint64_t stream) {
  rt_func *f = k ? func_of(k) : NULL;
  if (!f) return cudaErrorInvalidDeviceFunction;
  dim3 gd = {grid[0], grid[1], grid[2]}, bd = {dim[0], dim[1], dim[2]};
  /* a device launch answers every shape the host's would refuse with
   * cudaErrorInvalidConfiguration (an H200: a block of 2048 threads, too
   * much shared memory) */
  if (rt_launch_check(f, k, gd, bd, shared)) return cudaErrorInvalidConfiguration;
  if (pending >= rt_cdp_pending_limit()) return cudaErrorLaunchPendingCountExceeded;
  int64_t pbytes = 0;
  smemu_kernel_get_attribute(k, SMEMU_ATTR_PARAM_BYTES, &pbytes);
  uint8_t *copy = calloc(1, (size_t)pbytes + 16);
  if (!copy) return cudaErrorMemoryAllocation;
  /* the parameters as the parent wrote them before the launch */
  if (pbytes && c->access(c->cookie, params, copy, (uint32_t)pbytes, 0) < 0) {
    free(copy);
    return cudaErrorIllegalAddress;
  }
  cdp_op *o = add_op(g, c, CDP_LAUNCH, stream);
  if (!o) {
    free(copy);
    return cudaErrorMemoryAllocation;
  }
  o->f = f;
  memcpy(o->grid, grid, sizeof o->grid);
  memcpy(o->dim, dim, sizeof o->dim);
  o->shared = shared;
  o->params = copy;
  pending++;
  return cudaSuccess;
}

static pbuf *buf_at(uint64_t addr) {
  size_t lo = 0, hi = nbufs;
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if (bufs[m].addr == addr) return &bufs[m];
    if (bufs[m].addr < addr)
      lo = m + 1;
    else
      hi = m;
  }
  return NULL;
}

/* A fresh parameter buffer of `bytes` aligned to `align`, or 0. */
static uint64_t buf_take(uint64_t bytes, uint64_t align, smemu_kernel *k, const uint32_t grid[3],
                         const uint32_t dim[3], uint32_t shared) {
  if (align < 16) align = 16;
  if (!pool || align > 4096 || bytes > POOL_BYTES) return 0;
  size_t at = (top + align - 1) / align * align;
  if (at + bytes > POOL_BYTES) return 0;
  if (grow((void **)&bufs, &capbufs, nbufs, sizeof *bufs) < 0) return 0;
  top = at + (bytes ? bytes : 1);
  uint64_t a = (uint64_t)(uintptr_t)(pool + at);
  bufs[nbufs++] = (pbuf){a, k, {grid[0], grid[1], grid[2]}, {dim[0], dim[1], dim[2]}, shared, 0};
  return a;
}

/* A string in device memory for cudaGetErrorName/String, or 0. */
static uint64_t dev_string(const char *s) {
  size_t n = strlen(s) + 1;
  uint8_t *area = pool + POOL_BYTES;
  for (size_t at = 0; at < str_used; at += strlen((char *)area + at) + 1)
    if (!strcmp((char *)area + at, s)) return (uint64_t)(uintptr_t)(area + at);
  if (str_used + n > STR_BYTES) return 0;
  smemu_memcpy(rt.ctx, area + str_used, s, n);
  str_used += n;
  return (uint64_t)(uintptr_t)(area + str_used - n);
}

/* Store n bytes at addr for the calling thread, in naturally aligned
 * pieces of up to 8 bytes (as the structure's own stores would be). */
static int put(smemu_devcall *c, uint64_t addr, const void *v, uint32_t n) {
  const uint8_t *b = v;
  for (uint32_t at = 0; at < n;) {
    uint32_t k = 8;
    while (k > 1 && ((addr + at) % k || n - at < k)) k /= 2;
    if (c->access(c->cookie, addr + at, (void *)(b + at), k, 1) < 0) return -1;
    at += k;
  }
  return 0;
}

static int limit_value(int which, size_t *v) {
  switch (which) {
  case cudaLimitStackSize:
    *v = rt.stack_limit;
    return 0;
  case cudaLimitPrintfFifoSize:
    *v = rt.printf_fifo;
    return 0;
  case cudaLimitMallocHeapSize:
    *v = rt.heap_limit;
    return 0;
  case cudaLimitDevRuntimeSyncDepth:
    *v = rt_cdp_sync_depth();
    return 0;
  case cudaLimitDevRuntimePendingLaunchCount:
    *v = rt_cdp_pending_limit();
    return 0;
  default:
    return -1;
  }
}

/* Queue a copy (src: an address) or a set (src: the byte) of height rows
 * of width bytes, pitches apart. */
static int queue_mem(cdp_grid *g, smemu_devcall *c, int kind, uint64_t stream, uint64_t dst, uint64_t dpitch,
                     uint64_t src, uint64_t spitch, uint64_t width, uint64_t height, uint64_t *ret) {
  cdp_op *o = add_op(g, c, kind, stream);
  if (!o) {
    *ret = fail(g, c, cudaErrorMemoryAllocation);
    return 0;
  }
  o->dst = dst;
  o->dpitch = dpitch;
  o->src = src;
  o->spitch = spitch;
  o->width = width;
  o->height = height;
  *ret = 0;
  return 0;
}

/* The device runtime's functions; c->fn is the name after __cudaCDP2. */
static int call(cdp_grid *g, smemu_devcall *c, uint64_t *ret) {
  const char *fn = c->fn;
  cudaError_t e = cudaSuccess;
  if (!strcmp(fn, "GetParameterBufferV2")) {
    uint32_t grid[3], dim[3];
    dim_at(c, 1, grid);
    dim_at(c, 2, dim);
    smemu_kernel *k = smemu_kernel_at(c->kernel, u64_at(c, 0));
    int64_t pbytes = 0;
    if (k) smemu_kernel_get_attribute(k, SMEMU_ATTR_PARAM_BYTES, &pbytes);
    *ret = k ? buf_take((uint64_t)pbytes, 16, k, grid, dim, u32_at(c, 3)) : 0;
    if (!*ret) fail(g, c, k ? cudaErrorLaunchOutOfResources : cudaErrorInvalidDeviceFunction);
    return 0;
  }
  if (!strcmp(fn, "GetParameterBuffer")) {
    /* (alignment, size) */
    uint32_t none[3] = {0, 0, 0};
    *ret = buf_take(u64_at(c, 1), u64_at(c, 0), NULL, none, none, 0);
    if (!*ret) fail(g, c, cudaErrorLaunchOutOfResources);
    return 0;
  }
  if (!strcmp(fn, "LaunchDeviceV2") || !strcmp(fn, "LaunchDeviceV2_ptsz")) {
    uint64_t buf = u64_at(c, 0);
    pbuf *s = buf_at(buf);
    if (!s || s->launched || !s->k) {
      *ret = fail(g, c, cudaErrorInvalidValue);
      return 0;
    }
    s->launched = 1;
    e = launch(g, c, s->k, s->grid, s->dim, s->shared, buf, u64_at(c, 1));
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "LaunchDevice") || !strcmp(fn, "LaunchDevice_ptsz")) {
    /* (func, parameterBuffer, gridDim, blockDim, sharedMem, stream) */
    uint32_t grid[3], dim[3];
    dim_at(c, 2, grid);
    dim_at(c, 3, dim);
    uint64_t buf = u64_at(c, 1);
    pbuf *s = buf_at(buf);
    if (s) s->launched = 1;
    e = launch(g, c, smemu_kernel_at(c->kernel, u64_at(c, 0)), grid, dim, u32_at(c, 4), buf, u64_at(c, 5));
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "GetLastError") || !strcmp(fn, "PeekAtLastError")) {
    thread_err *te = err_of(g, c, 0);
    *ret = te ? (uint64_t)te->e : 0;
    if (te && fn[0] == 'G') te->e = cudaSuccess;
    return 0;
  }
  if (!strcmp(fn, "StreamCreateWithFlags") || !strcmp(fn, "EventCreateWithFlags")) {
    /* a stream must be non-blocking (CDP2); events take no timing */
    uint64_t h = next_handle++;
    if (put(c, u64_at(c, 0), &h, 8) < 0) return -1;
    *ret = 0;
    return 0;
  }
  if (!strcmp(fn, "StreamDestroy") || !strncmp(fn, "StreamWaitEvent", 15) ||
      !strncmp(fn, "EventRecord", 11) || !strcmp(fn, "EventDestroy")) {
    /* every queue is served in issue order: a wait has nothing to add */
    *ret = 0;
    return 0;
  }
  if (!strcmp(fn, "GetDevice") || !strcmp(fn, "GetDeviceCount") || !strcmp(fn, "RuntimeGetVersion") ||
      !strcmp(fn, "DeviceGetCacheConfig") || !strcmp(fn, "DeviceGetSharedMemConfig")) {
    int v = !strcmp(fn, "GetDevice")              ? 0
            : !strcmp(fn, "GetDeviceCount")       ? 1
            : !strcmp(fn, "RuntimeGetVersion")    ? 6000 /* the device runtime's own (an H200) */
            : !strcmp(fn, "DeviceGetCacheConfig") ? rt.cache_config
                                                  : rt.shmem_config;
    if (put(c, u64_at(c, 0), &v, 4) < 0) return -1;
    *ret = 0;
    return 0;
  }
  if (!strcmp(fn, "DeviceGetAttribute")) {
    int v = 0;
    if (u32_at(c, 2) != 0)
      e = cudaErrorInvalidDevice;
    else if (rt_device_attribute((int)u32_at(c, 1), &v) != 0)
      e = cudaErrorInvalidValue;
    else if (put(c, u64_at(c, 0), &v, 4) < 0)
      return -1;
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "DeviceGetLimit")) {
    size_t v;
    if (limit_value((int)u32_at(c, 1), &v) < 0)
      e = cudaErrorUnsupportedLimit;
    else if (put(c, u64_at(c, 0), &v, 8) < 0)
      return -1;
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "FuncGetAttributes")) {
    smemu_kernel *k = smemu_kernel_at(c->kernel, u64_at(c, 1));
    rt_func *f = k ? func_of(k) : NULL;
    struct cudaFuncAttributes a;
    if (!f)
      e = cudaErrorInvalidDeviceFunction;
    else {
      rt_func_attributes(f, &a);
      if (put(c, u64_at(c, 0), &a, sizeof a) < 0) return -1;
    }
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strncmp(fn, "OccupancyMaxActiveBlocksPerMultiprocessor", 41)) {
    /* (numBlocks, func, blockSize, dynamicSMemSize[, flags]) */
    smemu_kernel *k = smemu_kernel_at(c->kernel, u64_at(c, 1));
    rt_func *f = k ? func_of(k) : NULL;
    if (!f)
      e = cudaErrorInvalidDeviceFunction;
    else {
      int v = rt_occupancy(f, (int)u32_at(c, 2), (size_t)u64_at(c, 3));
      if (put(c, u64_at(c, 0), &v, 4) < 0) return -1;
    }
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "GraphLaunch")) {
    /* (graphExec, stream): cudaStreamGraphTailLaunch, or a fire-and-forget
     * stream. An executable has one device launch at a time: a second
     * while one is queued fails with cudaErrorInvalidValue (an H200: a
     * fire-and-forget launch and then a tail launch of one executable) */
    uint64_t h = u64_at(c, 0), st = u64_at(c, 1);
    e = rt_gexec_device_check(h);
    for (size_t i = 0; !e && i < ngraphs; i++)
      if (graphs[i] == h) e = cudaErrorInvalidValue;
    if (!e && grow((void **)&graphs, &capgraphs, ngraphs, sizeof *graphs) < 0) e = cudaErrorMemoryAllocation;
    cdp_op *o = e ? NULL : add_op(g, c, CDP_GRAPH, st == STREAM_GRAPH_TAIL ? STREAM_TAIL : st);
    if (!e && !o) e = cudaErrorMemoryAllocation;
    if (o) {
      o->graph = h;
      graphs[ngraphs++] = h;
    }
    *ret = fail(g, c, e);
    return 0;
  }
  if (!strcmp(fn, "GetErrorName") || !strcmp(fn, "GetErrorString")) {
    cudaError_t x = (cudaError_t)u32_at(c, 0);
    *ret = dev_string(fn[8] == 'N' ? cudaGetErrorName(x) : cudaGetErrorString(x));
    return 0;
  }
  if (!strcmp(fn, "MemcpyAsync") || !strcmp(fn, "MemcpyAsync_ptsz")) /* (dst, src, count, kind, stream) */
    return queue_mem(g, c, CDP_COPY, u64_at(c, 4), u64_at(c, 0), 0, u64_at(c, 1), 0, u64_at(c, 2), 1, ret);
  if (!strcmp(fn, "MemsetAsync") || !strcmp(fn, "MemsetAsync_ptsz")) /* (dst, value, count, stream) */
    return queue_mem(g, c, CDP_SET, u64_at(c, 3), u64_at(c, 0), 0, u32_at(c, 1) & 0xff, 0, u64_at(c, 2), 1,
                     ret);
  if (!strcmp(fn, "Memcpy2DAsync") || !strcmp(fn, "Memcpy2DAsync_ptsz"))
    /* (dst, dpitch, src, spitch, width, height, kind, stream) */
    return queue_mem(g, c, CDP_COPY, u64_at(c, 7), u64_at(c, 0), u64_at(c, 1), u64_at(c, 2), u64_at(c, 3),
                     u64_at(c, 4), u64_at(c, 5), ret);
  if (!strcmp(fn, "Memset2DAsync") || !strcmp(fn, "Memset2DAsync_ptsz"))
    /* (dst, pitch, value, width, height, stream) */
    return queue_mem(g, c, CDP_SET, u64_at(c, 5), u64_at(c, 0), u64_at(c, 1), u32_at(c, 2) & 0xff, 0,
                     u64_at(c, 3), u64_at(c, 4), ret);
  snprintf(c->msg, sizeof c->msg, "smemu does not provide this device runtime function");
  return -1;
}

static int hook(smemu_devcall *c, uint64_t *ret, void *user) {
  (void)user;
  pthread_mutex_lock(&mu);
  int r;
  if (!cur) {
    snprintf(c->msg, sizeof c->msg, "no grid is running (internal error)");
    r = -1;
  } else {
    r = call(cur, c, ret);
  }
  pthread_mutex_unlock(&mu);
  return r;
}

int rt_cdp_enter(const rt_op *op, cdp_grid **out) {
  rt_func *f = op->f;
  *out = NULL;
  /* a grid that cannot launch needs nothing */
  if (!f || !f->k || !rt.ctx || !smemu_kernel_uses_devrt(f->k)) return 0;
  /* an H200 does not run a kernel that calls cudaGraphLaunch unless a
   * graph launched it: none of its writes happen, no error is reported
   * (tests/cdp/recorded/graph.out) */
  if (op->origin != RT_FROM_GRAPH && smemu_kernel_calls(f->k, "cudaGraphLaunch")) {
    rt_msg("%s calls cudaGraphLaunch but was not launched from a graph: it does not run (as on a GPU)",
           f->name);
    return -1;
  }
  cdp_grid *g = calloc(1, sizeof *g);
  if (!g) return 0;
  if (!pool) {
    void *p = NULL;
    if (smemu_malloc(rt.ctx, &p, (size_t)POOL_BYTES + STR_BYTES) == SMEMU_OK) {
      pool = p;
      smemu_memset(rt.ctx, pool, 0, (size_t)POOL_BYTES + STR_BYTES);
    }
  }
  smemu_set_devcall(rt.ctx, hook, NULL);
  pthread_mutex_lock(&mu);
  g->counted = launching && launching->kind == CDP_LAUNCH;
  if (g->counted) launching->started = 1;
  g->mark_top = top;
  g->mark_bufs = nbufs;
  g->f = f;
  cur = g;
  pthread_mutex_unlock(&mu);
  *out = g;
  return 0;
}

void rt_cdp_reset(void) {
  pthread_mutex_lock(&mu);
  pool = NULL;
  top = nbufs = str_used = ngraphs = 0;
  pthread_mutex_unlock(&mu);
}

/* CUDA 13.0's device runtime never reads the value of a device-side
 * cudaMemsetAsync or cudaMemset2DAsync: it sets the bytes to 0 (its
 * libcudadevrt.a; an H200 gave zeros for a set to 7:
 * tests/cdp/recorded/streams.out). smemu does the same, and says so once. */
static void run_copy(const cdp_op *o) {
  static int said;
  if (o->kind == CDP_SET && o->src && !said) {
    said = 1;
    rt_msg("note: a device-side cudaMemsetAsync of value %d (called by %s) sets 0, as CUDA 13.0's device "
           "runtime "
           "does",
           (int)o->src, o->site);
  }
  for (uint64_t r = 0; r < o->height; r++) {
    void *d = (void *)(uintptr_t)(o->dst + r * o->dpitch);
    void *base;
    size_t bytes;
    if (smemu_mem_lookup(rt.ctx, d, &base, &bytes, NULL) != SMEMU_OK ||
        (uint8_t *)d + o->width > (uint8_t *)base + bytes ||
        (o->kind == CDP_COPY &&
         (smemu_mem_lookup(rt.ctx, (void *)(uintptr_t)(o->src + r * o->spitch), &base, &bytes, NULL) !=
              SMEMU_OK ||
          (uint8_t *)(uintptr_t)(o->src + r * o->spitch) + o->width > (uint8_t *)base + bytes))) {
      rt_msg("error: a device-side cudaMem%sAsync of %" PRIu64 " bytes at 0x%" PRIx64
             " reaches outside device memory (called by %s)",
             o->kind == CDP_COPY ? "cpy" : "set", o->width, o->dst, o->site);
      rt.sticky = cudaErrorIllegalAddress;
      return;
    }
    if (o->kind == CDP_COPY)
      smemu_memcpy(rt.ctx, d, (void *)(uintptr_t)(o->src + r * o->spitch), o->width);
    else
      smemu_memset(rt.ctx, d, 0, o->width);
  }
}

static void run_child(cdp_op *o) {
  rt_op op;
  memset(&op, 0, sizeof op);
  op.kind = OP_LAUNCH;
  op.stream = &rt.default_stream;
  op.f = o->f;
  memcpy(op.grid, o->grid, sizeof op.grid);
  memcpy(op.block, o->dim, sizeof op.block);
  op.shared = o->shared;
  op.bank_mode = rt.shmem_config == cudaSharedMemBankSizeEightByte ? 8 : 4;
  op.params = o->params;
  op.origin = RT_FROM_DEVICE;
  rt_run_launch(&op);
  smemu_fault fi;
  if ((smemu_last_fault(rt.ctx, &fi) == SMEMU_OK && fi.status) || smemu_fault_count(rt.ctx) > 0)
    rt_msg("the grid %s<<<(%u,%u,%u),(%u,%u,%u)>>> was launched from the device by %s", o->f->name,
           o->grid[0], o->grid[1], o->grid[2], o->dim[0], o->dim[1], o->dim[2], o->site);
}

static int by_block(const void *a, const void *b) {
  const cdp_op *x = a, *y = b;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A queued device launch of a graph is done (run or dropped). */
static void graph_done(uint64_t h) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < ngraphs; i++)
    if (graphs[i] == h) {
      graphs[i] = graphs[--ngraphs];
      break;
    }
  pthread_mutex_unlock(&mu);
}

static void release(int n) {
  pthread_mutex_lock(&mu);
  pending -= (size_t)n;
  pthread_mutex_unlock(&mu);
}

/* The next queued item of g: its work in order, then its tail launches. */
static cdp_op *next_op(cdp_grid *g) {
  for (; g->pass < 2; g->pass++, g->next = 0)
    while (g->next < g->n) {
      cdp_op *o = &g->ops[g->next++];
      if ((o->stream == STREAM_TAIL) == g->pass) return o;
    }
  return NULL;
}

/* g and all its work are complete. */
static void finish(cdp_grid *g) {
  if (g->counted) release(1);
  for (size_t i = 0; i < g->n; i++) {
    free(g->ops[i].params);
    /* (dropped unrun when out of memory) */
    if (g->ops[i].kind == CDP_GRAPH && g->ops[i].graph) graph_done(g->ops[i].graph);
  }
  free(g->ops);
  free(g->errs);
  free(g);
}

/* Run the queued work of the frames above base, depth first: a child's
 * frame goes on top when its grid has run, so its work and tail launches
 * finish before its parent's next item. */
static void run_frames(size_t base) {
  while (nframes > base) {
    cdp_grid *g = frames[nframes - 1];
    cdp_op *o = next_op(g);
    if (!o) {
      nframes--;
      finish(g);
      continue;
    }
    if (g->failed || rt.sticky) {
      /* a faulted grid's work is dropped: the context is gone */
      if (o->kind == CDP_LAUNCH) release(1);
      if (o->kind == CDP_GRAPH) graph_done(o->graph);
      o->graph = 0;
      continue;
    }
    launching = o;
    o->started = 0;
    if (o->kind == CDP_LAUNCH) {
      run_child(o);
    } else if (o->kind == CDP_GRAPH) {
      /* a graph's nodes finish (their children too) one after another */
      int was = looping;
      looping = 0;
      rt_gexec_device_run(o->graph);
      looping = was;
      graph_done(o->graph);
      o->graph = 0;
    } else {
      run_copy(o);
    }
    launching = NULL;
    if (o->kind == CDP_LAUNCH && !o->started) release(1);
  }
}

void rt_cdp_leave(cdp_grid *g, smemu_status s) {
  if (!g) return;
  pthread_mutex_lock(&mu);
  top = g->mark_top;
  nbufs = g->mark_bufs;
  cur = NULL;
  pthread_mutex_unlock(&mu);
  g->failed = s != SMEMU_OK;
  qsort(g->ops, g->n, sizeof *g->ops, by_block);
  if (grow((void **)&frames, &capframes, nframes, sizeof *frames) < 0) {
    rt_msg("out of memory running the grids %s launched", g->f->name);
    g->failed = 1;
    g->pass = 2;
    for (size_t i = 0; i < g->n; i++)
      if (g->ops[i].kind == CDP_LAUNCH) release(1);
    finish(g);
    return;
  }
  frames[nframes++] = g;
  if (looping) return;
  looping = 1;
  run_frames(nframes - 1);
  looping = 0;
}
