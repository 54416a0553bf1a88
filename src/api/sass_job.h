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
 * smemu_module_count_sass_cubin then). */
typedef struct smemu_sass_job smemu_sass_job;
smemu_sass_job *smemu_sass_start_cubin(const void *cubin, size_t len);
/* Waits for job, frees it and applies its result to mod as
 * smemu_module_count_sass_cubin would (same statuses); mod NULL: only waits
 * and frees. A job started in another process (before a fork) is done
 * again here. */
smemu_status smemu_module_count_sass_job(smemu_module *mod, smemu_sass_job *job);

#endif
