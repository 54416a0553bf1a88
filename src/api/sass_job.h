/* sass_job.h: SASS-informed counting started ahead (sass_use.c), for the
 * runtime, which registers modules long before it loads them. */
#ifndef SMEMU_API_SASS_JOB_H
#define SMEMU_API_SASS_JOB_H
#include <stddef.h>

#include "smemu.h"

/* smemu_module_count_sass_cubin's work started ahead: nvdisasm runs on a
 * thread of its own over a copy of the cubin, so that its start-up (about
 * half a second) overlaps the program's host code and the other modules'
 * disassembly. NULL when no thread could start (count with
 * smemu_module_count_sass_cubin then). smemu_sass_start_ptx: the same for
 * smemu_module_count_sass (ptxas, then nvdisasm) in a context emulating
 * `arch` ("sm_90"). */
typedef struct smemu_sass_job smemu_sass_job;
smemu_sass_job *smemu_sass_start_cubin(const void *cubin, size_t len);
smemu_sass_job *smemu_sass_start_ptx(const char *ptx, size_t len, const char *arch);
/* Waits for job, frees it and applies its result to mod as
 * smemu_module_count_sass_cubin (or _sass) would on data (len bytes; NULL:
 * the job's own input), with the same statuses; mod NULL: only waits and
 * frees. Input other than the job's (PTX patched since), or a job started
 * in another process (before a fork), is counted again here. */
smemu_status smemu_module_count_sass_job(smemu_module *mod, smemu_sass_job *job, const void *data,
                                         size_t len);

#endif
