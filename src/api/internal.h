/* internal.h: the structures behind smemu.h's opaque handles, shared by the
 * API and the report writers. */
#ifndef SMEMU_API_INTERNAL_H
#define SMEMU_API_INTERNAL_H
#include "exec/exec.h"
#include "mem/mem.h"
#include "model/arch.h"
#include "ptx/ptx.h"
#include "smemu.h"

struct smemu_kernel {
  smemu_module *mod;       /* owning module */
  const ptx_func *f;       /* its PTX */
  program *prog;           /* decoded form, or NULL when it failed to decode */
  char *err;               /* why it failed to decode (smemu_module_get_kernel says so) */
  int status;              /* and the status it returns */
  int64_t max_dyn_smem;    /* SMEMU_ATTR_MAX_DYNAMIC_SHARED, or -1: default */
  int64_t carveout;        /* SMEMU_ATTR_PREFERRED_CARVEOUT, or -1 */
  int nonportable;         /* SMEMU_ATTR_NON_PORTABLE_CLUSTER */
  uint32_t req_cluster[3]; /* SMEMU_ATTR_CLUSTER_WIDTH/HEIGHT/DEPTH set at run time, 0: none */
  int cluster_policy;      /* SMEMU_ATTR_CLUSTER_POLICY (a hint) */
  struct sass_map *sass;   /* SASS mapping (src/api/sass_use.c), or NULL: PTX counting */
  struct jit_code *jit[2]; /* compiled code (src/jit), made at the first jit launch:
                              [1] the variant that calls the analyses' hooks */
  int jit_tried[2];        /* 1 once it was made (or failed) */
  struct jit_bg *bg[2];    /* its compile running in the background (auto) */
  uint64_t ran_insns;      /* warp instructions its launches have run */
};

struct smemu_module {
  smemu_ctx *ctx;
  char *name;         /* file name, for messages */
  ptx_module *ptx;    /* parsed text */
  ptx_module **parts; /* rdc: the modules linked into ptx, which borrows them */
  int nparts;
  void **var_addr;     /* storage of each module variable (by index) */
  void *vars_mem;      /* the one mapping they all lie in (vars_block), or NULL */
  uint64_t vars_bytes; /* its length */
  smemu_kernel *kernels;
  int nkernels;
  smemu_module *next; /* the context's list */
};

/* A block of host memory device allocations are carved from (pool.c). */
typedef struct pool_chunk {
  uintptr_t base; /* first byte */
  size_t size;    /* bytes */
  size_t live;    /* allocations in it */
  size_t used;    /* their bytes, in 512-byte units */
  uintptr_t top;  /* the end of the highest one ever placed */
  int holes;      /* something was freed: look for gaps below top */
} pool_chunk;

struct smemu_ctx {
  smemu_options opt;
  const arch_profile *arch;
  int threads;           /* workers per launch */
  int bank_mode;         /* 4 or 8 */
  int want_banks;        /* bank model on */
  int tier;              /* SMEMU_TIER_INTERP, _JIT or _AUTO, resolved */
  uint64_t jit_hot;      /* warp instructions that make a kernel hot (auto) */
  mem_table mem;         /* global allocations */
  void *grid_ws;         /* the grid workspace of the last cooperative launch, or NULL */
  struct ginit *ginit;   /* written bytes of each allocation (SMEMU_ANALYZE_INIT), or NULL */
  pool_chunk *chunks;    /* where smemu_malloc's allocations live (pool.c) */
  struct dev_heap *heap; /* device-side malloc's heap, made by the first launch that needs it */
  size_t heap_bytes;     /* its size (smemu_set_heap_bytes; 8 MB, CUDA's default) */
  size_t nchunks, capchunks;
  size_t padding;         /* red zone bytes after each allocation, at least (pool.c) */
  smemu_fault fault;      /* the last launch's fault (fault.status 0: none) */
  char fault_kernel[512]; /* its strings */
  char fault_file[512];
  fault_info *faults;          /* SMEMU_ANALYZE_MEMCHECK: every bad address of the last launch */
  uint32_t nfaults;            /* kept (sorted by block, thread) */
  uint64_t faults_total;       /* all */
  uint32_t fault_bx, fault_by; /* that launch's block shape */
  smemu_module *mods;
  smemu_launch_stats last;          /* figures of the last launch */
  char last_kernel[512];            /* its kernel's name (outlives the module) */
  struct analysis *last_an;         /* its analysis, or NULL */
  const program *last_prog;         /* its program */
  const struct sass_map *last_sass; /* its kernel's SASS mapping, or NULL */
  smemu_module *last_prog_owner;
  smemu_hazard *hz; /* last launch's hazards, built on request */
  int nhz;
  smemu_sync_error *sy; /* and barrier errors */
  int nsy;
  const struct analysis *cached; /* the analysis hz/sy were built from */
  char err[4096];                /* message of the last failed call */
  /* the device runtime's host side (smemu_set_devcall), or NULL */
  smemu_devcall_fn devcall;
  void *devcall_user;
};

/* Frees a kernel's SASS mapping (src/api/sass_use.c). */
void sass_kernel_free(struct smemu_kernel *k);
/* Device memory as cudaMalloc lays it out (pool.c): NULL when out of
 * memory; pool_free (with the size asked) after the allocation left ctx->mem. */
void *pool_alloc(smemu_ctx *ctx, size_t bytes);
void pool_free(smemu_ctx *ctx, void *p, size_t bytes);
void pool_destroy(smemu_ctx *ctx);
/* Places the globals of the parsed module m->ptx and decodes its kernels;
 * on success links m into the context and sets *out, else frees m. */
smemu_status api_module_finish(smemu_ctx *ctx, smemu_module *m, smemu_module **out);

/* The device heap of a launch whose kernel calls malloc/free (NULL when it
 * does not), made on first use; heap_release frees it (api_heap.c). */
struct program;
smemu_status heap_for_launch(smemu_ctx *ctx, const struct program *P, struct dev_heap **out);
void heap_release(smemu_ctx *ctx);

/* The cluster dimensions of a launch (api_cluster.c): `given` from the
 * launch (NULL: none), else the kernel's; *explicit_ is 1 when the launch
 * has clusters. Errors as the H100 gives them. */
smemu_status cluster_config(smemu_ctx *ctx, const struct smemu_kernel *k, const uint32_t grid[3],
                            const uint32_t *given, uint32_t cdim[3], int *explicit_);

/* Keep the launch's fault details on the context (api_sanitizer.c). */
void fault_keep(smemu_ctx *ctx, launch *L, smemu_status s);

smemu_status ctx_error(smemu_ctx *ctx, smemu_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
