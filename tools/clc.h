/* clc.h: OpenCL C to PTX for smemu. clc_compile runs Debian's clang-14 on
 * an OpenCL C 1.2 file with libclc-14's NVPTX library linked in (the
 * work-item functions, barrier, mem_fence, the math library) and returns the
 * PTX, which smemu_module_load_data runs like nvcc's. Only the standard C
 * library and POSIX; no smemu internals. */
#ifndef SMEMU_CLC_H
#define SMEMU_CLC_H

#include <stddef.h>

/* Results of clc_compile. */
#define CLC_OK 0 /* *ptx_out holds the PTX */
#define CLC_ERR_MISSING                                                                                      \
  1 /* clang-14 or libclc-14 is not installed; err                                                           \
       names the Debian package to install */
#define CLC_ERR_COMPILE                                                                                      \
  2                      /* the source did not compile (err: clang's                                         \
                            diagnostics) or uses a built-in libclc lacks */
#define CLC_ERR_SYSTEM 3 /* a temporary file, a process, memory */

/* Compiles the OpenCL C file cl_path into PTX. opts are OpenCL build options
 * (clBuildProgram's: -D NAME[=VALUE], -I DIR, -cl-std=CL2.0,
 * -cl-opt-disable, -cl-fast-relaxed-math, -w, -Werror, ...), split at spaces
 * with '...' and "..." grouping; NULL or "" for none. They are passed to
 * clang as arguments, never through a shell.
 *
 * The pipeline, in a private temporary directory removed afterwards:
 *   clang-14 -x cl -cl-std=CL2.0 -target nvptx64-nvidia-nvcl -emit-llvm -c
 *       extra.cl -o extra.bc        (what libclc-14 lacks for NVPTX, see clc.c)
 *   clang-14 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -gline-tables-only
 *       -Wno-linker-warnings -fno-crash-diagnostics OPTS
 *       -Xclang -mlink-builtin-bitcode -Xclang extra.bc
 *       -Xclang -mlink-builtin-bitcode -Xclang .../nvptx64--nvidiacl.bc
 *       -S -o kernel.ptx -- cl_path
 * (OpenCL's default optimisation, -O2 unless -cl-opt-disable; the builtins are
 * linked before optimisation, so libclc's work-item functions are inlined into
 * reads of %tid, %ntid, %ctaid and %nctaid; `.loc` lines name cl_path).
 *
 * On CLC_OK, *ptx_out is a malloc'd NUL-terminated PTX text of *len bytes
 * (free it) and err holds clang's warnings, or "". Otherwise *ptx_out is NULL
 * and err says what went wrong. err may be NULL when errsize is 0.
 *
 * Environment: SMEMU_CLANG names the clang to run (default clang-14 on PATH);
 * SMEMU_LIBCLC the libclc bitcode (default /usr/lib/clc/nvptx64--nvidiacl.bc). */
int clc_compile(const char *cl_path, const char *opts, char **ptx_out, size_t *len, char *err,
                size_t errsize);

/* 1 when clang-14 and libclc-14 are found (what clc_compile would run), else
 * 0 with err saying which Debian package to install. For tests and examples
 * that skip without them. */
int clc_available(char *err, size_t errsize);

/* Help text for `smemu help exec` on OpenCL input: the --cl-opts option and
 * the local:BYTES argument of a __local pointer parameter. For that argument
 * the CLI passes a pointer to a uint64_t byte count in smemu_launch's args
 * (smemu_param_info.is_local), which is how smemu sizes a __local buffer. */
#define CLC_USAGE_EXEC                                                                                       \
  "OpenCL C (FILE.cl):\n"                                                                                    \
  "  A FILE.cl is compiled with clang-14 and libclc-14 (Debian packages) into PTX,\n"                        \
  "  then runs with the same options, checks and reports; reports name .cl lines.\n"                         \
  "  --grid counts work-groups and --block is the local size: --grid 4,4 --block 16,16\n"                    \
  "  is clEnqueueNDRangeKernel with global size 64 x 64 and local size 16 x 16.\n"                           \
  "  --cl-opts 'OPTS'   OpenCL build options, e.g. '-D TILE=16 -cl-std=CL2.0'\n"                             \
  "  local:BYTES        the --arg of a __local pointer parameter: BYTES of local\n"                          \
  "                     memory (clSetKernelArg(k, i, BYTES, NULL)), placed after the\n"                      \
  "                     static __local arrays (and --shared bytes), 16-byte aligned\n"
#endif
