/* launch.c: kernel launches and what describes a kernel. A launch is
 * checked when it is issued, with the errors CUDA 13 gives (measured on an
 * H200): invalid argument for bad grids and blocks, for a block above the
 * kernel's __launch_bounds__ and for dynamic shared memory above the
 * kernel's limit (48 KB less its static bytes unless
 * cudaFuncAttributeMaxDynamicSharedMemorySize raised it, at most the opt-in
 * maximum); too many resources when the block exceeds what the kernel's
 * registers allow; invalid resource handle for a function that is no
 * registered kernel. Its argument values are copied, and it is queued;
 * run_launch runs it on smemu. Also
 * cudaFuncGetAttributes / SetAttribute / SetCacheConfig and the occupancy
 * calculator, which uses the profile's thread, register and shared-memory
 * limits and the register counts ptxas wrote in the program's cubin. */
#include "graph.h"
#include "rt.h"
#include <stdlib.h>
#include <string.h>

/* ---- kernel figures ---- */

int rt_func_regs(const rt_func *f) {
  const fb_kinfo *k = fb_kernel(&f->m->img, f->name);
  return k && k->regs > 0 ? k->regs : 0;
}

/* Register-file sub-partitions (one per warp scheduler) and the register
 * allocation unit, per generation. */
static int sub_partitions(void) {
  int cc = rt.arch.major * 10 + rt.arch.minor;
  if (cc < 30) return 1;
  if (cc == 60) return 2;
  return 4;
}
static int reg_unit(void) { return rt.arch.major < 3 ? 64 : 256; }
static int smem_unit(void) {
  return rt.arch.major >= 8 || rt.arch.major == 2 ? 128 : rt.arch.major == 1 ? 512 : 256;
}

static int round_up(int x, int u) { return (x + u - 1) / u * u; }

/* Warps per multiprocessor the registers allow for `regs` per thread, and
 * whether a block of `warps` warps fits the per-block register file. */
static int reg_warps(int regs) {
  int rpw = round_up(regs * rt.arch.warp_size, reg_unit());
  int subs = sub_partitions();
  return (int)(rt.arch.regs_per_sm / (uint32_t)subs / (uint32_t)rpw) * subs;
}

/* Threads per block the kernel's __launch_bounds__ (.maxntid) and the
 * device allow. */
static int64_t bound_threads(rt_func *f) {
  int64_t mx = rt.arch.max_threads_per_block;
  if (f->k) smemu_kernel_get_attribute(f->k, SMEMU_ATTR_MAX_THREADS, &mx);
  return mx;
}

int rt_func_max_threads(rt_func *f) {
  int64_t mx = bound_threads(f);
  int regs = rt_func_regs(f);
  if (regs > 0) {
    int rpw = round_up(regs * rt.arch.warp_size, reg_unit());
    int subs = sub_partitions();
    int warps = (int)(rt.arch.regs_per_block / (uint32_t)subs / (uint32_t)rpw) * subs;
    if ((int64_t)warps * rt.arch.warp_size < mx) mx = (int64_t)warps * rt.arch.warp_size;
  }
  return (int)mx;
}

static int64_t max_dyn_shared(rt_func *f) {
  int64_t v = 0;
  if (f->k) smemu_kernel_get_attribute(f->k, SMEMU_ATTR_MAX_DYNAMIC_SHARED, &v);
  return v;
}

/* Shared bytes per multiprocessor for a preferred carveout (percent, -1
 * none): the smallest carveout the generation offers at or above it. */
static uint32_t carveout_bytes(int percent, uint32_t at_least) {
  uint32_t want =
      percent < 0 ? rt.arch.smem_per_sm : (uint32_t)((uint64_t)percent * rt.arch.smem_per_sm / 100);
  if (want < at_least) want = at_least;
  for (int i = 0; i < rt.arch.ncarveouts; i++)
    if ((uint32_t)rt.arch.carveout_kb[i] * 1024 >= want) return (uint32_t)rt.arch.carveout_kb[i] * 1024;
  return rt.arch.smem_per_sm;
}

/* CUDA does not hold the block size to the kernel's maxThreadsPerBlock
 * here: a block above its __launch_bounds__ gets the figure its registers
 * and shared memory give (measured: __launch_bounds__(256) with 8 registers
 * gives 4 2 2 blocks for 512, 768 and 1024 threads, as without bounds);
 * only the device's limit on a block's threads and the register file per
 * block give 0. */
int rt_occupancy(rt_func *f, int block_size, size_t dyn) {
  if (block_size > rt.arch.max_threads_per_block) return 0;
  int ws = rt.arch.warp_size;
  int warps = (block_size + ws - 1) / ws;
  int limit = rt.arch.max_blocks_per_sm;
  int by_warps = rt.arch.max_threads_per_sm / ws / warps;
  if (by_warps < limit) limit = by_warps;
  int regs = rt_func_regs(f);
  if (regs > 0) {
    int subs = sub_partitions();
    int rpw = round_up(regs * ws, reg_unit());
    if ((int64_t)rpw * round_up(warps, subs) > (int64_t)rt.arch.regs_per_block ||
        regs > rt.arch.regs_per_thread + 1)
      return 0;
    int by_regs = reg_warps(regs) / warps;
    if (by_regs < limit) limit = by_regs;
  }
  uint32_t st = f->k ? smemu_kernel_static_shared(f->k) : 0;
  uint64_t used = (uint64_t)st + dyn + rt.arch.smem_reserved_per_block;
  uint64_t alloc = (uint64_t)round_up((int)(used > 0x7fffffff ? 0x7fffffff : used), smem_unit());
  /* the per-block limit: 48 KB, or the opt-in maximum once the kernel's
   * MaxDynamicSharedMemorySize asks for more; plus the reserved bytes */
  uint64_t per_block = rt.arch.smem_per_block;
  if (f->max_dyn >= 0 && st + (uint64_t)f->max_dyn > rt.arch.smem_per_block)
    per_block = rt.arch.smem_per_block_optin;
  if (f->max_dyn >= 0 && dyn > (uint64_t)f->max_dyn) return 0;
  if (alloc > per_block + rt.arch.smem_reserved_per_block) return 0;
  if (alloc > 0) {
    uint32_t per_sm = carveout_bytes(f->carveout, rt.arch.major >= 7 ? (uint32_t)alloc : 0);
    int by_smem = (int)(per_sm / alloc);
    if (by_smem < limit) limit = by_smem;
  }
  return limit < 0 ? 0 : limit;
}

/* ---- launch ---- */

/* Runs one queued launch: the queue calls it through op->run. */
static void run_launch(rt_op *op) {
  smemu_kernel *k = op->f->k;
  smemu_ctx *ctx = rt.ctx;
  if (!k || !ctx) return;
  int np = smemu_kernel_param_count(k);
  void **argv = calloc((size_t)np + 1, sizeof *argv);
  if (!argv) {
    rt_set_last(cudaErrorMemoryAllocation);
    return;
  }
  for (int i = 0; i < np; i++) {
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    argv[i] = op->params + pi.offset;
  }
  if (rt.arch.bank8_selectable) smemu_set_bank_mode(ctx, op->bank_mode);
  struct cdp_grid *g = NULL;
  if (rt_cdp_enter(op, &g) < 0) {
    free(argv);
    return;
  }
  smemu_status s = rt_attrs_cooperative(op->attrs, op->nattrs)
                       ? smemu_launch_cooperative(ctx, k, op->grid, op->block,
                                                  op->has_cluster ? op->cluster : NULL, op->shared, argv)
                       : smemu_launch_cluster(ctx, k, op->grid, op->block,
                                              op->has_cluster ? op->cluster : NULL, op->shared, argv);
  free(argv);
  cudaError_t e = cudaSuccess;
  if (s != SMEMU_OK) {
    int sticky;
    const char *msg = smemu_errmsg(ctx);
    e = rt_launch_error(s, msg, &sticky);
    rt_msg("error: %s (%s)", msg, cudaGetErrorName(e));
    /* --continue-after-error: a bad address ends this launch only */
    int contained = 0;
    if (sticky) e = rt_san_launch(op->f, s, e, &contained);
    if (sticky && !contained)
      rt.sticky = e;
    else if (!sticky)
      rt_set_last(e);
  } else {
    /* (synccheck ends the context at a barrier error) */
    int contained = 0;
    e = rt_san_launch(op->f, s, e, &contained);
    if (e && !contained) rt.sticky = e;
  }
  rt_report_launch(op->f, s);
  rt_cdp_leave(g, s);
}

/* A launch outside the queue: a graph's kernel node (graph_exec.c). */
void rt_run_launch(rt_op *op) { run_launch(op); }

cudaError_t rt_launch_check(rt_func *f, smemu_kernel *k, dim3 g, dim3 b, size_t shared) {
  const smemu_arch_info *a = &rt.arch;
  uint64_t threads = (uint64_t)b.x * b.y * b.z;
  /* CUDA 13 answers every bad grid or block with cudaErrorInvalidValue (not
   * cudaErrorInvalidConfiguration as earlier versions did), a block above
   * __launch_bounds__ too; none of them is sticky */
  if (!b.x || !b.y || !b.z || b.x > (unsigned)a->max_block_dim[0] || b.y > (unsigned)a->max_block_dim[1] ||
      b.z > (unsigned)a->max_block_dim[2] || threads > (uint64_t)a->max_threads_per_block)
    return cudaErrorInvalidValue;
  if (!g.x || !g.y || !g.z || g.x > a->max_grid_dim[0] || g.y > a->max_grid_dim[1] ||
      g.z > a->max_grid_dim[2])
    return cudaErrorInvalidValue;
  if (threads > (uint64_t)bound_threads(f)) return cudaErrorInvalidValue;
  /* more threads than the registers ptxas gave the kernel allow (not
   * measured on CUDA 13: the classic "too many resources requested") */
  if (threads > (uint64_t)rt_func_max_threads(f)) return cudaErrorLaunchOutOfResources;
  if (shared > (uint64_t)max_dyn_shared(f) ||
      smemu_kernel_static_shared(k) + (uint64_t)shared > a->smem_per_block_optin)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t rt_launch(rt_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t stream) {
  smemu_kernel *k;
  if (!f) return cudaErrorInvalidResourceHandle;
  cudaError_t e = rt_func_kernel(f, &k);
  if (e) return e;
  rt_stream *s = rt_stream_get(stream);
  if (!s) return cudaErrorInvalidResourceHandle;
  if ((e = rt_launch_check(f, k, g, b, shared))) return e;
  const smemu_arch_info *a = &rt.arch;
  uint64_t threads = (uint64_t)b.x * b.y * b.z;
  /* clusters: bad dimensions fail the launch call itself, not sticky */
  const uint32_t *creq = rt_cluster_request;
  uint32_t cdim[3], gdim[3] = {g.x, g.y, g.z};
  smemu_status cs = smemu_kernel_cluster_dims(k, gdim, creq, cdim);
  if (cs == SMEMU_ERR_CLUSTER_CONFIG) {
    rt_msg("%s", smemu_errmsg(rt.ctx));
    return cudaErrorInvalidClusterSize;
  }
  if (cs) return cudaErrorInvalidValue;
  /* a cooperative grid must fit the device at once: the kernel's
   * occupancy times the SMs */
  if (rt_attrs_cooperative(rt_attrs_request, rt_nattrs_request) &&
      (uint64_t)g.x * g.y * g.z > (uint64_t)rt_occupancy(f, (int)threads, shared) * (uint64_t)a->sm_count)
    return cudaErrorCooperativeLaunchTooLarge;
  int np = smemu_kernel_param_count(k);
  if (np && !args) return cudaErrorInvalidValue;
  int64_t pbytes = 0;
  smemu_kernel_get_attribute(k, SMEMU_ATTR_PARAM_BYTES, &pbytes);
  rt_op *op = calloc(1, sizeof *op);
  uint8_t *params = calloc(1, (size_t)pbytes + 16);
  if (!op || !params) {
    free(op);
    free(params);
    return cudaErrorMemoryAllocation;
  }
  for (int i = 0; i < np; i++) {
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    if (!args[i]) {
      free(op);
      free(params);
      return cudaErrorInvalidValue;
    }
    memcpy(params + pi.offset, args[i], pi.size);
  }
  op->kind = OP_LAUNCH;
  op->run = run_launch;
  op->stream = s;
  op->f = f;
  op->grid[0] = g.x, op->grid[1] = g.y, op->grid[2] = g.z;
  op->block[0] = b.x, op->block[1] = b.y, op->block[2] = b.z;
  op->shared = (uint32_t)shared;
  if (creq) {
    memcpy(op->cluster, creq, sizeof op->cluster);
    op->has_cluster = 1;
  }
  /* the kernel's cudaFuncSetSharedMemConfig wins over the device's, as on
   * compute capability 3.x; elsewhere both are 4 (no 8-byte mode) */
  op->bank_mode = f->shmem_config == cudaSharedMemBankSizeEightByte   ? 8
                  : f->shmem_config == cudaSharedMemBankSizeFourByte  ? 4
                  : rt.shmem_config == cudaSharedMemBankSizeEightByte ? 8
                                                                      : 4;
  op->params = params;
  if (rt_nattrs_request) {
    op->attrs = malloc(rt_nattrs_request * sizeof *op->attrs);
    if (!op->attrs) {
      free(op);
      free(params);
      return cudaErrorMemoryAllocation;
    }
    memcpy(op->attrs, rt_attrs_request, rt_nattrs_request * sizeof *op->attrs);
    op->nattrs = rt_nattrs_request;
  }
  return rt_submit(op);
}

/* ---- launch entry points ---- */

typedef struct call_config {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
} call_config;

/* <<<...>>> pushes, the kernel's host stub pops (per host thread). */
static _Thread_local call_config cfg_stack[16];
static _Thread_local int cfg_depth;

RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               cudaStream_t stream) {
  if (cfg_depth < 16) cfg_stack[cfg_depth] = (call_config){gridDim, blockDim, sharedMem, stream};
  cfg_depth++;
  return 0;
}

RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream) {
  if (cfg_depth <= 0 || cfg_depth > 16) {
    if (cfg_depth > 0) cfg_depth--;
    return cudaErrorMissingConfiguration;
  }
  call_config *c = &cfg_stack[--cfg_depth];
  if (gridDim) *gridDim = c->grid;
  if (blockDim) *blockDim = c->block;
  if (sharedMem) *sharedMem = c->shared;
  if (stream) *(cudaStream_t *)stream = c->stream;
  return cudaSuccess;
}

static cudaError_t launch_entry(rt_func *f, dim3 g, dim3 b, void **args, size_t shared, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return rt_end(rt_launch(f, g, b, args, shared, stream));
}

RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream) {
  rt_begin(0);
  rt_func *f = rt_func_by_host(kernel);
  rt_end(cudaSuccess);
  return launch_entry(f, gridDim, blockDim, args, sharedMem, stream);
}

RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

RT_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream) {
  rt_begin(0);
  rt_func *f = rt_func_by_host(func);
  rt_end(cudaSuccess);
  return launch_entry(f, gridDim, blockDim, args, sharedMem, stream);
}

_Thread_local const uint32_t *rt_cluster_request;

/* cudaLaunchAttribute: the id, padding to 8 bytes, a 64-byte value whose
 * clusterDim is three unsigned ints (cuda_runtime_api's layout). */
typedef struct launch_attr {
  int id;
  char pad[4];
  union {
    char bytes[64];
    unsigned dim[3];
  } val;
} launch_attr;
enum { LAUNCH_ATTR_CLUSTER_DIMENSION = 4 };

/* The cluster dimensions among a launch's attributes (dims), or NULL. */
const uint32_t *rt_cluster_attr(const void *attrs, unsigned n, uint32_t dims[3]) {
  const launch_attr *a = attrs;
  const uint32_t *found = NULL;
  for (unsigned i = 0; a && i < n; i++)
    if (a[i].id == LAUNCH_ATTR_CLUSTER_DIMENSION) {
      memcpy(dims, a[i].val.dim, 3 * sizeof *dims);
      found = dims;
    }
  return found;
}

RT_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  if (!config) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  cudaError_t e = rt_attrs_check(config->attrs, config->numAttrs);
  if (e) {
    rt_begin(0);
    return rt_end(e);
  }
  uint32_t dims[3];
  rt_attrs_begin(config->attrs, config->numAttrs, dims);
  e = cudaLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                       config->stream);
  rt_attrs_end(e, config->stream);
  return e;
}

/* ---- function attributes ---- */

/* The function for a host handle, with its module loaded. A handle that is
 * no registered kernel (a host function) is an invalid resource handle in
 * CUDA 13 (measured with cudaFuncGetAttributes and cudaLaunchKernel). */
static cudaError_t func_get(const void *func, rt_func **out) {
  rt_func *f = rt_func_by_host(func);
  if (!f) return cudaErrorInvalidResourceHandle;
  smemu_kernel *k;
  cudaError_t e = rt_func_kernel(f, &k);
  if (e) return e;
  *out = f;
  return cudaSuccess;
}

void rt_func_attributes(rt_func *f, struct cudaFuncAttributes *attr) {
  const fb_kinfo *ki = fb_kernel(&f->m->img, f->name);
  int64_t local = 0;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_LOCAL_BYTES, &local);
  memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = smemu_kernel_static_shared(f->k);
  attr->constSizeBytes = f->m->img.const_bytes;
  attr->localSizeBytes = ki && ki->frame >= 0 ? (size_t)ki->frame : (size_t)local;
  attr->maxThreadsPerBlock = rt_func_max_threads(f);
  attr->numRegs = rt_func_regs(f);
  attr->ptxVersion = f->m->img.ptx_arch;
  /* -rdc: the linked image is SASS; the units hold the PTX */
  for (int i = 0; !attr->ptxVersion && i < f->m->nparts; i++) attr->ptxVersion = f->m->parts[i].ptx_arch;
  attr->binaryVersion = rt.arch.major * 10 + rt.arch.minor;
  attr->maxDynamicSharedSizeBytes = (int)max_dyn_shared(f);
  attr->preferredShmemCarveout = f->carveout;
  int64_t v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_MUST_BE_SET, &v);
  attr->clusterDimMustBeSet = (int)v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_WIDTH, &v);
  attr->requiredClusterWidth = (int)v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_HEIGHT, &v);
  attr->requiredClusterHeight = (int)v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_DEPTH, &v);
  attr->requiredClusterDepth = (int)v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_POLICY, &v);
  attr->clusterSchedulingPolicyPreference = (int)v;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, &v);
  attr->nonPortableClusterSizeAllowed = (int)v;
}

RT_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!attr) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(func, &f))) return rt_end(e);
  rt_func_attributes(f, attr);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if ((e = func_get(func, &f))) return rt_end(e);
  switch (attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (value < 0 || smemu_kernel_set_attribute(f->k, SMEMU_ATTR_MAX_DYNAMIC_SHARED, value) != SMEMU_OK)
      return rt_end(cudaErrorInvalidValue);
    f->max_dyn = value;
    return rt_end(cudaSuccess);
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (value < -1 || value > 100 ||
        smemu_kernel_set_attribute(f->k, SMEMU_ATTR_PREFERRED_CARVEOUT, value) != SMEMU_OK)
      return rt_end(cudaErrorInvalidValue);
    f->carveout = value;
    return rt_end(cudaSuccess);
  case cudaFuncAttributeClusterDimMustBeSet:
    return rt_end(rt.arch.major >= 9 ? cudaErrorInvalidValue : cudaErrorNotSupported);
  case cudaFuncAttributeRequiredClusterWidth:
  case cudaFuncAttributeRequiredClusterHeight:
  case cudaFuncAttributeRequiredClusterDepth:
  case cudaFuncAttributeNonPortableClusterSizeAllowed:
  case cudaFuncAttributeClusterSchedulingPolicyPreference: {
    if (rt.arch.major < 9) return rt_end(cudaErrorNotSupported);
    smemu_attr a = attr == cudaFuncAttributeRequiredClusterWidth            ? SMEMU_ATTR_CLUSTER_WIDTH
                   : attr == cudaFuncAttributeRequiredClusterHeight         ? SMEMU_ATTR_CLUSTER_HEIGHT
                   : attr == cudaFuncAttributeRequiredClusterDepth          ? SMEMU_ATTR_CLUSTER_DEPTH
                   : attr == cudaFuncAttributeNonPortableClusterSizeAllowed ? SMEMU_ATTR_NON_PORTABLE_CLUSTER
                                                                            : SMEMU_ATTR_CLUSTER_POLICY;
    smemu_status s = smemu_kernel_set_attribute(f->k, a, value);
    if (s == SMEMU_OK) return rt_end(cudaSuccess);
    /* refused, and not the thread's last error: cudaGetLastError after
     * it returned cudaSuccess on the H100 (tests/hw/cluster launch.out) */
    rt_end(cudaSuccess);
    return s == SMEMU_ERR_NOT_PERMITTED ? cudaErrorNotPermitted : cudaErrorInvalidValue;
  }
  default:
    return rt_end(cudaErrorInvalidValue);
  }
}

RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if ((e = func_get(func, &f))) return rt_end(e);
  if ((unsigned)cacheConfig > cudaFuncCachePreferEqual) return rt_end(cudaErrorInvalidValue);
  f->cache_config = cacheConfig; /* a preference: the launch takes what it needs */
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if ((e = func_get(func, &f))) return rt_end(e);
  if ((unsigned)config > cudaSharedMemBankSizeEightByte) return rt_end(cudaErrorInvalidValue);
  f->shmem_config = config;
  return rt_end(cudaSuccess);
}

/* The driver handle (CUfunction) of a kernel's host stub: its rt_func,
 * which the driver entry points take as well. */
RT_EXPORT cudaError_t cudaGetFuncBySymbol(void **functionPtr, const void *symbolPtr) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!functionPtr) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(symbolPtr, &f))) return rt_end(e);
  *functionPtr = f;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func) {
  cudaError_t e = rt_begin(0);
  if (!name) return rt_end(cudaErrorInvalidValue);
  rt_func *f = rt_func_by_host(func);
  if (!f) return rt_end(cudaErrorInvalidResourceHandle);
  *name = f->name;
  return rt_end(e);
}

/* A parameter's offset and size in the kernel's parameter buffer (the
 * PTX .param layout, which is the device-side one). */
cudaError_t rt_func_param_info(rt_func *f, size_t index, size_t *offset, size_t *size) {
  smemu_kernel *k = NULL;
  cudaError_t e = rt_func_kernel(f, &k);
  if (e) return e;
  smemu_param_info pi;
  if (index >= (size_t)smemu_kernel_param_count(k) || smemu_kernel_param(k, (int)index, &pi) != SMEMU_OK)
    return cudaErrorInvalidValue;
  if (offset) *offset = pi.offset;
  if (size) *size = pi.size;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                           size_t *paramSize) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if ((e = func_get(func, &f))) return rt_end(e);
  if (!paramOffset && !paramSize) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_func_param_info(f, paramIndex, paramOffset, paramSize));
}

/* ---- occupancy ---- */

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                             int blockSize,
                                                                             size_t dynamicSMemSize,
                                                                             unsigned int flags) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!numBlocks || blockSize <= 0 || (flags & ~1u)) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(func, &f))) return rt_end(e);
  *numBlocks = rt_occupancy(f, blockSize, dynamicSMemSize);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                    int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                0);
}

RT_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                int numBlocks, int blockSize) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(func, &f))) return rt_end(e);
  *dynamicSmemSize = 0;
  if (rt_occupancy(f, blockSize, 0) < numBlocks) return rt_end(cudaSuccess);
  /* CUDA's figure: the multiprocessor's shared memory (the preferred
   * carveout, or all of it; one block may have the per-block limit) split
   * evenly between the blocks and rounded down to the allocation unit,
   * capped at the per-block limit (48 KB, or the opt-in maximum once the
   * kernel asked for more), less the static bytes, capped at the kernel's
   * dynamic limit. The 1 KB reserved per block is NOT subtracted: on sm_90,
   * 8 blocks of 128 threads get 233472 / 8 = 29184 bytes (measured on an
   * H200), though 8 blocks of 29184 + 1024 bytes do not fit in 233472
   * (rt_occupancy gives 7 for that size; CUDA's figure for it is not
   * measured). */
  uint32_t st = smemu_kernel_static_shared(f->k);
  uint64_t limit = rt.arch.smem_per_block;
  if (f->max_dyn >= 0 && st + (uint64_t)f->max_dyn > rt.arch.smem_per_block)
    limit = rt.arch.smem_per_block_optin;
  uint64_t per_sm = numBlocks == 1 ? limit : carveout_bytes(f->carveout, 0);
  uint64_t per_block = per_sm / (uint32_t)numBlocks / (uint32_t)smem_unit() * (uint32_t)smem_unit();
  if (per_block > limit) per_block = limit;
  uint64_t avail = per_block > st ? per_block - st : 0;
  uint64_t cap = (uint64_t)max_dyn_shared(f);
  *dynamicSmemSize = (size_t)(avail < cap ? avail : cap);
  return rt_end(cudaSuccess);
}

/* ---- clusters ----
 * cudaOccupancyMaxActiveClusters on the H100 (132 multiprocessors,
 * recorded in tests/hw/cluster/recorded/occ.out): a cluster's blocks must
 * be resident at once within one GPC, and CUDA counts at most 8 blocks of a
 * cluster launch per multiprocessor. No simple per-GPC packing reproduces
 * its answers, so they are kept as measured, by cluster size (1, 2, 3, 4,
 * 6, 8, 12, 16) and blocks per multiprocessor (1, 2, 3, 8 or more); other
 * points are interpolated (known_differences.txt). Other parts: GPCs of 16
 * multiprocessors, each holding floor(16 * blocks / size) clusters. */
static const int occ_sizes[] = {1, 2, 3, 4, 6, 8, 12, 16};
static const int occ_h100[8][4] = {{132, 264, 396, 1056}, {66, 132, 198, 528}, {39, 79, 124, 327},
                                   {30, 62, 92, 248},     {17, 39, 62, 163},   {15, 30, 45, 124},
                                   {7, 16, 28, 74},       {7, 14, 21, 58}};

/* The H100's figure for recorded size index i and b (1..8) blocks per SM. */
static int h100_at(int i, int b) {
  const int *v = occ_h100[i];
  if (b <= 3) return v[b - 1];
  if (b >= 8) return v[3];
  return v[2] + (v[3] - v[2]) * (b - 3) / 5;
}

int rt_active_clusters(rt_func *f, int block_size, size_t dyn, uint32_t csize) {
  int per_sm = rt_occupancy(f, block_size, dyn);
  if (per_sm <= 0 || !csize || csize > 16) return 0;
  if (per_sm > 8) per_sm = 8;
  if (rt.arch.major == 9 && rt.arch.sm_count == 132) {
    int lo = 0;
    for (int i = 0; i < 8; i++) {
      if (occ_sizes[i] == (int)csize) return h100_at(i, per_sm);
      if (occ_sizes[i] < (int)csize) lo = i;
    }
    return h100_at(lo, per_sm) * occ_sizes[lo] / (int)csize;
  }
  int total = 0;
  for (int left = rt.arch.sm_count; left > 0; left -= 16)
    total += (left < 16 ? left : 16) * per_sm / (int)csize;
  return total;
}

/* The cluster size of a configuration: its attribute, else the kernel's
 * compile-time dimensions; 0 with *e set when they are not allowed. */
static uint32_t config_cluster(rt_func *f, const cudaLaunchConfig_t *c, cudaError_t *e) {
  uint32_t dims[3], cd[3], g[3] = {c->gridDim.x, c->gridDim.y, c->gridDim.z};
  const uint32_t *req = rt_cluster_attr(c->attrs, c->numAttrs, dims);
  int64_t np = 0, w = 0;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, &np);
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_CLUSTER_WIDTH, &w);
  *e = cudaSuccess;
  /* recorded on the H100: no cluster dimensions at all, or more than 16
   * blocks with the non-portable attribute, are no error but 0 clusters */
  if (!req && !w) return 0;
  if (req && np && (uint64_t)req[0] * req[1] * req[2] > 16) return 0;
  smemu_status s = smemu_kernel_cluster_dims(f->k, g, req, cd);
  *e = s == SMEMU_OK                   ? cudaSuccess
       : s == SMEMU_ERR_CLUSTER_CONFIG ? cudaErrorInvalidClusterSize
                                       : cudaErrorInvalidValue;
  return s == SMEMU_OK ? cd[0] * cd[1] * cd[2] : 0;
}

RT_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                     const cudaLaunchConfig_t *config) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!numClusters || !config) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(func, &f))) return rt_end(e);
  uint32_t n = config_cluster(f, config, &e);
  if (e) return rt_end(e);
  int threads = (int)(config->blockDim.x * config->blockDim.y * config->blockDim.z);
  *numClusters = rt_active_clusters(f, threads, config->dynamicSmemBytes, n);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                           const cudaLaunchConfig_t *config) {
  cudaError_t e = rt_begin(1);
  rt_func *f = NULL;
  if (e) return rt_end(e);
  if (!clusterSize || !config) return rt_end(cudaErrorInvalidValue);
  if ((e = func_get(func, &f))) return rt_end(e);
  int64_t np = 0;
  smemu_kernel_get_attribute(f->k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, &np);
  int threads = (int)(config->blockDim.x * config->blockDim.y * config->blockDim.z);
  int best = 0;
  for (uint32_t c = 1; c <= (np ? 16u : 8u); c++)
    if (rt_active_clusters(f, threads, config->dynamicSmemBytes, c) > 0) best = (int)c;
  *clusterSize = best;
  return rt_end(cudaSuccess);
}
