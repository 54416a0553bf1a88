/* tiers.c: one kernel on both tiers, compared; a random kernel generator
 * (tiers.h). */
#include "tiers.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tiers_splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Interesting 32-bit patterns: float specials, integer edges, shifts. */
static const uint32_t special32[] = {
    0, 1, 2, 31, 32, 33, 63, 64, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x3f800000u, 0xbf800000u,
    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x00000001u, 0x80000001u,
    0x007fffffu, 0x00800000u, 0x4f000000u, 0xcf000000u, 0x4f800000u, 0x5f000000u, 0x3f000000u,
    0xbf000000u, 0x40490fdbu, 0x0000ffffu, 0xffff8000u, 0x00010000u};
static const uint64_t special64[] = {
    0, 1, 0xffffffffffffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x3ff0000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff4000000000001ull,
    0xfff8000000000000ull, 0x0000000000000001ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
    0x41e0000000000000ull, 0x3fe0000000000000ull, 0x00000000ffffffffull, 0x0000000080000000ull};

uint64_t tiers_input_word(uint64_t *s) {
  uint64_t r = tiers_splitmix(s);
  switch (r % 4) {
  case 0: return special32[(r >> 8) % (sizeof special32 / 4)] | ((uint64_t)special32[(r >> 20) % (sizeof special32 / 4)] << 32);
  case 1: return special64[(r >> 8) % (sizeof special64 / 8)];
  case 2: return (r >> 8) & 0xff;
  default: return tiers_splitmix(s);
  }
}

/* ---- running and recording ---- */
typedef struct bufs {
  size_t n;
  uint64_t base[TIERS_MAXBUF], size[TIERS_MAXBUF];
} bufs;

/* An address as text: "bI+OFF" inside buffer I (or just past it),
 * "bI+-OFF" relative to the nearest buffer within 1 MB (a fault past
 * the end), else "0x?": further away it is in another allocation, such as
 * a module's global variable, whose distance from the buffers differs
 * between two contexts (the message names that allocation and the offset
 * in it). */
static void addr_text(const bufs *B, uint64_t a, char *out, size_t n) {
  for (size_t i = 0; i < B->n; i++)
    if (a >= B->base[i] && a < B->base[i] + B->size[i] + 64) {
      snprintf(out, n, "b%zu+%llu", i, (unsigned long long)(a - B->base[i]));
      return;
    }
  size_t best = B->n;
  uint64_t bd = 1ull << 20;
  for (size_t i = 0; i < B->n; i++) {
    uint64_t d = a > B->base[i] ? a - B->base[i] : B->base[i] - a;
    if (d < bd) bd = d, best = i;
  }
  if (best < B->n) snprintf(out, n, "b%zu%+lld", best, (long long)(a - B->base[best]));
  else snprintf(out, n, "0x?");
}

/* A message with its host addresses made buffer-relative; long hex
 * numbers outside every buffer become "0x?". */
static void norm_msg(const bufs *B, const char *in, char *out, size_t n) {
  size_t k = 0;
  for (const char *p = in; *p && k + 32 < n;) {
    if (p[0] == '0' && p[1] == 'x') {
      const char *q = p + 2;
      while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')) q++;
      if (q - p > 10) {
        uint64_t a = strtoull(p + 2, NULL, 16);
        char t[40];
        addr_text(B, a, t, sizeof t);
        k += (size_t)snprintf(out + k, n - k, "%s", t);
        p = q;
        continue;
      }
    }
    out[k++] = *p++;
  }
  out[k] = 0;
}

static const char *nz(const char *s) { return s ? s : "-"; }

/* Every report of the last launch, as text. */
static char *reports(smemu_ctx *c, const bufs *B) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  if (!f) return NULL;
  char a[48];
  for (int i = 0; i < smemu_hazard_count(c); i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    addr_text(B, h->address, a, sizeof a);
    fprintf(f, "hazard %s e%d g%d %s %s %s:%u/%u %s:%u/%u n%llu %s %s+%llu b%u,%u,%u t%u,%u,%u t%u,%u,%u v%llx v%llx c%d r%u,%u\n",
            h->type, h->error, h->global, h->first_access, h->second_access, nz(h->first_file), h->first_line,
            h->first_ptx_line, nz(h->second_file), h->second_line, h->second_ptx_line, (unsigned long long)h->count,
            h->global ? a : "", nz(h->variable), (unsigned long long)h->var_offset, h->block[0], h->block[1],
            h->block[2], h->first_thread[0], h->first_thread[1], h->first_thread[2], h->second_thread[0],
            h->second_thread[1], h->second_thread[2], (unsigned long long)h->first_value,
            (unsigned long long)h->second_value, h->cluster, h->first_rank, h->second_rank);
    if (!h->global) fprintf(f, "  at %llx\n", (unsigned long long)h->address);
  }
  for (int i = 0; i < smemu_sync_error_count(c); i++) {
    const smemu_sync_error *e = smemu_sync_error_get(c, i);
    fprintf(f, "sync %s %s:%u/%u b%u,%u,%u t%u,%u,%u n%llu", e->kind, nz(e->file), e->line, e->ptx_line, e->block[0],
            e->block[1], e->block[2], e->thread[0], e->thread[1], e->thread[2], (unsigned long long)e->count);
    for (int w = 0; w < 32; w++) fprintf(f, " %x", e->threads[w]);
    fprintf(f, "\n");
  }
  fprintf(f, "uninit %llu\n", (unsigned long long)smemu_uninit_total(c));
  for (int i = 0; i < smemu_uninit_count(c); i++) {
    smemu_uninit_read r;
    if (smemu_uninit_get(c, i, &r) != SMEMU_OK) continue;
    addr_text(B, r.address, a, sizeof a);
    fprintf(f, "uninit %s:%u/%u pc%u b%u,%u,%u t%u,%u,%u %s %u\n", nz(r.file), r.line, r.ptx_line, r.pc, r.block[0],
            r.block[1], r.block[2], r.thread[0], r.thread[1], r.thread[2], a, r.size);
  }
  smemu_fault ft;
  int nf = smemu_fault_count(c);
  for (int i = -1; i < nf; i++) {
    if ((i < 0 ? smemu_last_fault(c, &ft) : smemu_fault_get(c, i, &ft)) != SMEMU_OK) continue;
    char msg[1024];
    norm_msg(B, nz(ft.message), msg, sizeof msg);
    addr_text(B, ft.address, a, sizeof a);
    fprintf(f, "fault%d %d %s %s:%u/%u b%u,%u,%u t%u,%u,%u h%d a%d w%d m%d %s %s %u %s\n", i, ft.status, nz(ft.kernel),
            nz(ft.file), ft.line, ft.ptx_line, ft.block[0], ft.block[1], ft.block[2], ft.thread[0], ft.thread[1],
            ft.thread[2], ft.has_thread, ft.access, ft.write, ft.misaligned, nz(ft.space),
            ft.access && strcmp(nz(ft.space), "global") ? "" : a, ft.size, msg);
  }
  fprintf(f, "fault total %llu\n", (unsigned long long)smemu_fault_total(c));
  smemu_write_bank_json(c, f);
  fclose(f);
  return s;
}

/* Whether parameter i is the kernel's last pointer parameter. */
static int is_last_pointer(const smemu_kernel *k, int i, int np) {
  for (int j = i + 1; j < np; j++) {
    smemu_param_info pi;
    if (smemu_kernel_param(k, j, &pi) == SMEMU_OK && pi.is_pointer) return 0;
  }
  return 1;
}

int tiers_run(const char *ptx, const char *file, int ki, int tier, const tiers_launch *L, tiers_outcome *o) {
  memset(o, 0, sizeof *o);
  smemu_options opt = {0};
  opt.threads = 1;
  opt.tier = tier;
  opt.analyses = L->analyses;
  opt.schedule = L->schedule;
  opt.seed = L->sched_seed;
  opt.max_warp_instructions = L->max_warp_insns ? L->max_warp_insns : 2000000;
  smemu_ctx *c = NULL;
  if (smemu_create(&opt, &c) != SMEMU_OK) {
    o->status = -3000;
    return -1;
  }
  smemu_module *m = NULL;
  smemu_status s = file ? smemu_module_load_file(c, file, &m) : smemu_module_load_data(c, ptx, strlen(ptx), "fuzz.ptx", &m);
  if (s != SMEMU_OK) {
    o->status = -1000 - (int)s;
    snprintf(o->msg, sizeof o->msg, "%s", smemu_errmsg(c));
    smemu_destroy(c);
    return 0;
  }
  smemu_kernel *k = smemu_module_kernel(m, ki);
  if (!k) {
    o->status = -2000;
    smemu_destroy(c);
    return 0;
  }
  int np = smemu_kernel_param_count(k);
  void *args[32];
  uint64_t scal[32];
  void *ptrs[TIERS_MAXBUF];
  bufs B = {0};
  uint64_t st = L->seed;
  for (int i = 0; i < np && i < 32; i++) {
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    if (pi.is_pointer && o->nbufs < TIERS_MAXBUF) {
      void *d = NULL;
      unsigned char *h = malloc(L->bytes);
      if (!h || smemu_malloc(c, &d, L->bytes) != SMEMU_OK) {
        free(h);
        o->status = -3001;
        smemu_destroy(c);
        return -1;
      }
      for (size_t b = 0; b + 8 <= L->bytes; b += 8) {
        uint64_t w = tiers_input_word(&st);
        memcpy(h + b, &w, 8);
      }
      smemu_memcpy(c, d, h, L->bytes);
      /* fresh memory holds whatever the host allocator left: write it all,
       * then mark the tail unwritten */
      if (L->unwritten && L->unwritten < L->bytes && is_last_pointer(k, i, np))
        smemu_mem_set_written(c, (char *)d + L->unwritten, L->bytes - L->unwritten, 0);
      o->buf[o->nbufs] = h;
      o->size[o->nbufs] = L->bytes;
      ptrs[o->nbufs] = d;
      B.base[B.n] = (uint64_t)(uintptr_t)d;
      B.size[B.n++] = L->bytes;
      scal[i] = (uint64_t)(uintptr_t)d;
      o->nbufs++;
    } else {
      scal[i] = 1 + (uint64_t)(i * 7 % 13);
    }
    args[i] = &scal[i];
  }
  o->status = smemu_launch(c, k, L->grid, L->block, 0, args);
  if (o->status) norm_msg(&B, smemu_errmsg(c), o->msg, sizeof o->msg);
  const smemu_launch_stats *ls = smemu_last_stats(c);
  o->winsn = ls->warp_instructions;
  o->tinsn = ls->thread_instructions;
  o->tier = ls->tier;
  o->has_bc = smemu_last_bank_counts(c, &o->bc) == SMEMU_OK;
  o->rep = reports(c, &B);
  for (size_t b = 0; b < o->nbufs; b++) smemu_memcpy(c, o->buf[b], ptrs[b], o->size[b]);
  smemu_destroy(c);
  return 0;
}

void tiers_free(tiers_outcome *o) {
  for (size_t b = 0; b < o->nbufs; b++) free(o->buf[b]);
  free(o->rep);
  o->rep = NULL;
  o->nbufs = 0;
}

/* The first line where two texts differ, printed. */
static void print_diff(const char *a, const char *b) {
  size_t i = 0, line = 0;
  while (a[i] && a[i] == b[i]) i++;
  size_t s = i;
  while (s && a[s - 1] != '\n') s--;
  for (size_t k = 0; k < s; k++) line += a[k] == '\n';
  printf("  at report line %zu\n  interp: %.300s\n  jit:    %.300s\n", line + 1, a + s, b + s);
}

int tiers_compare(const tiers_outcome *a, const tiers_outcome *b, const char *what) {
  int bad = 0;
  if (a->status != b->status || strcmp(a->msg, b->msg)) {
    printf("%s: status %d vs %d\n  interp: %s\n  jit:    %s\n", what, a->status, b->status, a->msg, b->msg);
    bad++;
  }
  if (a->winsn != b->winsn || a->tinsn != b->tinsn) {
    printf("%s: instructions %llu/%llu vs %llu/%llu\n", what, (unsigned long long)a->winsn,
           (unsigned long long)a->tinsn, (unsigned long long)b->winsn, (unsigned long long)b->tinsn);
    bad++;
  }
  if (a->has_bc != b->has_bc || (a->has_bc && memcmp(&a->bc, &b->bc, sizeof a->bc))) {
    printf("%s: bank counts differ\n", what);
    bad++;
  }
  const char *ra = a->rep ? a->rep : "", *rb = b->rep ? b->rep : "";
  if (strcmp(ra, rb)) {
    printf("%s: reports differ\n", what);
    print_diff(ra, rb);
    bad++;
  }
  if (a->nbufs != b->nbufs) {
    printf("%s: %zu vs %zu buffers\n", what, a->nbufs, b->nbufs);
    bad++;
  }
  for (size_t i = 0; i < a->nbufs && i < b->nbufs; i++)
    for (size_t k = 0; k + 8 <= a->size[i]; k += 8)
      if (memcmp(a->buf[i] + k, b->buf[i] + k, 8)) {
        uint64_t x, y;
        memcpy(&x, a->buf[i] + k, 8);
        memcpy(&y, b->buf[i] + k, 8);
        printf("%s: buffer %zu word %zu: %016llx vs %016llx\n", what, i, k / 8, (unsigned long long)x,
               (unsigned long long)y);
        bad++;
        break;
      }
  return bad;
}

int tiers_both(const char *ptx, const char *file, int ki, const tiers_launch *L, const char *what, int *compiled) {
  tiers_outcome a, b;
  tiers_run(ptx, file, ki, SMEMU_TIER_INTERP, L, &a);
  tiers_run(ptx, file, ki, SMEMU_TIER_JIT, L, &b);
  int bad = tiers_compare(&a, &b, what);
  if (b.tier && !strcmp(b.tier, "jit")) (*compiled)++;
  else printf("%s: not run compiled: status %d %s\n", what, b.status, b.msg);
  tiers_free(&a);
  tiers_free(&b);
  return bad;
}

/* ---- the generator ---- */
typedef struct gen {
  char *s;
  size_t n, cap;
  const uint8_t *bytes;
  size_t nbytes, pos;
  uint64_t rng;
  int label;
  int full, faults;
  int loops;     /* loop counters in use */
} gen;

static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(g->s ? g->s + g->n : NULL, g->s ? g->cap - g->n : 0, fmt, ap);
    va_end(ap);
    if (g->s && (size_t)k < g->cap - g->n) {
      g->n += (size_t)k;
      return;
    }
    size_t cap = g->cap * 2 + (size_t)k + 64;
    char *s = realloc(g->s, cap);
    if (!s) abort();
    g->s = s;
    g->cap = cap;
  }
}

/* A choice in [0, n): the next byte(s) while they last, then splitmix. */
static unsigned rnd(gen *g, unsigned n) {
  if (n <= 1) return 0;
  if (g->pos < g->nbytes) {
    unsigned v = g->bytes[g->pos++];
    if (n > 256 && g->pos < g->nbytes) v = v << 8 | g->bytes[g->pos++];
    return v % n;
  }
  return (unsigned)(tiers_splitmix(&g->rng) % n);
}

#define NR KGEN_NR
static const char *guard(gen *g, char *b) {
  unsigned r = rnd(g, 10);
  if (r >= 3) return "";
  snprintf(b, 16, "@%s%%p%u ", r == 0 ? "!" : "", 1 + rnd(g, NR - 1));
  return b;
}

/* %r0 = an in-bounds shared offset aligned to `al` from a lane-dependent
 * pattern, plus the base of sm (%r11); offsets up to 1023 + imm < 2048. */
static void smem_addr(gen *g, unsigned al) {
  unsigned a = rnd(g, NR), mask = 1023u & ~(al - 1);
  static const unsigned strides[] = {0, 1, 2, 4, 8, 12, 16, 32, 36, 64, 128, 132};
  switch (rnd(g, 4)) {
  case 0: emit(g, "and.b32 %%r0, %%r%u, %u;\n", a, mask); break;
  case 1: emit(g, "mul.lo.u32 %%r0, %%r10, %u;\nand.b32 %%r0, %%r0, %u;\n", strides[rnd(g, 12)] * al, mask); break;
  case 2:
    emit(g, "mad.lo.u32 %%r0, %%r10, %u, %%r%u;\nand.b32 %%r0, %%r0, %u;\n", strides[rnd(g, 12)], a, mask);
    break;
  default: emit(g, "shr.u32 %%r0, %%r10, %u;\nmul.lo.u32 %%r0, %%r0, %u;\nand.b32 %%r0, %%r0, %u;\n", rnd(g, 6),
                al * (1 + rnd(g, 8)), mask);
  }
  emit(g, "add.s32 %%r0, %%r0, %%r11;\n");
}

/* %ra2 = an aligned address in the scratch buffer pg (%ra3). */
static void gmem_addr(gen *g, unsigned al) {
  unsigned a = rnd(g, NR), mask = (KGEN_SCRATCH / 2 - 1) & ~(al - 1);
  if (rnd(g, 2)) emit(g, "mad.lo.u32 %%r0, %%r10, %u, %%r%u;\n", al * rnd(g, 5), a);
  else emit(g, "mul.lo.u32 %%r0, %%r12, %u;\n", al * (1 + rnd(g, 4)));
  emit(g, "and.b32 %%r0, %%r0, %u;\ncvt.u64.u32 %%ra2, %%r0;\nadd.s64 %%ra2, %%ra2, %%ra3;\n", mask);
}

/* A register of a load/store type, distinct from those in `used`. */
typedef struct mty {
  const char *t, *r;
  unsigned size;
} mty;
static const mty mtypes[] = {{"u8", "%r", 1}, {"s8", "%r", 1}, {"u16", "%h", 2}, {"s16", "%r", 2}, {"b16", "%h", 2},
                             {"u32", "%r", 4}, {"s32", "%r", 4}, {"b32", "%r", 4}, {"f32", "%f", 4},
                             {"u64", "%rd", 8}, {"s64", "%rd", 8}, {"f64", "%fd", 8}};

/* Vector operand "{%r1, %r3}" of n distinct registers (1 + ... < NR). */
static void vec_regs(gen *g, const char *r, unsigned n, char *out, size_t cap, int dest) {
  unsigned start = (dest ? 1 : 0) + rnd(g, NR - n - (dest ? 1 : 0) + 1);
  size_t k = 0;
  if (n == 1) {
    snprintf(out, cap, "%s%u", r, start);
    return;
  }
  k += (size_t)snprintf(out + k, cap - k, "{");
  for (unsigned i = 0; i < n; i++) k += (size_t)snprintf(out + k, cap - k, "%s%s%u", i ? ", " : "", r, start + i);
  snprintf(out + k, cap - k, "}");
}

/* A shared or global load/store of a random type and width. */
static void mem_insn(gen *g, const char *gd, int global) {
  const mty *m = &mtypes[rnd(g, sizeof mtypes / sizeof *mtypes)];
  unsigned nv = 1;
  unsigned v = rnd(g, 6);
  if (v >= 4 && m->size <= 8) nv = 2;
  if (v == 5 && m->size <= 4) nv = 4;
  unsigned al = m->size * nv;
  int st = rnd(g, 2);
  char regs[64];
  vec_regs(g, m->r, nv, regs, sizeof regs, !st);
  unsigned off = al * rnd(g, 1024 / al);
  const char *vs = nv == 1 ? "" : nv == 2 ? ".v2" : ".v4";
  if (g->faults && rnd(g, 200) == 0) {
    if (rnd(g, 2) && al > 1) off += al / 2; /* misaligned */
    else off += global ? 1u << 20 : 1u << 16; /* out of bounds */
  }
  if (global) {
    gmem_addr(g, al);
    if (st) emit(g, "%sst.global%s.%s [%%ra2+%u], %s;\n", gd, vs, m->t, off, regs);
    else emit(g, "%sld.global%s.%s %s, [%%ra2+%u];\n", gd, vs, m->t, regs, off);
  } else {
    smem_addr(g, al);
    if (st) emit(g, "%sst.shared%s.%s [%%r0+%u], %s;\n", gd, vs, m->t, off, regs);
    else emit(g, "%sld.shared%s.%s %s, [%%r0+%u];\n", gd, vs, m->t, regs, off);
  }
}

/* An atomic or reduction on shared memory or the scratch buffer. */
static void atom_insn(gen *g, const char *gd) {
  static const struct { const char *op, *t, *r; unsigned size; int nsrc; } at[] = {
      {"add", "u32", "%r", 4, 1}, {"add", "s32", "%r", 4, 1}, {"min", "s32", "%r", 4, 1}, {"max", "u32", "%r", 4, 1},
      {"exch", "b32", "%r", 4, 1}, {"and", "b32", "%r", 4, 1}, {"or", "b32", "%r", 4, 1}, {"xor", "b32", "%r", 4, 1},
      {"inc", "u32", "%r", 4, 1}, {"dec", "u32", "%r", 4, 1}, {"cas", "b32", "%r", 4, 2}, {"add", "f32", "%f", 4, 1},
      {"add", "u64", "%rd", 8, 1}, {"max", "s64", "%rd", 8, 1}, {"cas", "b64", "%rd", 8, 2}, {"exch", "b64", "%rd", 8, 1}};
  unsigned i = rnd(g, sizeof at / sizeof *at);
  int global = rnd(g, 3) == 0, red = rnd(g, 4) == 0 && at[i].nsrc == 1 && strcmp(at[i].op, "exch");
  unsigned d = 1 + rnd(g, NR - 1), a = rnd(g, NR), b = rnd(g, NR);
  char addr[32];
  if (global) {
    gmem_addr(g, at[i].size);
    snprintf(addr, sizeof addr, "[%%ra2+%u]", at[i].size * rnd(g, 8));
  } else {
    smem_addr(g, at[i].size);
    snprintf(addr, sizeof addr, "[%%r0+%u]", at[i].size * rnd(g, 8));
  }
  const char *sp = global ? "global" : "shared";
  if (red) emit(g, "%sred.%s.%s.%s %s, %s%u;\n", gd, sp, at[i].op, at[i].t, addr, at[i].r, a);
  else if (at[i].nsrc == 2)
    emit(g, "%satom.%s.%s.%s %s%u, %s, %s%u, %s%u;\n", gd, sp, at[i].op, at[i].t, at[i].r, d, addr, at[i].r, a, at[i].r, b);
  else emit(g, "%satom.%s.%s.%s %s%u, %s, %s%u;\n", gd, sp, at[i].op, at[i].t, at[i].r, d, addr, at[i].r, a);
}

/* A warp collective; with the active mask where the warp may diverge. */
static void warp_insn(gen *g, int depth) {
  static const char *const sh[] = {"idx", "up", "down", "bfly"};
  unsigned d = 1 + rnd(g, NR - 1), a = rnd(g, NR), b = rnd(g, NR);
  const char *mask = "-1";
  if (depth) {
    emit(g, "activemask.b32 %%r0;\n");
    mask = "%r0";
  }
  switch (rnd(g, 6)) {
  case 0: case 1: {
    unsigned c = rnd(g, 3) == 0 ? (rnd(g, 0x2000) & 0x1f1f) : rnd(g, 2) ? 31 : 0;
    if (rnd(g, 3) == 0) emit(g, "shfl.sync.%s.b32 %%r%u|%%p%u, %%r%u, %%r%u, %u, %s;\n", sh[rnd(g, 4)], d, 1 + rnd(g, NR - 1), a, b, c, mask);
    else emit(g, "shfl.sync.%s.b32 %%r%u, %%r%u, %u, %u, %s;\n", sh[rnd(g, 4)], d, a, rnd(g, 32), c, mask);
    break;
  }
  case 2: emit(g, "vote.sync.ballot.b32 %%r%u, %s%%p%u, %s;\n", d, rnd(g, 2) ? "!" : "", 1 + rnd(g, NR - 1), mask); break;
  case 3: emit(g, "vote.sync.%s.pred %%p%u, %%p%u, %s;\n", rnd(g, 3) == 0 ? "uni" : rnd(g, 2) ? "any" : "all", d, 1 + rnd(g, NR - 1), mask); break;
  case 4: emit(g, "redux.sync.%s %%r%u, %%r%u, %s;\n", rnd(g, 2) ? "add.u32" : rnd(g, 2) ? "max.s32" : "xor.b32", d, a, mask); break;
  default: emit(g, "activemask.b32 %%r%u;\n", d);
  }
}

static void random_insn(gen *g, int depth);

/* A loop of lane-dependent trip count (0..3 or 1..4), reconverging after. */
static void loop_insn(gen *g, int depth) {
  int q = g->loops++;
  int h = g->label++, e = g->label++;
  emit(g, "and.b32 %%q%d, %%r%u, 3;\n", q, rnd(g, NR));
  unsigned k = 1 + rnd(g, 5);
  if (rnd(g, 2)) {
    emit(g, "L%d:\nsetp.eq.u32 %%pq%d, %%q%d, 0;\n@%%pq%d bra L%d;\n", h, q, q, q, e);
    for (unsigned i = 0; i < k; i++) random_insn(g, depth + 1);
    emit(g, "sub.u32 %%q%d, %%q%d, 1;\nbra L%d;\nL%d:\n", q, q, h, e);
  } else {
    emit(g, "L%d:\n", h);
    for (unsigned i = 0; i < k; i++) random_insn(g, depth + 1);
    emit(g, "sub.s32 %%q%d, %%q%d, 1;\nsetp.ge.s32 %%pq%d, %%q%d, 0;\n@%%pq%d bra L%d;\n", q, q, q, q, q, h);
  }
  g->loops--;
}

/* One random instruction (or a small group). */
static void random_insn(gen *g, int depth) {
  static const char *const ib[] = {"add", "sub", "mul.lo", "min", "max", "mul.hi"};
  static const char *const it[] = {"u32", "s32"};
  static const char *const lt[] = {"u64", "s64"};
  static const char *const fo[] = {"add", "sub", "mul", "add.ftz", "mul.sat", "sub.ftz.sat", "min", "max", "div.rn", "div.approx.ftz"};
  static const char *const cmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "hs"};
  static const char *const fcmp[] = {"eq", "ne", "lt", "ge", "equ", "neu", "ltu", "geu", "num", "nan"};
  static const char *const bop[] = {"", ".and", ".or", ".xor"};
  char gb[16];
  unsigned d = 1 + rnd(g, NR - 1), a = rnd(g, NR), b = rnd(g, NR), c = rnd(g, NR);
  const char *gd = guard(g, gb);
  switch (rnd(g, g->full ? 44 : 30)) {
  case 0: case 1: emit(g, "%s%s.%s %%r%u, %%r%u, %%r%u;\n", gd, ib[rnd(g, 6)], it[rnd(g, 2)], d, a, b); break;
  case 2: emit(g, "%s%s.%s %%rd%u, %%rd%u, %%rd%u;\n", gd, ib[rnd(g, 6)], lt[rnd(g, 2)], d, a, b); break;
  case 3: emit(g, "%s%s.b32 %%r%u, %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "and" : rnd(g, 2) ? "or" : "xor", d, a, b); break;
  case 4:
    if (rnd(g, 2)) emit(g, "%sshl.b32 %%r%u, %%r%u, %%r%u;\n", gd, d, a, b);
    else emit(g, "%sshr.%s %%r%u, %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "u32" : "s32", d, a, b);
    break;
  case 5: emit(g, "%sshr.s64 %%rd%u, %%rd%u, %%r%u;\n", gd, d, a, b); break;
  case 6: emit(g, "%smad.lo.s32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 7: emit(g, "%smul.wide.%s %%rd%u, %%r%u, %%r%u;\n", gd, it[rnd(g, 2)], d, a, b); break;
  case 8: emit(g, "%s%s.b32 %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "not" : rnd(g, 2) ? "popc" : "brev", d, a); break;
  case 9: emit(g, "%ssetp.%s%s.%s %%p%u|%%p%u, %%r%u, %%r%u%s;\n", gd, cmp[rnd(g, 8)], bop[c % 4], it[rnd(g, 2)], d,
               1 + (d % (NR - 1)), a, b, c % 4 ? (rnd(g, 2) ? ", %p1" : ", !%p2") : "");
    break;
  case 10: emit(g, "%ssetp.%s%s.f32 %%p%u, %%f%u, %%f%u;\n", gd, fcmp[rnd(g, 10)], rnd(g, 2) ? ".ftz" : "", d, a, b); break;
  case 11: emit(g, "%sselp.b32 %%r%u, %%r%u, %%r%u, %%p%u;\n", gd, d, a, b, c); break;
  case 12: case 13: emit(g, "%s%s.f32 %%f%u, %%f%u, %%f%u;\n", gd, fo[rnd(g, 10)], d, a, b); break;
  case 14: emit(g, "%sfma.rn%s.f32 %%f%u, %%f%u, %%f%u, %%f%u;\n", gd, rnd(g, 2) ? ".ftz" : "", d, a, b, c); break;
  case 15: emit(g, "%s%s.f64 %%fd%u, %%fd%u, %%fd%u;\n", gd, rnd(g, 2) ? "add" : rnd(g, 2) ? "mul" : "min", d, a, b); break;
  case 16: emit(g, "%sfma.rn.f64 %%fd%u, %%fd%u, %%fd%u, %%fd%u;\n", gd, d, a, b, c); break;
  case 17: {
    static const char *const cv[] = {"cvt.rn.f32.s32 %%f%u, %%r%u", "cvt.rzi.s32.f32 %%r%u, %%f%u", "cvt.rni.u32.f32 %%r%u, %%f%u",
                                     "cvt.f64.f32 %%fd%u, %%f%u", "cvt.rn.f32.f64 %%f%u, %%fd%u", "cvt.s64.s32 %%rd%u, %%r%u",
                                     "cvt.u32.u64 %%r%u, %%rd%u", "cvt.sat.s16.s32 %%h%u, %%r%u", "cvt.rmi.s64.f64 %%rd%u, %%fd%u",
                                     "cvt.rpi.f32.f32 %%f%u, %%f%u", "cvt.rz.f32.s32 %%f%u, %%r%u", "cvt.s32.s16 %%r%u, %%h%u",
                                     "cvt.u8.u32 %%h%u, %%r%u", "cvt.s8.s32 %%r%u, %%r%u", "cvt.rn.f32.u64 %%f%u, %%rd%u",
                                     "cvt.rzi.u64.f64 %%rd%u, %%fd%u", "cvt.sat.u16.s64 %%h%u, %%rd%u", "cvt.ftz.f64.f32 %%fd%u, %%f%u"};
    char f[64];
    snprintf(f, sizeof f, "%%s%s;\n", cv[rnd(g, g->full ? 18 : 12)]);
    emit(g, f, gd, d, a);
    break;
  }
  case 18: emit(g, "%s%s.f32 %%f%u, %%f%u;\n", gd, rnd(g, 2) ? "abs" : rnd(g, 2) ? "neg" : rnd(g, 2) ? "sqrt.rn" : "rcp.approx.ftz", d, a);
    break;
  case 19: emit(g, "%smov.b32 %%f%u, %%r%u;\n", gd, d, a); break;
  case 20: emit(g, "%smov.b32 %%r%u, %%f%u;\n", gd, d, a); break;
  case 21: emit(g, "%s%s.pred %%p%u, %%p%u, %%p%u;\n", gd, rnd(g, 2) ? "and" : rnd(g, 2) ? "or" : "xor", d, a, b); break;
  /* through handlers */
  case 22: emit(g, "%sbfe.u32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 23: emit(g, "%sprmt.b32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 24:
    if (depth) emit(g, "%sbfi.b32 %%r%u, %%r%u, %%r%u, 3, 5;\n", gd, d, a, b);
    else emit(g, "shfl.sync.bfly.b32 %%r%u, %%r%u, %u, 31, -1;\n", d, a, 1u << rnd(g, 5));
    break;
  /* shared memory: aligned in-range addresses from the thread index */
  case 25: case 26: {
    unsigned off = 4 * rnd(g, 64);
    emit(g, "and.b32 %%r0, %%r%u, 252;\nadd.s32 %%r0, %%r0, %%r9;\n", a);
    if (rnd(g, 2)) emit(g, "%sld.shared.u32 %%r%u, [%%r0+%u];\n", gd, d, off);
    else emit(g, "%sst.shared.u32 [%%r0+%u], %%r%u;\n", gd, off, b);
    break;
  }
  case 27: emit(g, "%sld.shared.u32 %%r%u, [%%r9+%u];\n", gd, d, 4 * rnd(g, 32)); break;
  case 28: emit(g, "%sst.shared.u32 [%%r9+%u], %%r%u;\n", gd, 4 * rnd(g, 32), a); break;
  /* the full mix */
  case 30: case 31: mem_insn(g, gd, 0); break;
  case 32: mem_insn(g, gd, 1); break;
  case 33: atom_insn(g, gd); break;
  case 34:
    /* a barrier: where the block may have diverged only rarely (a sync error) */
    if (!depth || rnd(g, 8) == 0) emit(g, "bar.sync 0;\n");
    else emit(g, "%smin.u32 %%r%u, %%r%u, %%r%u;\n", gd, d, a, b);
    break;
  case 35: warp_insn(g, depth); break;
  case 36:
    if (depth < 2 && g->loops < 2) loop_insn(g, depth);
    else emit(g, "%smax.s32 %%r%u, %%r%u, %%r%u;\n", gd, d, a, b);
    break;
  case 37: {
    static const char *const f2[] = {"max.NaN.f32", "min.f32", "max.ftz.f32", "abs.ftz.f32", "neg.ftz.f32",
                                     "sqrt.approx.f32", "rcp.rn.f32", "ex2.approx.ftz.f32", "lg2.approx.f32", "sin.approx.f32"};
    unsigned k = rnd(g, 10);
    if (k < 3) emit(g, "%s%s %%f%u, %%f%u, %%f%u;\n", gd, f2[k], d, a, b);
    else emit(g, "%s%s %%f%u, %%f%u;\n", gd, f2[k], d, a);
    break;
  }
  case 38: {
    static const char *const i2[] = {"min.s64", "max.u64", "mad.lo.u64", "mad.hi.s32", "mad.wide.u32", "mul.hi.u64",
                                     "sad.u32", "abs.s32", "clz.b32", "neg.s64"};
    unsigned k = rnd(g, 10);
    const char *R = (k < 3 || k == 5 || k == 9) ? "%rd" : "%r";
    if (k == 2) emit(g, "%s%s %%rd%u, %%rd%u, %%rd%u, %%rd%u;\n", gd, i2[k], d, a, b, c);
    else if (k == 3 || k == 6) emit(g, "%s%s %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, i2[k], d, a, b, c);
    else if (k == 4) emit(g, "%s%s %%rd%u, %%r%u, %%r%u, %%rd%u;\n", gd, i2[k], d, a, b, c);
    else if (k >= 7) emit(g, "%s%s %s%u, %s%u;\n", gd, i2[k], R, d, R, a);
    else emit(g, "%s%s %s%u, %s%u, %s%u;\n", gd, i2[k], R, d, R, a, R, b);
    break;
  }
  case 39: {
    /* selp/setp on the other types */
    static const char *const sp[] = {"selp.f32 %%f%u, %%f%u, %%f%u, %%p%u", "selp.b64 %%rd%u, %%rd%u, %%rd%u, %%p%u",
                                     "selp.u16 %%h%u, %%h%u, %%h%u, %%p%u"};
    char f[80];
    if (rnd(g, 2)) {
      snprintf(f, sizeof f, "%%s%s;\n", sp[rnd(g, 3)]);
      emit(g, f, gd, d, a, b, c);
    } else {
      emit(g, "%ssetp.%s.%s %%p%u, %%rd%u, %%rd%u;\n", gd, cmp[rnd(g, 8)], lt[rnd(g, 2)], d, a, b);
    }
    break;
  }
  default:
    if (depth < 2) {
      /* a divergent forward branch */
      int l = g->label++;
      emit(g, "setp.%s.u32 %%p%u, %%r%u, %u;\n", rnd(g, 2) ? "lt" : "ne", 1 + rnd(g, NR - 1), rnd(g, 2) ? 9 : 10, 4 * rnd(g, 64));
      emit(g, "@%%p%u bra L%d;\n", 1 + rnd(g, NR - 1), l);
      unsigned k = 1 + rnd(g, 6);
      for (unsigned i = 0; i < k; i++) random_insn(g, depth + 1);
      emit(g, "L%d:\n", l);
    } else {
      emit(g, "%sadd.s32 %%r%u, %%r%u, 1;\n", gd, d, a);
    }
  }
}

char *kgen_kernel(const uint8_t *bytes, size_t nbytes, uint64_t seed, const kgen_opts *o, size_t *used) {
  gen G = {0}, *g = &G;
  g->bytes = bytes;
  g->nbytes = nbytes;
  g->rng = seed;
  g->full = o->full;
  g->faults = o->faults;
  emit(g, ".version 8.0\n.target sm_90\n.address_size 64\n"
          ".visible .entry fz(.param .u64 po, .param .u64 pi, .param .u64 pg)\n{\n"
          ".reg .b16 %%h<%d>;\n.reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n.reg .f32 %%f<%d>;\n.reg .f64 %%fd<%d>;\n"
          ".reg .pred %%p<%d>;\n.reg .b64 %%ra<4>;\n.reg .b32 %%q<2>;\n.reg .pred %%pq<2>;\n"
          ".shared .align 16 .b8 sm[2048];\n",
       NR, NR + 5, NR, NR, NR, NR);
  /* %r9: this thread's shared word, %r10: tid.x, %r11: sm, %r12: the
   * global thread index */
  emit(g, "ld.param.u64 %%ra0, [po];\nld.param.u64 %%ra1, [pi];\nld.param.u64 %%ra3, [pg];\n"
          "mov.u32 %%r10, %%tid.x;\nmov.u32 %%r11, sm;\nmov.u32 %%r12, %%ctaid.x;\nmov.u32 %%r0, %%ntid.x;\n"
          "mad.lo.u32 %%r12, %%r12, %%r0, %%r10;\n"
          "mul.wide.u32 %%ra2, %%r%d, %d;\nadd.s64 %%ra1, %%ra1, %%ra2;\nadd.s64 %%ra0, %%ra0, %%ra2;\n"
          "shl.b32 %%r9, %%r10, 2;\nadd.s32 %%r9, %%r9, %%r11;\n",
       o->full ? 12 : 10, KGEN_IN_BYTES);
  if (o->full) {
    /* vector loads (fewer instructions to compile) */
    emit(g, "ld.global.v4.u32 {%%r0, %%r1, %%r2, %%r3}, [%%ra1];\nld.global.v4.u32 {%%r4, %%r5, %%r6, %%r7}, [%%ra1+16];\n");
    for (int i = 0; i < NR; i += 2) emit(g, "ld.global.v2.u64 {%%rd%d, %%rd%d}, [%%ra1+%d];\n", i, i + 1, 64 + 8 * i);
    emit(g, "ld.global.v4.f32 {%%f0, %%f1, %%f2, %%f3}, [%%ra1+128];\nld.global.v4.f32 {%%f4, %%f5, %%f6, %%f7}, [%%ra1+144];\n");
    for (int i = 0; i < NR; i += 2) emit(g, "ld.global.v2.f64 {%%fd%d, %%fd%d}, [%%ra1+%d];\n", i, i + 1, 192 + 8 * i);
    emit(g, "ld.global.v4.u16 {%%h0, %%h1, %%h2, %%h3}, [%%ra1+256];\nld.global.v4.u16 {%%h4, %%h5, %%h6, %%h7}, [%%ra1+264];\n");
    for (int i = 1; i < NR; i++) emit(g, "setp.ne.u32 %%p%d, %%r%d, %d;\n", i, i, i);
  }
  for (int i = 0; i < NR && !o->full; i++) {
    emit(g, "ld.global.u32 %%r%d, [%%ra1+%d];\n", i, 8 * i);
    emit(g, "ld.global.u64 %%rd%d, [%%ra1+%d];\n", i, 8 * (NR + i));
    emit(g, "ld.global.f32 %%f%d, [%%ra1+%d];\n", i, 8 * (2 * NR + i));
    emit(g, "ld.global.f64 %%fd%d, [%%ra1+%d];\n", i, 8 * (3 * NR + i));
    emit(g, "ld.global.u16 %%h%d, [%%ra1+%d];\n", i, 8 * (4 * NR + i));
    if (i) emit(g, "setp.ne.u32 %%p%d, %%r%d, %d;\n", i, i, i);
  }
  for (int i = 0; i < o->len; i++) random_insn(g, 0);
  if (o->full) {
    emit(g, "st.global.v4.u32 [%%ra0], {%%r0, %%r1, %%r2, %%r3};\nst.global.v4.u32 [%%ra0+16], {%%r4, %%r5, %%r6, %%r7};\n");
    for (int i = 0; i < NR; i += 2) emit(g, "st.global.v2.u64 [%%ra0+%d], {%%rd%d, %%rd%d};\n", 64 + 8 * i, i, i + 1);
    emit(g, "st.global.v4.f32 [%%ra0+128], {%%f0, %%f1, %%f2, %%f3};\nst.global.v4.f32 [%%ra0+144], {%%f4, %%f5, %%f6, %%f7};\n");
    for (int i = 0; i < NR; i += 2) emit(g, "st.global.v2.f64 [%%ra0+%d], {%%fd%d, %%fd%d};\n", 192 + 8 * i, i, i + 1);
    emit(g, "st.global.v4.u16 [%%ra0+256], {%%h0, %%h1, %%h2, %%h3};\nst.global.v4.u16 [%%ra0+264], {%%h4, %%h5, %%h6, %%h7};\n");
    for (int i = 1; i < NR; i++) emit(g, "selp.u32 %%r0, 1, 0, %%p%d;\nst.global.u32 [%%ra0+%d], %%r0;\n", i, 288 + 4 * i);
  }
  for (int i = 0; i < NR && !o->full; i++) {
    emit(g, "st.global.u32 [%%ra0+%d], %%r%d;\n", 8 * i, i);
    emit(g, "st.global.u64 [%%ra0+%d], %%rd%d;\n", 8 * (NR + i), i);
    emit(g, "st.global.f32 [%%ra0+%d], %%f%d;\n", 8 * (2 * NR + i), i);
    emit(g, "st.global.f64 [%%ra0+%d], %%fd%d;\n", 8 * (3 * NR + i), i);
    emit(g, "st.global.u16 [%%ra0+%d], %%h%d;\n", 8 * (4 * NR + i), i);
    if (i) emit(g, "selp.u32 %%r0, 1, 0, %%p%d;\nst.global.u32 [%%ra0+%d], %%r0;\n", i, 8 * (4 * NR + i) + 4);
  }
  emit(g, "ret;\n}\n");
  if (used) *used = g->pos;
  return g->s;
}

int tiers_cache_files(const char *dir, char *first, size_t n) {
  DIR *d = opendir(dir);
  int k = 0;
  if (!d) return 0;
  struct dirent *de;
  while ((de = readdir(d)))
    if (strlen(de->d_name) > 2 && !strcmp(de->d_name + strlen(de->d_name) - 2, ".o")) {
      if (!k && first) snprintf(first, n, "%s/%s", dir, de->d_name);
      k++;
    }
  closedir(d);
  return k;
}

char *tiers_cache_enter(char *tmpl, char *jdir, size_t n, int *ok) {
  const char *old = getenv("SMEMU_CACHE");
  char *saved = old ? strdup(old) : NULL;
  *ok = mkdtemp(tmpl) != NULL;
  setenv("SMEMU_CACHE", tmpl, 1);
  snprintf(jdir, n, "%s/jit", tmpl);
  return saved;
}

int tiers_cache_leave(const char *root, char *saved) {
  if (saved) setenv("SMEMU_CACHE", saved, 1);
  else unsetenv("SMEMU_CACHE");
  free(saved);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  return system(cmd) == 0 ? 0 : -1;
}
