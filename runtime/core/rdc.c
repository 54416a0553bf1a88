/* rdc.c: programs built with nvcc -rdc=true. Their link stub registers the
 * device-linked image (SASS only) and, beside it, the list of every
 * translation unit's own fatbinary, whose relocatable PTX smemu links itself
 * (smemu_module_load_linked) the way nvlink linked the SASS. */
#include "cudart/graph.h"
#include "rt.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rt_module_set_parts(rt_module *m, void *const *fatbins) {
  int n = 0;
  while (fatbins[n]) n++;
  if (!n) return 0;
  m->parts = calloc((size_t)n, sizeof *m->parts);
  if (!m->parts) return -1;
  int cc = rt.arch.major * 10 + rt.arch.minor;
  for (int i = 0; i < n; i++)
    if (fb_parse(fatbins[i], cc, &m->parts[i]) < 0 && !m->parts[i].err[0])
      snprintf(m->parts[i].err, sizeof m->parts[i].err, "bad image");
  m->nparts = n;
  return 0;
}

void rt_module_free_parts(rt_module *m) {
  for (int i = 0; i < m->nparts; i++) fb_free(&m->parts[i]);
  free(m->parts);
  m->parts = NULL;
  m->nparts = 0;
}

cudaError_t rt_module_load_parts(rt_module *m, smemu_ctx *ctx) {
  const char **ptx = calloc((size_t)m->nparts, sizeof *ptx);
  size_t *len = calloc((size_t)m->nparts, sizeof *len);
  char **names = calloc((size_t)m->nparts, sizeof *names);
  cudaError_t e = ptx && len && names ? cudaSuccess : cudaErrorMemoryAllocation;
  int n = 0;
  for (int i = 0; e == cudaSuccess && i < m->nparts; i++) {
    fb_image *p = &m->parts[i];
    /* NVIDIA's device runtime (libcudadevrt.a, which nvcc links into a
     * program that launches from the device) is a unit of its own whose PTX
     * implements it over private system calls; smemu answers its functions
     * itself (core/cdp.c, devrt.c), so the unit stays out of the link */
    if (rt_devrt_unit(p->ptx)) continue;
    if (!p->ptx) {
      rt_msg("%s: translation unit %d of the device link has no PTX (%s); rebuild with nvcc -arch=sm_XX",
             m->label, i + 1, p->err[0] ? p->err : "SASS only");
      e = cudaErrorNoKernelImageForDevice;
      break;
    }
    rt_devrt_patch_ptx(&p->ptx, &p->ptx_len);
    ptx[n] = p->ptx;
    len[n] = p->ptx_len;
    size_t k = strlen(m->label) + 32;
    if (!(names[n] = malloc(k))) {
      e = cudaErrorMemoryAllocation;
      break;
    }
    snprintf(names[n++], k, "%s (translation unit %d)", m->label, i + 1);
  }
  if (e == cudaSuccess &&
      smemu_module_load_linked(ctx, ptx, len, (const char *const *)names, n, m->label, &m->mod) != SMEMU_OK) {
    rt_msg("cannot link the device code of %s: %s", m->label, smemu_errmsg(ctx));
    m->mod = NULL;
    e = cudaErrorInvalidPtx;
  }
  for (int i = 0; names && i < m->nparts; i++) free(names[i]);
  free(names);
  free(len);
  free(ptx);
  return e;
}

int rt_module_rdc_wrapper(rt_module *m, const void *wrapper) {
  /* nvcc's wrapper: magic, version (2 for -rdc), data, the list of fatbins */
  const struct {
    int magic, version;
    const void *data;
    void *const *fatbins;
  } *w = wrapper;
  if (!w || (uint32_t)w->magic != 0x466243b1u || w->version != 2 || !w->fatbins) return 0;
  return rt_module_set_parts(m, w->fatbins) < 0 ? -1 : 1;
}
