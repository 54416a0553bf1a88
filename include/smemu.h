/* smemu.h: the public interface of smemu, an emulator that runs PTX kernels
 * on the CPU and models GPU shared memory. Shaped like the CUDA driver API:
 * a context owns modules and device memory; kernels are launched with a grid,
 * a block, dynamic shared bytes and an argument array. Every call returns an
 * smemu_status and leaves a message on the context (smemu_errmsg). */
#ifndef SMEMU_H
#define SMEMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEMU_VERSION "0.1.0"

typedef enum smemu_status {
  SMEMU_OK = 0,
  SMEMU_ERR_INVALID_VALUE,      /* a bad argument (NULL, unknown name, ...) */
  SMEMU_ERR_OUT_OF_MEMORY,      /* host allocation failed */
  SMEMU_ERR_PARSE,              /* malformed PTX: message has file:line:col */
  SMEMU_ERR_UNSUPPORTED,        /* PTX smemu does not know (unknown instruction, ...) */
  SMEMU_ERR_NOT_FOUND,          /* no kernel or symbol of that name */
  SMEMU_ERR_INVALID_CONFIG,     /* bad grid or block: zero, over the limits */
  SMEMU_ERR_OUT_OF_RESOURCES,   /* too much shared memory asked for a launch */
  SMEMU_ERR_ILLEGAL_ADDRESS,    /* a kernel touched memory outside any allocation */
  SMEMU_ERR_MISALIGNED,         /* a kernel made a misaligned access */
  SMEMU_ERR_TRAP,               /* trap / brkpt / failed assertion in a kernel */
  SMEMU_ERR_DEADLOCK,           /* a barrier that can never complete */
  SMEMU_ERR_ILLEGAL_INSTRUCTION,/* an instruction that cannot execute (bad state) */
  SMEMU_ERR_IO,                 /* a file could not be read */
  SMEMU_ERR_LIMIT,              /* the instruction budget or the time limit of a launch was reached */
  SMEMU_ERR_HANG,               /* no warp of a block can make progress (an endless spin) */
  SMEMU_ERR_CLUSTER_CONFIG,     /* bad cluster dimensions for a launch (cudaErrorInvalidClusterSize) */
  SMEMU_ERR_NOT_PERMITTED,      /* an attribute fixed at compile time (cudaErrorNotPermitted) */
  SMEMU_ERR_LAUNCH_FAILURE,     /* a fault the GPU reports as an unspecified launch failure
                                   (shared memory of a rank past the cluster or of an exited block) */
  SMEMU_ERR_COUNT
} smemu_status;

typedef struct smemu_ctx smemu_ctx;

/* Where a long launch stands (smemu_options.progress). */
typedef struct smemu_progress {
  const char *kernel;            /* mangled name */
  uint64_t blocks_done, blocks_total;
  uint64_t thread_instructions;  /* executed so far */
  double seconds;                /* since the launch began */
  int done;                      /* 1: the launch has ended (the last call) */
} smemu_progress;

/* The default instruction budget of a launch (smemu_options.max_warp_instructions). */
#define SMEMU_DEFAULT_MAX_INSNS 10000000000ull
typedef struct smemu_module smemu_module;
typedef struct smemu_kernel smemu_kernel;

/* Options of a context. Zero-initialise, then set what you need. */
typedef struct smemu_options {
  int threads;            /* worker threads for blocks; 0: one per core */
  const char *arch;       /* architecture profile, "sm_90" when NULL */
  uint64_t max_warp_instructions; /* per launch: when its warps together
                                     have run more, the launch ends with
                                     SMEMU_ERR_LIMIT (an endless loop);
                                     0: unlimited */
  uint32_t stack_bytes;   /* local memory per thread; 0: 1024 (CUDA's default) */
  uint32_t analyses;      /* SMEMU_ANALYZE_* bits */
  int schedule;           /* SMEMU_SCHEDULE_* */
  uint64_t seed;          /* seed of SMEMU_SCHEDULE_RANDOM */
  int bank_mode;          /* 4 or 8 byte banks where the generation has the
                             choice (3.x); 0: the generation's default */
  double timeout_seconds; /* wall-clock limit of a launch (SMEMU_ERR_LIMIT); 0: none */
  /* Called from a watcher thread about 4 times a second while a launch has
   * run longer than 2 s, and once more with done set when such a launch
   * ends; NULL: never. smemu_progress_print is one. */
  void (*progress)(const smemu_progress *p, void *user);
  void *progress_user;
  int tier;               /* SMEMU_TIER_*: how kernels run */
} smemu_options;

/* Execution tiers (smemu_options.tier). Both give the same results, counts
 * and reports bit for bit; the compiled tier is faster. */
#define SMEMU_TIER_DEFAULT 0 /* the SMEMU_TIER environment variable ("interp",
                                "jit" or "auto") when set, else auto */
#define SMEMU_TIER_INTERP 1  /* the interpreter (the reference) */
#define SMEMU_TIER_JIT 2     /* compiled code (LLVM ORC), each kernel compiled
                                at its first launch; the interpreter where this
                                build has no JIT */
#define SMEMU_TIER_AUTO 3    /* compiled code for hot kernels: a kernel is
                                compiled once its launches have run
                                SMEMU_JIT_HOT warp instructions (default 10
                                million; compiling costs about 2 ms per PTX
                                instruction), in the background, and
                                interpreted until its code is ready; the
                                interpreter with initcheck */
/* 1 when this build has the compiled tier. */
int smemu_jit_available(void);

/* A progress callback that keeps one status line up to date on the FILE *
 * user (a terminal): kernel, blocks done, thread instructions per second,
 * elapsed time; the line is erased when the launch ends. */
void smemu_progress_print(const smemu_progress *p, void *user);

/* Analyses a context can run on every launch. */
#define SMEMU_ANALYZE_BANKS 0x1u  /* shared-memory requests, wavefronts, conflicts */
#define SMEMU_ANALYZE_RACES 0x2u  /* shared-memory hazards (racecheck) */
#define SMEMU_ANALYZE_SYNC 0x4u   /* barrier misuse (synccheck) */
#define SMEMU_ANALYZE_INIT 0x8u   /* reads of uninitialised shared memory */
#define SMEMU_ANALYZE_GLOBAL_RACES 0x10u /* hazards on global memory */
#define SMEMU_ANALYZE_MEMCHECK 0x20u /* compute-sanitizer memcheck: a bad address
                                        ends only the threads that made it (they
                                        exit); each is recorded (smemu_fault_get)
                                        and the launch fails with the first */
/* With SMEMU_ANALYZE_RACES: remember one access per shared byte, as
 * compute-sanitizer's racecheck does (measured, tests/hw/races): its
 * report then, and it misses hazards the default reports (a read hidden
 * by a later read of another thread). */
#define SMEMU_ANALYZE_RACECHECK_COMPAT 0x200u
/* The async pipeline: bulk/TMA copies, mbarrier phases, copies in flight
 * (smemu_write_pipeline_report). */
#define SMEMU_ANALYZE_PIPELINE 0x400u

/* Warp order inside a block (smemu_options.schedule). */
#define SMEMU_SCHEDULE_FIXED 0   /* warps 0, 1, 2, ... each until it waits */
#define SMEMU_SCHEDULE_RANDOM 1  /* seeded random order and switch points */

/* A hazard found by SMEMU_ANALYZE_RACES / _GLOBAL_RACES, aggregated per pair
 * of source lines (racecheck's analysis mode), with one instance in detail. */
typedef struct smemu_hazard {
  const char *type;          /* "RAW", "WAR" or "WAW" */
  int error;                 /* 1: between warps (error); 0: within a warp (warning) */
  int global;                /* 1: global memory, 0: shared */
  const char *first_access;  /* "Write", "Read" or "Atomic": the earlier access */
  const char *second_access; /* the later access */
  const char *first_file, *second_file; /* source files (NULL: unknown) */
  uint32_t first_line, second_line;     /* source lines (PTX lines when no file) */
  uint32_t first_ptx_line, second_ptx_line;
  uint64_t count;            /* byte-level hazards aggregated here */
  /* one instance */
  uint64_t address;          /* shared address or global pointer */
  const char *variable;      /* the variable it falls in, or NULL */
  uint64_t var_offset;       /* offset inside that variable */
  uint32_t block[3];         /* block of the instance */
  uint32_t first_thread[3], second_thread[3];
  uint64_t first_value, second_value; /* values written/read (low bytes) */
  int cluster;               /* 1: threads of two blocks of a cluster (distributed
                                shared memory), as racecheck shows them: block is the
                                cluster's first, address rank << 24 | offset */
  uint32_t first_rank, second_rank; /* the threads' block ranks (cluster hazards) */
} smemu_hazard;

/* A barrier misuse found by SMEMU_ANALYZE_SYNC. */
typedef struct smemu_sync_error {
  const char *kind;          /* "divergent-warp", "divergent-block",
                                "warp-sync-mask", "barrier-count" */
  const char *file;          /* source file or NULL */
  uint32_t line, ptx_line;
  uint32_t block[3], thread[3]; /* the first thread reported */
  uint64_t count;            /* threads (or warps) reported at this line */
  uint32_t threads[32];      /* bit l of word w: linear thread 32w+l of the
                                block named (union over blocks; blocks of up
                                to 1024 threads) */
} smemu_sync_error;

/* Shared-memory bank figures of a launch, as Nsight Compute counts them:
 * index 0 loads, 1 stores, 2 atomics. */
typedef struct smemu_bank_counts {
  uint64_t requests[3];    /* warp-level instructions */
  uint64_t wavefronts[3];  /* passes through the banks */
  uint64_t conflicts[3];   /* wavefronts - ideal wavefronts */
  /* distributed shared memory: accesses to another block of the cluster,
   * which Nsight Compute counts apart (l1tex__t_requests_pipe_lsu_mem_dshared,
   * l1tex__t_sectors_pipe_lsu_mem_dshared): warp instructions and the
   * 32-byte sectors they touch, per load / store / atomic */
  uint64_t dshared_requests[3];
  uint64_t dshared_sectors[3];
} smemu_bank_counts;

/* Figures of one launch. */
typedef struct smemu_launch_stats {
  const char *kernel;            /* mangled name */
  uint32_t grid[3], block[3];
  uint32_t shared_static_bytes;  /* static .shared variables */
  uint32_t shared_dynamic_bytes; /* dynamic shared memory asked at launch */
  uint64_t warp_instructions;    /* warp-level instructions executed */
  uint64_t thread_instructions;  /* sum over warps of active lanes */
  double seconds;                /* wall-clock time of the launch */
  const char *tier;              /* "interp" or "jit": the tier that ran it */
  double jit_seconds;            /* compiling the kernel before this launch
                                    (0: interpreted, or compiled before; a
                                    compile in the background (auto): its
                                    CPU seconds, reported by the first
                                    launch that runs its code) */
  uint64_t shared_contention;    /* of the shared atomic requests, those that
                                    other warps made necessary: CAS
                                    instructions in which no lane swapped (a
                                    warp alone always swaps one lane) */
} smemu_launch_stats;

/* Description of a kernel parameter. */
typedef struct smemu_param_info {
  const char *name;
  uint32_t offset;  /* byte offset in the parameter buffer */
  uint32_t size;    /* bytes */
  uint32_t align;
  int is_pointer;   /* .u64/.b64 scalar (may be a pointer) or .ptr attribute */
  int is_local;     /* .ptr .shared: an OpenCL __local buffer (byte count) */
} smemu_param_info;

const char *smemu_status_name(smemu_status s);
const char *smemu_version(void);

smemu_status smemu_create(const smemu_options *opt, smemu_ctx **out);
void smemu_destroy(smemu_ctx *ctx);
/* The message of the last failed call on ctx ("" when none). */
const char *smemu_errmsg(const smemu_ctx *ctx);

/* Modules. `name` is used in messages (a file name). */
smemu_status smemu_module_load_data(smemu_ctx *ctx, const char *ptx, size_t len,
                                    const char *name, smemu_module **out);
/* Separate compilation (nvcc -rdc=true): parse the `n` relocatable PTX
 * texts and link them as nvlink does (link errors, SMEMU_ERR_PARSE, name the
 * symbol and the modules by names[i]) into one module called `name`. */
smemu_status smemu_module_load_linked(smemu_ctx *ctx, const char *const *ptx, const size_t *len,
                                      const char *const *names, int n, const char *name, smemu_module **out);
smemu_status smemu_module_load_file(smemu_ctx *ctx, const char *path,
                                    smemu_module **out);
void smemu_module_unload(smemu_module *mod);
/* A kernel by mangled name, demangled signature, qualified name with template
 * arguments (`reduce<256>`) or bare name, when unambiguous (the strongest
 * form that matches decides; an ambiguous name lists the candidates). */
smemu_status smemu_module_get_kernel(smemu_module *mod, const char *name,
                                     smemu_kernel **out);
/* Number of kernels and the i-th one (in module order). */
int smemu_module_kernel_count(const smemu_module *mod);
smemu_kernel *smemu_module_kernel(smemu_module *mod, int i);
/* Address and size of a module-scope .global or .const variable. */
smemu_status smemu_module_get_global(smemu_module *mod, const char *name,
                                     void **ptr, size_t *bytes);
/* 1 when the module's variable `name` is __managed__ (.attribute(.managed)). */
int smemu_module_global_is_managed(const smemu_module *mod, const char *name);

const char *smemu_kernel_name(const smemu_kernel *k);
int smemu_kernel_param_count(const smemu_kernel *k);
smemu_status smemu_kernel_param(const smemu_kernel *k, int i, smemu_param_info *out);
uint32_t smemu_kernel_static_shared(const smemu_kernel *k);

/* Kernel attributes (cudaFuncSetAttribute's counterparts). */
typedef enum smemu_attr {
  SMEMU_ATTR_MAX_DYNAMIC_SHARED = 1, /* dynamic shared bytes a launch may ask;
                                        default 48 KB minus the static bytes;
                                        at most the opt-in limit */
  SMEMU_ATTR_PREFERRED_CARVEOUT,     /* percent of shared memory preferred (hint) */
  SMEMU_ATTR_STATIC_SHARED,          /* read-only: static shared bytes */
  SMEMU_ATTR_MAX_THREADS,            /* read-only: threads per block allowed */
  SMEMU_ATTR_PARAM_BYTES,            /* read-only: bytes of the parameter buffer */
  SMEMU_ATTR_LOCAL_BYTES,            /* read-only: local bytes per thread of its frame */
  SMEMU_ATTR_NON_PORTABLE_CLUSTER,   /* 1: clusters of 9..16 blocks allowed (0 or 1) */
  SMEMU_ATTR_CLUSTER_WIDTH,          /* required cluster dimensions: compile-time
                                        (__cluster_dims__) ones are read-only */
  SMEMU_ATTR_CLUSTER_HEIGHT,
  SMEMU_ATTR_CLUSTER_DEPTH,
  SMEMU_ATTR_CLUSTER_MUST_BE_SET,    /* read-only: 1 for .explicitcluster kernels */
  SMEMU_ATTR_CLUSTER_POLICY          /* cluster scheduling policy preference (a hint) */
} smemu_attr;
smemu_status smemu_kernel_set_attribute(smemu_kernel *k, smemu_attr a, int64_t value);
smemu_status smemu_kernel_get_attribute(const smemu_kernel *k, smemu_attr a, int64_t *value);

/* Device memory. Device pointers are host pointers the emulator tracks. */
smemu_status smemu_malloc(smemu_ctx *ctx, void **ptr, size_t bytes);
smemu_status smemu_free(smemu_ctx *ctx, void *ptr);
smemu_status smemu_memcpy(smemu_ctx *ctx, void *dst, const void *src, size_t bytes);
smemu_status smemu_memset(smemu_ctx *ctx, void *dst, int value, size_t bytes);

/* Launch. args[i] points to the value of parameter i (cuLaunchKernel's
 * kernelParams). A parameter declared `.ptr .shared` (an OpenCL __local
 * pointer) takes a uint64_t byte count instead: smemu places that many bytes
 * of shared memory after the dynamic area and passes their address. Runs to completion; on a kernel fault returns its status
 * with a message naming kernel, block, thread, instruction and source line. */
smemu_status smemu_launch(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                          const uint32_t block[3], uint32_t shared_bytes,
                          void **args);
/* smemu_launch with thread-block clusters (cudaLaunchKernelEx with
 * cudaLaunchAttributeClusterDimension). cluster NULL: the kernel's own
 * dimensions (__cluster_dims__ / .reqnctapercluster, or set with
 * SMEMU_ATTR_CLUSTER_WIDTH..), else clusters of one block. The blocks of a
 * cluster run together and share their shared memory (shared::cluster).
 * Bad cluster dimensions fail as on an H100 (tests/hw/cluster):
 * SMEMU_ERR_CLUSTER_CONFIG or SMEMU_ERR_INVALID_CONFIG. */
smemu_status smemu_launch_cluster(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                  const uint32_t block[3], const uint32_t cluster[3],
                                  uint32_t shared_bytes, void **args);
/* smemu_launch_cluster as a cooperative launch (cudaLaunchCooperativeKernel):
 * every block of the grid is resident at once, each on its own worker
 * thread (the threads take turns at the cores), and %envreg1:%envreg2 hold
 * the address of the context's grid workspace that cooperative groups'
 * grid.sync() uses. A grid larger than the device holds at once (SMs times
 * blocks per SM; the CUDA runtime checks the kernel's occupancy) fails
 * with SMEMU_ERR_INVALID_CONFIG. */
smemu_status smemu_launch_cooperative(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                      const uint32_t block[3], const uint32_t cluster[3],
                                      uint32_t shared_bytes, void **args);
/* The cluster dimensions a launch of k on this grid gets (cluster: the
 * launch's, or NULL for the kernel's own) in out; the launch's error when
 * they are not allowed (with the message on the kernel's context). */
smemu_status smemu_kernel_cluster_dims(smemu_kernel *k, const uint32_t grid[3], const uint32_t *cluster,
                                       uint32_t out[3]);
/* Dynamic parallelism: a kernel's call of a device runtime function
 * (__cudaCDP2LaunchDeviceV2, cudaGetParameterBuffer, ...; every one but
 * cudaMalloc/cudaFree, which use the device heap) goes to the context's
 * device-call hook, once per calling thread in lane order, on the worker
 * thread that runs the block. The hook fills *ret (the function's result)
 * and returns 0, or writes why into msg and returns -1 to fault the
 * thread. Without a hook such a call faults (SMEMU_ERR_UNSUPPORTED). */
typedef struct smemu_devcall {
  const char *name;         /* the function as the PTX names it */
  const char *fn;           /* the name without __cudaCDP2 or cuda: "LaunchDeviceV2" */
  uint32_t nargs;
  uint8_t args[8][16];      /* each argument's bytes (a dim3 takes 12) */
  uint32_t arg_size[8];
  smemu_kernel *kernel;     /* the calling grid's kernel */
  uint32_t block[3];        /* the calling thread's block and thread index */
  uint32_t thread[3];
  uint32_t grid[3], block_dim[3];
  const char *file;         /* the call's source position (NULL: none) */
  uint32_t line;
  /* Reads (write 0) or writes n bytes at generic address addr as the
   * calling thread would: 0, or -1 after faulting the thread. */
  int (*access)(void *cookie, uint64_t addr, void *buf, uint32_t n, int write);
  void *cookie;
  char msg[256];
} smemu_devcall;
typedef int (*smemu_devcall_fn)(smemu_devcall *call, uint64_t *ret, void *user);
smemu_status smemu_set_devcall(smemu_ctx *ctx, smemu_devcall_fn fn, void *user);
/* The kernel of k's module at device function address addr (the value of
 * `mov.u64 %rd, kernel` in PTX), or NULL. */
smemu_kernel *smemu_kernel_at(smemu_kernel *k, uint64_t addr);
/* The module a kernel belongs to. */
smemu_module *smemu_kernel_module(smemu_kernel *k);
/* 1 when the kernel, or a function it calls, calls the device runtime
 * (launches kernels from the device); smemu_kernel_calls: 1 when it calls
 * the device runtime function `name` (as its PTX names it). */
int smemu_kernel_uses_devrt(const smemu_kernel *k);
int smemu_kernel_calls(const smemu_kernel *k, const char *name);

/* Figures of the last launch on ctx (also after a failed one). */
const smemu_launch_stats *smemu_last_stats(const smemu_ctx *ctx);

/* SASS-informed counting (src/sass): `text` is NVIDIA's
 * disassembly (nvdisasm -c -gi) of the module's cubin for the profile's
 * architecture. Each kernel's shared accesses are mapped onto its SASS so
 * that merged accesses, aggregated atomics and CAS loops are counted as the
 * hardware executes them; accesses whose mapping is ambiguous keep the
 * PTX-level rules. Without this call a module is counted by PTX rules. */
smemu_status smemu_module_use_sass(smemu_module *mod, const char *text, size_t len);
/* The same with the SASS made here: `ptx` (the module's text) is compiled
 * by ptxas for the context's architecture with line info and disassembled
 * by nvdisasm, both cached (src/sass/tool.c). SMEMU_ERR_NOT_FOUND, with the
 * reason in smemu_errmsg, when a tool is missing; SMEMU_ERR_IO when one was
 * found but failed (3 tries); the module then stays on PTX rules. */
smemu_status smemu_module_count_sass(smemu_module *mod, const char *ptx, size_t len);
/* The same from the module's cubin (a fatbinary's ELF for the context's
 * architecture): only nvdisasm runs. */
smemu_status smemu_module_count_sass_cubin(smemu_module *mod, const void *cubin, size_t len);
/* How the last launch was counted. */
typedef struct smemu_counting {
  int sass;                /* 1: from the SASS, 0: PTX rules */
  int accesses;            /* shared-memory PTX instructions of the kernel */
  int agree, set;          /* mapped: PTX grouping confirmed / changed to the SASS's */
  int fallback;            /* ambiguous: counted by PTX rules */
  int nlines;              /* source lines of the fallbacks (first 16) */
  const char *files[16];
  uint32_t lines[16];
} smemu_counting;
smemu_status smemu_last_counting(const smemu_ctx *ctx, smemu_counting *out);

/* Bank figures of the last launch (SMEMU_ANALYZE_BANKS must have been on). */
smemu_status smemu_last_bank_counts(const smemu_ctx *ctx, smemu_bank_counts *out);
/* The bank width in bytes the context models (a requested 8-byte mode is
 * ignored where the hardware ignores it, as sm_90 does). */
int smemu_bank_mode(const smemu_ctx *ctx);
/* The text report of the last launch's bank conflicts: totals, then the
 * `max_lines` source lines with the most conflicts, their source text, the
 * worst instance's lanes, banks and words, and a hint where one applies. */
int smemu_write_bank_report(const smemu_ctx *ctx, FILE *f, int max_lines);
/* The same figures as JSON members (no surrounding braces):
 * "shared_ld_requests": N, ..., "lines": [...]. */
int smemu_write_bank_json(const smemu_ctx *ctx, FILE *f);

/* Hazards and barrier errors of the last launch. */
int smemu_hazard_count(const smemu_ctx *ctx);
const smemu_hazard *smemu_hazard_get(const smemu_ctx *ctx, int i);
int smemu_sync_error_count(const smemu_ctx *ctx);
const smemu_sync_error *smemu_sync_error_get(const smemu_ctx *ctx, int i);
/* racecheck-like text: "analysis" (per line pair) or "hazard" (instances). */
int smemu_write_race_report(const smemu_ctx *ctx, FILE *f, int detailed);
/* JSON members "hazards": [...], "barrier_errors": [...] (no braces). */
int smemu_write_race_json(const smemu_ctx *ctx, FILE *f);

/* The last launch as JSON object members (no braces): "kernel", "name",
 * "grid", "block", "shared_static_bytes", "shared_dynamic_bytes",
 * "warp_instructions", "thread_instructions", "seconds", the bank figures
 * (when modelled) and "hazards" / "barrier_errors". */
int smemu_write_launch_json(const smemu_ctx *ctx, FILE *f);
/* Write s as a JSON string literal (quotes, escapes); NULL writes "". */
void smemu_json_string(FILE *f, const char *s);

/* The HTML report (`smemu exec --html FILE`, `smemu run --html FILE`). A
 * collector notes each finished launch (its figures, the bank model's
 * per-line counters and worst instances, the checkers' hazards and barrier
 * errors, a fault's message) while the context still holds them, and
 * writes one self-contained page (inline style, no network) at the end. */
typedef struct smemu_html smemu_html;
/* A collector; `title` heads the page (the command line, say). */
smemu_html *smemu_html_new(const char *title);
/* Note the last launch on ctx, whose smemu_launch returned s. */
void smemu_html_add(smemu_html *h, const smemu_ctx *ctx, smemu_status s);
/* Write the page; 0 on success, -1 when the file cannot be written. */
int smemu_html_write(const smemu_html *h, const char *path);
void smemu_html_free(smemu_html *h);

/* Decode every kernel of PTX text without running any (smemu lint): fn
 * gets each problem, "NAME:LINE:COL: message" with the kernel it stops
 * (NULL when the text does not parse). Every problem of a kernel is
 * listed, each statement once. Returns the number of problems (0: every
 * kernel decodes), or -1 when out of memory; *nkernels (may be NULL) gets
 * the number of kernels. */
typedef void (*smemu_lint_fn)(void *user, const char *kernel, const char *message);
int smemu_lint_ptx(const char *ptx, size_t len, const char *name, smemu_lint_fn fn, void *user,
                   int *nkernels);

/* Print the table of architecture profiles; returns < 0 on an output error. */
int smemu_print_archs(FILE *f);

/* Demangle an Itanium C++ name ("_Z3dotPKfS0_Pfi" -> "dot(float const*, ...)").
 * Returns 1 when demangled; otherwise copies the name and returns 0. */
int smemu_demangle(const char *mangled, char *out, size_t n);

/* ---- For the CUDA runtime drop-in (runtime/): architecture figures,
 * pointer look-ups and per-context settings a program can change while it
 * runs. Implemented in src/api/api_runtime.c. ---- */

/* The figures of an architecture profile (see `smemu archs`). */
typedef struct smemu_arch_info {
  const char *name;              /* "sm_90" */
  const char *family;            /* "Hopper" */
  const char *part;              /* a representative product, "H100 SXM5" */
  int major, minor;              /* compute capability */
  int banks, bank_bytes;         /* shared-memory banks and their default width */
  int bank8_selectable;          /* 1: 8-byte bank mode can be chosen (3.x) */
  uint32_t smem_per_sm;          /* sharedMemPerMultiprocessor */
  uint32_t smem_per_block;       /* sharedMemPerBlock (without opt-in) */
  uint32_t smem_per_block_optin; /* sharedMemPerBlockOptin */
  uint32_t smem_reserved_per_block; /* reservedSharedMemPerBlock */
  int ncarveouts;                /* entries of carveout_kb */
  uint16_t carveout_kb[12];      /* shared sizes per SM the L1/shared split can take, KB */
  int warp_size;
  int max_threads_per_block;
  int max_block_dim[3];
  uint32_t max_grid_dim[3];
  int max_threads_per_sm, max_blocks_per_sm, max_warps_per_sm;
  uint32_t regs_per_sm, regs_per_block; /* 32-bit registers */
  int regs_per_thread;           /* most registers one thread may use */
  int sm_count;                  /* multiprocessors of the representative part */
} smemu_arch_info;

/* The profile called `name` (as smemu_options.arch; NULL: the default). */
smemu_status smemu_arch_query(const char *name, smemu_arch_info *out);
/* The profile a context runs. */
smemu_status smemu_ctx_arch(const smemu_ctx *ctx, smemu_arch_info *out);

/* The allocation holding ptr (smemu_malloc, a module variable or a
 * registered host range): its first byte and size. SMEMU_ERR_NOT_FOUND when
 * ptr is in none. *readonly (may be NULL) is 1 for .const variables. */
smemu_status smemu_mem_lookup(const smemu_ctx *ctx, const void *ptr, void **base, size_t *bytes,
                              int *readonly);
/* Make host memory the caller owns reachable from kernels (cudaHostRegister),
 * and forget it again. smemu never frees it. */
smemu_status smemu_host_register(smemu_ctx *ctx, void *ptr, size_t bytes);
smemu_status smemu_host_unregister(smemu_ctx *ctx, void *ptr);
/* Change the bank width (4 or 8 bytes) for later launches; ignored, as the
 * hardware ignores it, where the generation has no choice. */
smemu_status smemu_set_bank_mode(smemu_ctx *ctx, int bytes);
/* Change the local memory per thread (cudaLimitStackSize) for later launches. */
smemu_status smemu_set_stack_bytes(smemu_ctx *ctx, uint32_t bytes);
/* Size of the device heap that device-side malloc draws from (default 8 MB,
 * CUDA's); fails once a kernel has used the heap. */
smemu_status smemu_set_heap_bytes(smemu_ctx *ctx, size_t bytes);

/* Red zones: every smemu_malloc allocation is followed by at least `bytes`
 * bytes that no allocation owns (compute-sanitizer's --padding), so an
 * access that runs past its end is out of bounds instead of landing in the
 * next allocation. Allocations still come in cudaMalloc's 512-byte units,
 * one after the other: the red zone is the rest of the last unit, and
 * whole units more where that is shorter than `bytes`. 0 lays memory out
 * as cudaMalloc does. The default, SMEMU_DEFAULT_PADDING (1), is the least
 * that keeps every access just past an end out of the neighbour; it moves
 * only the allocations that follow one of a multiple of 512 bytes (as
 * compute-sanitizer --padding 1 does, recorded in tests/hw/sanitizer). Set
 * before the first allocation: SMEMU_ERR_INVALID_VALUE while any is live. */
#define SMEMU_DEFAULT_PADDING 1
smemu_status smemu_set_padding(smemu_ctx *ctx, size_t bytes);


/* ---- compute-sanitizer's memcheck and initcheck records (api_sanitizer.c) ---- */

/* The fault that ended the last launch, in the terms memcheck reports. */
/* One device frame of a report. Inside inlined device functions
 * compute-sanitizer names the innermost function and line ("at storeAt(int
 * *, int, int) in f.cu:9"), then each call site outwards, the kernel's
 * last ("Device Frame: fillFrom(int *, int) in f.cu:14"), from the PTX
 * line table's inlined_at and function_name records. */
typedef struct smemu_frame {
  const char *func; /* the function the call site is in (mangled) */
  const char *file; /* source file, or NULL */
  uint32_t line;
} smemu_frame;
#define SMEMU_MAX_FRAMES 8

typedef struct smemu_fault {
  smemu_status status;       /* SMEMU_OK: the last launch did not fault */
  const char *kernel;        /* mangled name */
  const char *file;          /* source file, or NULL */
  uint32_t line, ptx_line;
  uint32_t block[3], thread[3];
  int has_thread;            /* 0: a fault of the whole warp (thread: its first lane) */
  int access;                /* 1: a bad address; the fields below are set */
  int write;                 /* the access was a write (else a read) */
  int misaligned;            /* misaligned, else out of bounds */
  const char *space;         /* "global", "shared", "local", "param", "constant" */
  uint64_t address;
  uint32_t size;             /* bytes */
  uint64_t near_base, near_size; /* the nearest global allocation (size 0: none) */
  const char *message;       /* smemu's message (as smemu_errmsg) */
  int remote_cta;            /* space "remote_shared" (another block of the cluster): the
                                block rank accessed (address is the offset in it); else -1 */
  const char *func;          /* the device function file:line is in (mangled), inlined
                                or called; NULL: the kernel (the module's memory) */
  uint32_t nframes;          /* its call sites, innermost first, the kernel's last */
  smemu_frame frames[SMEMU_MAX_FRAMES];
} smemu_fault;
/* The last launch's fault; SMEMU_ERR_NOT_FOUND when it had none. */
smemu_status smemu_last_fault(const smemu_ctx *ctx, smemu_fault *out);
/* With SMEMU_ANALYZE_MEMCHECK: every bad address of the last launch (all of
 * them: total; kept, the first 4096 in block, thread order: count). */
uint64_t smemu_fault_total(const smemu_ctx *ctx);
int smemu_fault_count(const smemu_ctx *ctx);
smemu_status smemu_fault_get(const smemu_ctx *ctx, int i, smemu_fault *out);
/* A bad address (access set) in memcheck's shape: "========= Invalid
 * __global__ write of size 4 bytes", at, by thread, "Access to 0x.. is out
 * of bounds" and the nearest allocation. -1 when it is no bad address. */
int smemu_write_fault_text(const smemu_fault *f, FILE *out);
/* The "Device Frame: FUNC in FILE:LINE" lines of a report's frames. */
void smemu_write_frames(const smemu_frame *fr, uint32_t n, FILE *f);

/* A read of global memory nothing wrote (SMEMU_ANALYZE_INIT): every
 * cudaMalloc'd / smemu_malloc'd byte starts unwritten; copies to it, fills
 * and kernel stores write it. One record per thread and access. */
typedef struct smemu_uninit_read {
  const char *file;          /* source file, or NULL */
  uint32_t line, ptx_line;
  uint32_t pc;               /* instruction index in the kernel */
  uint32_t block[3], thread[3];
  uint64_t address;          /* first byte of the access */
  uint32_t size;             /* bytes of the access */
  const char *func;          /* as smemu_fault's: the device function, or NULL */
  uint32_t nframes;
  smemu_frame frames[SMEMU_MAX_FRAMES];
} smemu_uninit_read;
/* Records of the last launch: all of them (total), and how many are kept
 * (the first 4096 in block, thread order), readable with smemu_uninit_get. */
uint64_t smemu_uninit_total(const smemu_ctx *ctx);
int smemu_uninit_count(const smemu_ctx *ctx);
smemu_status smemu_uninit_get(const smemu_ctx *ctx, int i, smemu_uninit_read *out);
/* The records aggregated per source line (the first thread, block and
 * address of each line, and its count) as text ending in "INITCHECK
 * SUMMARY", and as the JSON member "uninitialized_global_reads": [...].
 * Both return the number of lines. */
int smemu_write_uninit_report(const smemu_ctx *ctx, FILE *f);
int smemu_write_uninit_json(const smemu_ctx *ctx, FILE *f);
/* The 32-byte sectors of [ptr, ptr+bytes) holding bytes nothing wrote (a
 * copy from there is an error for initcheck): their count, and the first
 * unwritten address of each of the first max in out (may be NULL). */
size_t smemu_mem_unwritten_sectors(const smemu_ctx *ctx, const void *ptr, size_t bytes, uint64_t *out, size_t max);
/* Mark [ptr, ptr+bytes) written (memory the program filled itself, e.g.
 * pinned memory the host writes directly), or forget that it was. */
smemu_status smemu_mem_set_written(smemu_ctx *ctx, const void *ptr, size_t bytes, int written);

/* ---- Tensor maps (TMA descriptors, src/async/tensormap.c) ----
 * The 128-byte CUtensorMap of cuTensorMapEncodeTiled / Im2col, in smemu's
 * own encoding, checked as the CUDA driver checks its arguments. The
 * arguments are the driver's (enums as ints); the result is the CUresult
 * the driver gives: 0 (CUDA_SUCCESS) or 1 (CUDA_ERROR_INVALID_VALUE), and
 * then msg (when not NULL) says which requirement failed. */
int smemu_tensormap_encode_tiled(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                 const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                                 int interleave, int swizzle, int l2, int oob, char *msg, size_t msgsize);
int smemu_tensormap_encode_im2col(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                  const uint64_t *strides, const int *lower, const int *upper, uint32_t cpp,
                                  uint32_t ppc, const uint32_t *estrides, int interleave, int swizzle, int l2,
                                  int oob, char *msg, size_t msgsize);
int smemu_tensormap_replace_address(void *map, void *addr, char *msg, size_t msgsize);
/* The async pipeline of the last launch (SMEMU_ANALYZE_PIPELINE must have
 * been on): copies by kind, each mbarrier's phases, copies and waits, the
 * most copies and bytes in flight, bulk groups. Text returns the number of
 * lines; JSON writes the member "pipeline": {...}. -1 without figures. */
int smemu_write_pipeline_report(const smemu_ctx *ctx, FILE *f);
int smemu_write_pipeline_json(const smemu_ctx *ctx, FILE *f);

/* ---- Texture and surface objects (src/exec/texobj.c) ----
 * The runtime describes an image (a CUDA array, a mipmapped array, linear
 * or pitched memory) with its sampling state and registers it; the 64-bit
 * handle it gets is what tex, tld4, txq, suld, sust and suq take. Handles
 * are process-wide, stay valid until unregistered, and may be looked up
 * while kernels run on other threads. */
enum { SMEMU_TEX_SIGNED = 0, SMEMU_TEX_UNSIGNED = 1, SMEMU_TEX_FLOAT = 2 }; /* channel kinds */
enum { SMEMU_ADDR_WRAP = 0, SMEMU_ADDR_CLAMP, SMEMU_ADDR_MIRROR, SMEMU_ADDR_BORDER };
#define SMEMU_TEX_MAX_LEVELS 16
typedef struct smemu_tex_level {
  uint8_t *base;          /* texel (0, 0, 0) of the level */
  uint32_t width, height, depth; /* texels; height/depth 1 when the geometry has none */
  size_t pitch;           /* bytes between rows */
  size_t slice;           /* bytes between 2D slices (3D depth, or layers) */
} smemu_tex_level;
typedef struct smemu_tex_desc {
  int surface;            /* 1: a surface object, 0: a texture object */
  int dims;               /* 1, 2 or 3 */
  int layered;            /* a layered image: layers follow one another, slice apart */
  int cube;               /* a cubemap (6 faces, or 6 a layer when layered) */
  int linear;             /* linear memory (tex1Dfetch / tex.1d with integer coordinates) */
  uint32_t layers;        /* layers (cubemaps: faces) when layered or cube */
  int nlevels;            /* mipmap levels, at least 1 */
  smemu_tex_level level[SMEMU_TEX_MAX_LEVELS];
  int nch;                /* channels, 1 to 4 */
  int bits;               /* bits of every channel: 8, 16 or 32 */
  int kind;               /* SMEMU_TEX_SIGNED / UNSIGNED / FLOAT */
  int read_norm;          /* integer channels read as normalized floats */
  int addr[3];            /* SMEMU_ADDR_* per dimension */
  int filter;             /* 0 point, 1 linear */
  int mip_filter;         /* 0 point, 1 linear between levels */
  int norm_coords;        /* coordinates in [0, 1) */
  int srgb;               /* sRGB to linear on read */
  float border[4];        /* SMEMU_ADDR_BORDER's colour */
  float lod_bias, min_lod, max_lod; /* mipmap level selection */
  int channel_type;       /* the texels' CU_AD_FORMAT_* code (for reports; sm_90 refuses txq
                             .channel_data_type on objects) */
} smemu_tex_desc;
/* Register a copy of d; returns its handle (never 0), or 0 when d is
 * malformed or memory ran out. The library trusts the levels' base,
 * pitch and slice: the memory must hold the image while the handle lives. */
uint64_t smemu_tex_register(const smemu_tex_desc *d);
/* Forget a handle; 0 when it was live, -1 otherwise. */
int smemu_tex_unregister(uint64_t handle);
/* A copy of the descriptor of a live handle into *out; 0, or -1. */
int smemu_tex_lookup(uint64_t handle, smemu_tex_desc *out);

#ifdef __cplusplus
}
#endif
#endif
