/* graph_cond.c: conditional nodes. A conditional handle is the device
 * address of a 32-bit condition value: cudaGraphSetConditional, which a
 * kernel calls as an external device function, is given a PTX body that
 * stores its value there (core/devrt.c, applied to each module's PTX
 * before it is loaded), and the node reads it when the queue reaches
 * it: if (body 0 when non-zero, body 1 when zero and there is one), while
 * (body 0 again while non-zero), switch (body n for value n). Handles with
 * cudaGraphCondAssignDefault take their default at the start of each
 * launch. */
#include "graph_api.h"
#include <stdlib.h>
#include <string.h>

#define cudaGraphCondAssignDefault 1

typedef struct g_cond {
  uint32_t *value; /* device memory of the condition */
  unsigned dflt, flags;
  rt_graph *g; /* the graph it was made for */
  struct g_cond *next;
} g_cond;

static g_cond *conds;

static g_cond *cond_get(cudaGraphConditionalHandle h) {
  for (g_cond *c = conds; c; c = c->next)
    if ((cudaGraphConditionalHandle)(uintptr_t)c->value == h) return c;
  return NULL;
}

RT_EXPORT cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                       cudaGraph_t graph, unsigned int defaultLaunchValue,
                                                       unsigned int flags);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_graph *g = g_get(graph);
  if (!pHandle_out || !g || (flags & ~(unsigned)cudaGraphCondAssignDefault))
    return rt_end(cudaErrorInvalidValue);
  g_cond *c = calloc(1, sizeof *c);
  void *p;
  if (!c || smemu_malloc(rt.ctx, &p, sizeof(uint32_t)) != SMEMU_OK) {
    free(c);
    return rt_end(cudaErrorMemoryAllocation);
  }
  c->value = p;
  c->dflt = defaultLaunchValue;
  c->flags = flags;
  c->g = g;
  smemu_memcpy(rt.ctx, c->value, &defaultLaunchValue, sizeof defaultLaunchValue);
  c->next = conds;
  conds = c;
  *pHandle_out = (cudaGraphConditionalHandle)(uintptr_t)p;
  return rt_end(cudaSuccess);
}

/* CU_EXPORT form: the driver's takes a context too */
RT_EXPORT int cuGraphConditionalHandleCreate(cudaGraphConditionalHandle *out, cudaGraph_t g, void *ctx,
                                             unsigned int dflt, unsigned int flags);
int cuGraphConditionalHandleCreate(cudaGraphConditionalHandle *out, cudaGraph_t g, void *ctx,
                                   unsigned int dflt, unsigned int flags) {
  (void)ctx;
  return (int)cudaGraphConditionalHandleCreate(out, g, dflt, flags);
}

cudaError_t g_cond_init(g_node *n, struct cudaConditionalNodeParams *p) {
  if (!p) return cudaErrorInvalidValue;
  if (!cond_get(p->handle)) return cudaErrorInvalidValue;
  unsigned size = p->size;
  if ((p->type == cudaGraphCondTypeIf && size != 1 && size != 2) ||
      (p->type == cudaGraphCondTypeWhile && size != 1) || (p->type == cudaGraphCondTypeSwitch && size == 0) ||
      p->type < cudaGraphCondTypeIf || p->type > cudaGraphCondTypeSwitch || size > 1u << 16)
    return cudaErrorInvalidValue;
  n->bodies = calloc(size, sizeof *n->bodies);
  if (!n->bodies) return cudaErrorMemoryAllocation;
  for (unsigned i = 0; i < size; i++) {
    if (!(n->bodies[i] = g_new())) return cudaErrorMemoryAllocation;
    n->bodies[i]->is_child = 1;
    n->nbodies = i + 1;
  }
  /* phGraph_out: an array the runtime owns, valid while the node lives */
  p->phGraph_out = (cudaGraph_t *)n->bodies;
  n->handle = p->handle;
  n->ctype = p->type;
  return cudaSuccess;
}

static uint32_t value_of(cudaGraphConditionalHandle h) {
  uint32_t v = 0;
  if (cond_get(h)) smemu_memcpy(rt.ctx, &v, (void *)(uintptr_t)h, sizeof v);
  return v;
}

/* a body that cannot change the value: no kernel, at any depth */
static int has_kernel(const rt_graph *g) {
  for (size_t i = 0; i < g->n; i++) {
    const g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeKernel || n->type == cudaGraphNodeTypeMemcpy ||
        n->type == cudaGraphNodeTypeMemset)
      return 1;
    if (n->child && has_kernel(n->child)) return 1;
    for (unsigned b = 0; b < n->nbodies; b++)
      if (has_kernel(n->bodies[b])) return 1;
  }
  return 0;
}

void g_cond_run(g_node *n) {
  uint32_t v = value_of(n->handle);
  switch (n->ctype) {
  case cudaGraphCondTypeIf:
    if (v)
      g_run(n->bodies[0]);
    else if (n->nbodies == 2)
      g_run(n->bodies[1]);
    break;
  case cudaGraphCondTypeSwitch:
    if (v < n->nbodies) g_run(n->bodies[v]);
    break;
  case cudaGraphCondTypeWhile:
    if (v && !has_kernel(n->bodies[0])) {
      /* nothing in the body can end the loop: the GPU would spin forever */
      rt_msg("error: a while conditional node with value %u and a body that cannot change it never ends", v);
      rt.sticky = cudaErrorLaunchFailure;
      break;
    }
    while (v && !rt.sticky) {
      g_run(n->bodies[0]);
      v = value_of(n->handle);
    }
    break;
  }
}

static void defaults(rt_graph *g) {
  for (size_t i = 0; i < g->n; i++) {
    g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeConditional) {
      g_cond *c = cond_get(n->handle);
      if (c && (c->flags & cudaGraphCondAssignDefault))
        smemu_memcpy(rt.ctx, c->value, &c->dflt, sizeof c->dflt);
      for (unsigned b = 0; b < n->nbodies; b++) defaults(n->bodies[b]);
    }
    if (n->child) defaults(n->child);
  }
}

void g_cond_defaults(rt_graph *g) { defaults(g); }

static int uses(const rt_graph *g, cudaGraphConditionalHandle h) {
  for (size_t i = 0; i < g->n; i++) {
    const g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeConditional && n->handle == h) return 1;
    for (unsigned b = 0; b < n->nbodies; b++)
      if (uses(n->bodies[b], h)) return 1;
    if (n->child && uses(n->child, h)) return 1;
  }
  return 0;
}

int g_cond_orphaned(const rt_graph *g) {
  for (const g_cond *c = conds; c; c = c->next)
    if (c->g == g && !uses(g, (cudaGraphConditionalHandle)(uintptr_t)c->value)) return 1;
  return 0;
}
