/* addr.c: address translation, the executor's core: a lane's address in
 * a state space (or a generic address) to the host byte it names, checked
 * (bounds, alignment, read-only memory, exited blocks of a cluster), and
 * the shared::cluster window's blocks and offsets (addr.h). */
#include "exec/addr.h"
#include "exec/exec.h"
#include "smemu.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- shared::cluster addresses ---- */
block *cluster_target(const warp *w, uint64_t a, uint64_t *off) {
  block *b = w->blk;
  if (a < CLUSTER_BASE) {
    *off = a;
    return b;
  }
  uint64_t r = (a - CLUSTER_BASE) / CLUSTER_STRIDE;
  *off = (a - CLUSTER_BASE) % CLUSTER_STRIDE;
  if (r >= b->cl->n) return NULL;
  return &b->cl->blocks[r];
}

uint32_t cluster_rank(const warp *w, uint64_t a, uint64_t *off) {
  a &= 0xffffffffu;
  if (a < CLUSTER_BASE) {
    *off = a;
    return w->blk->rank;
  }
  *off = (a - CLUSTER_BASE) % CLUSTER_STRIDE;
  return (uint32_t)((a - CLUSTER_BASE) / CLUSTER_STRIDE);
}

uint64_t cluster_addr(const warp *w, uint32_t r, uint64_t off) {
  return r == w->blk->rank ? off : CLUSTER_BASE + (uint64_t)r * CLUSTER_STRIDE + off;
}

/* ---- addresses ---- */
/* A bad address; remote_cta >= 0: an access to the shared memory of that
 * block rank of the cluster (memcheck's __remote_shared__, at offset addr). */
static uint8_t *bad_at(warp *w, int l, const char *space, uint64_t addr, uint32_t size, int write, int status,
                       const char *why, int remote_cta) {
  fault_info fi = {0};
  fi.remote_cta = remote_cta;
  fi.access = 1;
  fi.write = (uint8_t)write;
  fi.misaligned = status == SMEMU_ERR_MISALIGNED;
  fi.space = space;
  fi.addr = addr;
  fi.size = size;
  if (!strcmp(space, "global") || !strcmp(space, "constant")) {
    /* memcheck's nearest allocation: one past the end is 1 byte after it,
     * so between two allocations the next one wins a tie (recorded) */
    const mem_table *t = w->L->mem;
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < t->n; i++) {
      const alloc *n = &t->a[i];
      uint64_t d = addr < n->base             ? n->base - addr
                   : addr - n->base < n->size ? 0
                                              : addr - (n->base + n->size) + 1;
      if (d < best) best = d, fi.near_base = n->base, fi.near_size = n->size;
    }
  }
  if (remote_cta >= 0)
    exec_fault_access(w, l, &fi, status,
                      "%s %s of %u byte%s at offset 0x%" PRIx64
                      " in the shared memory of block rank %d of the "
                      "cluster%s",
                      status == SMEMU_ERR_MISALIGNED ? "misaligned" : "out-of-bounds",
                      write ? "write" : "read", size, size == 1 ? "" : "s", addr, remote_cta, why);
  else
    exec_fault_access(w, l, &fi, status, "%s %s of %u byte%s at %s address 0x%" PRIx64 "%s",
                      status == SMEMU_ERR_MISALIGNED ? "misaligned" : "out-of-bounds",
                      write ? "write" : "read", size, size == 1 ? "" : "s", space, addr, why);
  return NULL;
}

static uint8_t *bad(warp *w, int l, const char *space, uint64_t addr, uint32_t size, int write, int status,
                    const char *why) {
  return bad_at(w, l, space, addr, size, write, status, why, -1);
}

static uint8_t *shared_ptr(warp *w, int l, uint64_t a, uint32_t size, int write) {
  block *b = w->blk;
  uint8_t *p = shared_at(w, a, size);
  if (p) return p;
  if (a & (size - 1)) return bad(w, l, "shared", a, size, write, SMEMU_ERR_MISALIGNED, "");
  if (a < w->L->prog->smem_lo || a + size > b->smem_size) {
    char why[160];
    snprintf(why, sizeof why, " (the block has shared bytes 0x%x..0x%x)", w->L->prog->smem_lo, b->smem_size);
    return bad(w, l, "shared", a, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, why);
  }
  return NULL; /* (shared_at takes every good access) */
}

/* A shared::cluster address (or a generic one past the own window): the
 * block of the rank it names, checked as for shared::cta, and that block
 * must not have exited (the GPU frees its shared memory then). */
static uint8_t *cluster_ptr(warp *w, int l, uint64_t a, uint32_t size, int write) {
  if (a < CLUSTER_BASE) return shared_ptr(w, l, a, size, write);
  uint64_t off, r = (a - CLUSTER_BASE) / CLUSTER_STRIDE;
  block *t = cluster_target(w, a, &off);
  char why[256];
  /* the H100 ends such launches with "unspecified launch failure" (rank
   * past the cluster, exited block) or an illegal / misaligned address;
   * memcheck names the rank and the offset (tests/hw/cluster) */
  if (!t) {
    snprintf(why, sizeof why, " (shared::cluster address 0x%llx; the cluster has %u block(s))",
             (unsigned long long)a, w->blk->cl->n);
    return bad_at(w, l, "remote_shared", off, size, write, SMEMU_ERR_LAUNCH_FAILURE, why, (int)r);
  }
  if (a & (size - 1))
    return bad_at(w, l, "remote_shared", off, size, write, SMEMU_ERR_MISALIGNED, "", (int)r);
  if (off < w->L->prog->smem_lo || off + size > t->smem_size) {
    snprintf(why, sizeof why, " (block (%u,%u,%u), which has shared bytes 0x%x..0x%x)", t->ctaid[0],
             t->ctaid[1], t->ctaid[2], w->L->prog->smem_lo, t->smem_size);
    return bad_at(w, l, "remote_shared", off, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, why, (int)r);
  }
  if (t != w->blk && t->exited_threads == t->nthreads) {
    snprintf(why, sizeof why,
             " (block (%u,%u,%u) has exited and its shared memory with it: a barrier.cluster "
             "arrive/wait before it exits keeps it for the others)",
             t->ctaid[0], t->ctaid[1], t->ctaid[2]);
    return bad_at(w, l, "remote_shared", off, size, write, SMEMU_ERR_LAUNCH_FAILURE, why, (int)r);
  }
  return t->smem + off;
}

static uint8_t *local_ptr(warp *w, int l, uint64_t a, uint32_t size, int write) {
  if (a & (size - 1)) return bad(w, l, "local", a, size, write, SMEMU_ERR_MISALIGNED, "");
  if (a + size > w->local_size || a >= w->local_size) {
    char why[96];
    snprintf(why, sizeof why, " (each thread has %u local bytes)", w->local_size);
    return bad(w, l, "local", a, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, why);
  }
  return w->local + (size_t)l * w->local_size + a;
}

static uint8_t *global_ptr(warp *w, int l, uint64_t a, uint32_t size, int write) {
  const alloc *g = w->gcache;
  if (a & (size - 1)) return bad(w, l, "global", a, size, write, SMEMU_ERR_MISALIGNED, "");
  if (!g || a - g->base + size > g->size || a < g->base) {
    const alloc *g2 = w->gcache2;
    if (g2 && a - g2->base + size <= g2->size && a >= g2->base)
      g = g2;
    else
      g = mem_find(w->L->mem, (uintptr_t)a, size);
    if (!g) {
      char why[256] = "";
      const alloc *n = mem_nearest(w->L->mem, (uintptr_t)a);
      if (n) {
        /* in memcheck's words: one past the end is "1 bytes after" */
        const char *q = n->name ? "'" : "", *nm = n->name ? n->name : "", *at = n->name ? "' " : "";
        if (a >= n->base + n->size)
          snprintf(why, sizeof why,
                   " (%" PRIu64 " bytes after the allocation %s%s%sof %zu bytes at 0x%" PRIxPTR ")",
                   a - (n->base + n->size) + 1, q, nm, at, n->size, n->base);
        else if (a < n->base)
          snprintf(why, sizeof why,
                   " (%" PRIu64 " bytes before the allocation %s%s%sof %zu bytes at 0x%" PRIxPTR ")",
                   n->base - a, q, nm, at, n->size, n->base);
        else
          snprintf(why, sizeof why,
                   " (at offset %" PRIu64 " of the allocation %s%s%sof %zu bytes at 0x%" PRIxPTR
                   ", past its end)",
                   a - n->base, q, nm, at, n->size, n->base);
      }
      return bad(w, l, "global", a, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, why);
    }
    w->gcache2 = w->gcache;
    w->gcache = g;
  }
  if (write && g->readonly)
    return bad(w, l, "constant", a, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, " (read-only)");
  return (uint8_t *)(uintptr_t)a;
}

uint8_t *exec_addr(warp *w, int l, int space, uint64_t a, uint32_t size, int write) {
  switch (space) {
  case PTX_SPACE_SHARED:
    return shared_ptr(w, l, a, size, write);
  case PTX_SPACE_LOCAL:
    return local_ptr(w, l, a, size, write);
  case PTX_SPACE_PARAM:
    if (write || a + size > w->L->prog->param_bytes)
      return bad(w, l, "param", a, size, write, SMEMU_ERR_ILLEGAL_ADDRESS, "");
    return (uint8_t *)w->L->params + a;
  case PTX_SPACE_GLOBAL:
  case PTX_SPACE_CONST:
    return global_ptr(w, l, a, size, write);
  case PTX_SPACE_SHARED_CLUSTER:
    return cluster_ptr(w, l, a & 0xffffffffu, size, write);
  default:
    if (a - SHARED_WINDOW < WINDOW_SIZE) return cluster_ptr(w, l, a - SHARED_WINDOW, size, write);
    if (a - LOCAL_WINDOW < WINDOW_SIZE) return local_ptr(w, l, a - LOCAL_WINDOW, size, write);
    if (a - PARAM_WINDOW < WINDOW_SIZE)
      return exec_addr(w, l, PTX_SPACE_PARAM, a - PARAM_WINDOW, size, write);
    return global_ptr(w, l, a, size, write);
  }
}
