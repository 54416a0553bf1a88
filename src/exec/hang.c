/* hang.c: a block that repeats its state is spinning; a launch whose every
 * worker holds such a block is hung (see hang.h). The report names the
 * source lines of the loop: each spinning warp is stepped through a few
 * more instructions and the lines it passes are listed. */
#include "exec/hang.h"

#include "exec/sched.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A word-at-a-time hash: the state can be a megabyte per round. */
static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (; n >= 8; n -= 8, b += 8) {
    uint64_t w;
    memcpy(&w, b, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
  }
  for (; n; n--, b++) h = (h ^ *b) * 0x100000001b3ull;
  return h;
}

static uint64_t warp_hash(uint64_t h, const warp *w) {
  const program *P = w->L->prog;
  h = mix(h, &w->state, sizeof w->state);
  h = mix(h, &w->exited, sizeof w->exited);
  h = mix(h, w->arrive_mask, sizeof w->arrive_mask);
  h = mix(h, &w->sp, sizeof w->sp);
  for (uint32_t i = 0; i < w->sp; i++) {
    const simt_entry *e = &w->stack[i];
    uint32_t v[4] = {e->pc, e->rpc, e->mask, e->blocked};
    h = mix(h, v, sizeof v);
  }
  if (w->state == W_DONE || !w->nframes) return h;
  h = mix(h, w->frames, w->nframes * sizeof *w->frames);
  const frame *top = &w->frames[w->nframes - 1];
  const func_info *f = &P->funcs[top->func];
  uint32_t nr = top->reg_base + f->nregs, np = top->pred_base + f->npreds;
  if (nr > w->reg_cap) nr = w->reg_cap;
  if (np > w->pred_cap) np = w->pred_cap;
  h = mix(h, w->regstack, (size_t)nr * sizeof *w->regstack);
  h = mix(h, w->predstack, (size_t)np * sizeof *w->predstack);
  return mix(h, w->local, (size_t)32 * w->local_size);
}

/* About how many bytes block_hash reads (of one block). */
static uint64_t one_bytes(const block *b) {
  uint64_t n = b->smem_size;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    const warp *w = &b->warps[i];
    n += (uint64_t)32 * w->local_size + (uint64_t)w->reg_cap * sizeof *w->regstack;
  }
  return n;
}

static uint64_t one_hash(uint64_t h, const block *b) {
  for (uint32_t i = 0; i < b->nwarps; i++) h = warp_hash(h, &b->warps[i]);
  h = mix(h, b->bar, sizeof b->bar);
  h = mix(h, &b->exited_threads, sizeof b->exited_threads);
  h = mix(h, b->c_arr, b->nthreads * sizeof *b->c_arr);
  h = mix(h, b->c_wait, b->nthreads * sizeof *b->c_wait);
  return mix(h, b->smem, b->smem_size);
}

/* The state of b's cluster: all of its blocks (a block spinning on a flag
 * in another's shared memory may be freed by it). */
static uint64_t state_bytes(const block *b) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < b->cl->n; i++) n += one_bytes(&b->cl->blocks[i]);
  return n;
}

static uint64_t block_hash(const block *b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t i = 0; i < b->cl->n; i++) h = one_hash(h, &b->cl->blocks[i]);
  return mix(h, &b->cl->phase, sizeof b->cl->phase);
}

void hang_init(hang_state *h) {
  memset(h, 0, sizeof *h);
  h->power = 1;
}

static void unstick(block *b, hang_state *h) {
  if (h->stuck) atomic_fetch_sub(&b->warps[0].L->nstuck, 1);
  h->stuck = 0;
  h->all_since = 0;
}

void hang_leave(block *b, hang_state *h) { unstick(b, h); }

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Report the hang: step the live warps through up to 256 instructions
 * each and name the source lines they pass. */
static void report(block *b, const hang_state *h) {
  launch *L = b->warps[0].L;
  const program *P = L->prog;
  uint32_t pcs[64], npc = 0, live = 0;
  warp *w0 = NULL;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    if (w->state == W_DONE) continue;
    live++;
    if (!w0) w0 = w;
    if (w->state == W_YIELD) w->state = W_RUN; /* it ended a turn (exec/contend.c): it goes on */
    for (int step = 0; step < 256 && w->state == W_RUN && w->sp; step++) {
      uint32_t pc = w->stack[w->sp - 1].pc, j;
      for (j = 0; j < npc && pcs[j] != pc; j++) {
      }
      if (j == npc && npc < 64 && pc < P->ncode) pcs[npc++] = pc;
      warp_run(w, 1);
      if (w->state == W_YIELD) w->state = W_RUN;
      if (b->fault) return; /* it faulted instead: that is the report */
    }
  }
  if (!w0) return;
  qsort(pcs, npc, sizeof *pcs, cmp_u32);
  char lines[1024];
  size_t k = 0;
  uint32_t shown = 0, last_file = ~0u, last_line = ~0u;
  lines[0] = 0;
  for (uint32_t j = 0; j < npc && shown < 8 && k < sizeof lines - 80; j++) {
    const src_line *s = &P->lines[pcs[j]];
    uint32_t ln = s->file != ~0u ? s->line : s->ptx_line;
    if (s->file == last_file && ln == last_line) continue;
    last_file = s->file;
    last_line = ln;
    if (s->file != ~0u)
      k += (size_t)snprintf(lines + k, sizeof lines - k, "\n    %s:%u (PTX line %u): %s", P->files[s->file],
                            s->line, s->ptx_line, s->text);
    else
      k += (size_t)snprintf(lines + k, sizeof lines - k, "\n    PTX line %u: %s", s->ptx_line, s->text);
    shown++;
  }
  if (npc) w0->pc = pcs[0];
  /* blocks still waiting for a worker could have freed it on a GPU */
  uint64_t next = atomic_load(&L->next_block) * (L->csize ? L->csize : 1);
  uint64_t waiting = next < L->nblocks ? L->nblocks - next : 0;
  char more[256] = "";
  if (waiting)
    snprintf(more, sizeof more,
             " (%llu block(s) have not started: if they would free it, run the blocks at once "
             "with more worker threads, --threads)",
             (unsigned long long)waiting);
  exec_fault(
      w0, -1, SMEMU_ERR_HANG,
      "hang: no warp can make progress: the block's %u live warp(s) return to the same state (registers, "
      "local and shared memory, barriers) every %u round(s), spinning on values nothing else will change%s; "
      "the loop:%s",
      live, h->cyc_len, more, lines);
}

int hang_round(block *b, hang_state *h, uint64_t insns, uint64_t rounds) {
  launch *L = b->warps[0].L;
  if (!h->stride) {
    /* at most about 16 bytes hashed per warp instruction run */
    uint64_t per_round = insns / (rounds ? rounds : 1) + 1, s = state_bytes(b) / (16 * per_round) + 1;
    h->stride = s > 65536 ? 65536 : (uint32_t)s;
  }
  if (++h->count < h->stride) return 0;
  h->count = 0;
  uint64_t x = block_hash(b);
  if (!h->stuck) {
    h->lam++;
    if (x == h->saved) {
      h->stuck = 1;
      h->cyc_hash = x;
      h->cyc_len = h->lam;
      h->cyc_pos = 0;
      h->all_since = 0;
      atomic_fetch_add(&L->nstuck, 1);
    } else if (h->lam >= h->power) {
      h->saved = x;
      h->power *= 2;
      h->lam = 0;
    }
    return 0;
  }
  /* still in the cycle? */
  if (++h->cyc_pos == h->cyc_len) {
    h->cyc_pos = 0;
    if (x != h->cyc_hash) {
      unstick(b, h);
      h->saved = x;
      h->power = 1;
      h->lam = 0;
      return 0;
    }
  }
  /* every worker's block cycles: nothing can change the memory they wait
   * on; a while of that (other workers' views are a round old) is a hang */
  if (atomic_load(&L->nstuck) < atomic_load(&L->nactive)) {
    h->all_since = 0;
    return 0;
  }
  double t = mono();
  if (!h->all_since) {
    h->all_since = t;
    return 0;
  }
  if (t - h->all_since < 0.2) return 0;
  report(b, h);
  return 1;
}
