/* sass_use.c: smemu_module_use_sass and smemu_last_counting (smemu.h): the
 * disassembly is parsed once and every decoded kernel of the module gets
 * its mapping (sass/map.c), kept with the kernel for the reports. Also the
 * jobs of sass_job.h: the disassembly made on a thread ahead of the load. */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/internal.h"
#include "api/sass_job.h"
#include "sass/sass.h"

void sass_kernel_free(struct smemu_kernel *k) {
  if (!k->sass) return;
  sass_map_free(k->sass);
  free(k->sass);
  k->sass = NULL;
}

smemu_status smemu_module_use_sass(smemu_module *mod, const char *text, size_t len) {
  if (!mod || !text) return SMEMU_ERR_INVALID_VALUE;
  sass_text S;
  if (sass_parse(text, len, &S) < 0) {
    sass_free(&S);
    return ctx_error(mod->ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  }
  smemu_status st = SMEMU_OK;
  for (int i = 0; i < mod->nkernels; i++) {
    smemu_kernel *k = &mod->kernels[i];
    const sass_func *F = k->prog ? sass_find(&S, k->prog->name) : NULL;
    if (!F) continue;
    sass_kernel_free(k);
    sass_map *m = calloc(1, sizeof *m);
    if (!m || sass_apply(k->prog, &S, F, m) < 0) {
      free(m);
      st = ctx_error(mod->ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
      break;
    }
    k->sass = m;
  }
  sass_free(&S);
  return st;
}

/* The ptxas architecture for PTX written for arch: the PTX's own .target
 * where it is arch's architecture-specific ("sm_90a") or family ("sm_100f")
 * form, which ptxas accepts only under that name; else arch. */
static const char *ptxas_arch(const char *ptx, size_t len, const char *arch, char *buf, size_t n) {
  size_t al = strlen(arch);
  for (size_t i = 0; i + 8 < len; i++) {
    if (memcmp(ptx + i, ".target", 7) || (i && ptx[i - 1] != '\n')) continue;
    size_t j = i + 7;
    while (j < len && (ptx[j] == ' ' || ptx[j] == '\t')) j++;
    size_t k = j;
    while (k < len && (isalnum((unsigned char)ptx[k]) || ptx[k] == '_')) k++;
    if (k - j == al + 1 && !memcmp(ptx + j, arch, al) && (ptx[k - 1] == 'a' || ptx[k - 1] == 'f') &&
        k - j < n) {
      memcpy(buf, ptx + j, k - j);
      buf[k - j] = 0;
      return buf;
    }
    break;
  }
  return arch;
}

smemu_status smemu_module_count_sass(smemu_module *mod, const char *ptx, size_t len) {
  if (!mod || !ptx) return SMEMU_ERR_INVALID_VALUE;
  char err[512], tb[32];
  size_t n = 0;
  int broken = 0;
  const char *arch = ptxas_arch(ptx, len, mod->ctx->arch->name, tb, sizeof tb);
  char *text = sass_from_ptx(ptx, len, arch, &n, err, sizeof err, &broken);
  if (!text) return ctx_error(mod->ctx, broken ? SMEMU_ERR_IO : SMEMU_ERR_NOT_FOUND, "%s", err);
  smemu_status st = smemu_module_use_sass(mod, text, n);
  free(text);
  return st;
}

smemu_status smemu_module_count_sass_cubin(smemu_module *mod, const void *cubin, size_t len) {
  if (!mod || !cubin) return SMEMU_ERR_INVALID_VALUE;
  char err[512];
  size_t n = 0;
  int broken = 0;
  char *text = sass_from_cubin(cubin, len, &n, err, sizeof err, &broken);
  if (!text) return ctx_error(mod->ctx, broken ? SMEMU_ERR_IO : SMEMU_ERR_NOT_FOUND, "%s", err);
  smemu_status st = smemu_module_use_sass(mod, text, n);
  free(text);
  return st;
}

struct smemu_sass_job {
  pthread_t thread;
  pid_t pid;  /* the process that started the thread */
  void *data; /* the copy the tools read: a cubin, or PTX */
  size_t len;
  int ptx; /* 1: data is PTX, compiled by ptxas for arch */
  char arch[32];
  sass_tools tools; /* resolved by the starting thread */
  char *text;       /* the result: sass_from_cubin's or sass_from_ptx's */
  size_t n;
  int broken;
  char err[512];
};

static void *job_run(void *arg) {
  smemu_sass_job *j = arg;
  j->text =
      j->ptx
          ? sass_from_ptx_with(&j->tools, j->data, j->len, j->arch, &j->n, j->err, sizeof j->err, &j->broken)
          : sass_from_cubin_with(&j->tools, j->data, j->len, &j->n, j->err, sizeof j->err, &j->broken);
  return NULL;
}

static smemu_sass_job *job_start(const void *data, size_t len, int ptx, const char *arch) {
  if (!data || !len) return NULL;
  smemu_sass_job *j = calloc(1, sizeof *j);
  if (!j || !(j->data = malloc(len))) {
    free(j);
    return NULL;
  }
  memcpy(j->data, data, len);
  j->len = len;
  j->ptx = ptx;
  snprintf(j->arch, sizeof j->arch, "%s", arch ? arch : "");
  j->pid = getpid();
  /* the environment is read here: the program may change it while the
   * thread runs */
  if (sass_tools_get(&j->tools) < 0 || pthread_create(&j->thread, NULL, job_run, j)) {
    sass_tools_free(&j->tools);
    free(j->data);
    free(j);
    return NULL;
  }
  return j;
}

smemu_sass_job *smemu_sass_start_cubin(const void *cubin, size_t len) {
  return job_start(cubin, len, 0, NULL);
}

smemu_sass_job *smemu_sass_start_ptx(const char *ptx, size_t len, const char *arch) {
  if (!ptx || !arch) return NULL;
  char tb[32];
  return job_start(ptx, len, 1, ptxas_arch(ptx, len, arch, tb, sizeof tb));
}

smemu_status smemu_module_count_sass_job(smemu_module *mod, smemu_sass_job *j, const void *data, size_t len) {
  if (!j) return SMEMU_ERR_INVALID_VALUE;
  /* a forked child has no such thread: it counts again itself */
  int mine = j->pid == getpid();
  if (mine) pthread_join(j->thread, NULL);
  /* the input changed since the start (PTX patched at the load): again */
  int same = !data || (len == j->len && !memcmp(data, j->data, len));
  const void *in = same ? j->data : data;
  size_t inlen = same ? j->len : len;
  smemu_status st = SMEMU_OK;
  if (mod && (!mine || !same))
    st = j->ptx ? smemu_module_count_sass(mod, in, inlen) : smemu_module_count_sass_cubin(mod, in, inlen);
  else if (mod && !j->text)
    st = ctx_error(mod->ctx, j->broken ? SMEMU_ERR_IO : SMEMU_ERR_NOT_FOUND, "%s", j->err);
  else if (mod)
    st = smemu_module_use_sass(mod, j->text, j->n);
  if (mine) free(j->text);
  sass_tools_free(&j->tools);
  free(j->data);
  free(j);
  return st;
}

smemu_status smemu_last_counting(const smemu_ctx *ctx, smemu_counting *out) {
  if (!ctx || !out) return SMEMU_ERR_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  if (!ctx->last_prog) return SMEMU_ERR_NOT_FOUND;
  const sass_map *m = ctx->last_sass;
  if (!m) return SMEMU_OK;
  const program *P = ctx->last_prog;
  out->sass = 1;
  out->accesses = m->accesses;
  out->agree = m->agree;
  out->set = m->set;
  out->fallback = m->fallback;
  for (int i = 0; i < m->nfb_lines; i++) {
    uint32_t f = m->fb_lines[i] >> 20;
    out->files[i] = f < P->nfiles ? P->files[f] : NULL;
    out->lines[i] = m->fb_lines[i] & 0xfffffu;
  }
  out->nlines = m->nfb_lines;
  return SMEMU_OK;
}
