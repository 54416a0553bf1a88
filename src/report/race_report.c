/* race_report.c: the race and barrier checker's findings through the API:
 * records in smemu.h's form, racecheck-like text (analysis and hazard
 * modes) and JSON. */
#include "api/internal.h"
#include "exec/hooks.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const hz_types[] = {"RAW", "WAR", "WAW"};
static const char *const acc_names[] = {"Read", "Write", "Atomic"};
static const char *const sync_kinds[] = {"divergent-warp", "divergent-block",    "warp-sync-mask",
                                         "barrier-count",  "uninitialized-read", "wgmma-early-access"};

static void where(const program *P, uint32_t pc, const char **file, uint32_t *line, uint32_t *ptx) {
  const src_line *s = &P->lines[pc];
  *file = s->file != ~0u ? P->files[s->file] : NULL;
  *line = s->file != ~0u ? s->line : s->ptx_line;
  *ptx = s->ptx_line;
}

static void tid3(const smemu_ctx *ctx, uint32_t t, uint32_t out[3]) {
  const smemu_launch_stats *st = &ctx->last;
  uint32_t bx = st->block[0] ? st->block[0] : 1, by = st->block[1] ? st->block[1] : 1;
  out[0] = t % bx;
  out[1] = t / bx % by;
  out[2] = t / (bx * by);
}

/* The variable holding a shared address. */
static const placed_var *var_at(const program *P, uint64_t a) {
  const placed_var *best = NULL;
  for (uint32_t i = 0; i < P->nvars; i++) {
    const placed_var *v = &P->vars[i];
    if (v->space != PTX_SPACE_SHARED || v->addr > a || (!v->dynamic && a >= v->addr + v->size)) continue;
    if (!best || v->addr > best->addr) best = v;
  }
  return best;
}

static int same_file(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* The record already built for o's pair of source lines, kinds, type and
 * class, or NULL. racecheck's analysis mode prints one record per pair of
 * instructions; an unrolled loop then repeats one pair of lines many
 * times, so the report sums them per pair of lines. Errors and warnings
 * stay apart, so both classes show when one pair of lines has both. */
static smemu_hazard *same_lines(smemu_ctx *ctx, const smemu_hazard *o) {
  for (int i = 0; i < ctx->nhz; i++) {
    smemu_hazard *h = &ctx->hz[i];
    if (h == o || h->type != o->type || h->error != o->error || h->global != o->global) continue;
    if (h->first_access == o->first_access && h->second_access == o->second_access &&
        h->first_line == o->first_line && h->second_line == o->second_line &&
        same_file(h->first_file, o->first_file) && same_file(h->second_file, o->second_file))
      return h;
    /* WAW pairs are unordered */
    if (!strcmp(h->type, "WAW") && h->first_access == o->second_access &&
        h->second_access == o->first_access && h->first_line == o->second_line &&
        h->second_line == o->first_line && same_file(h->first_file, o->second_file) &&
        same_file(h->second_file, o->first_file))
      return h;
  }
  return NULL;
}

/* Build ctx->hz / ctx->sy from the last analysis. */
static void build(smemu_ctx *ctx) {
  const analysis *a = ctx->last_an;
  if (ctx->cached == a && (ctx->hz || ctx->sy || !a)) return;
  free(ctx->hz);
  free(ctx->sy);
  ctx->hz = NULL;
  ctx->sy = NULL;
  ctx->nhz = ctx->nsy = 0;
  ctx->cached = a;
  if (!a || !a->has_race || !ctx->last_prog) return;
  const program *P = ctx->last_prog;
  const race_state *r = &a->race;
  ctx->hz = calloc(r->nhz + 1, sizeof *ctx->hz);
  ctx->sy = calloc(r->nsy + 1, sizeof *ctx->sy);
  if (!ctx->hz || !ctx->sy) return;
  for (uint32_t i = 0; i < r->nhz; i++) {
    const hazard_rec *h = &r->hz[i];
    smemu_hazard *o = &ctx->hz[ctx->nhz++];
    o->type = hz_types[h->type];
    o->error = h->error;
    o->global = h->global;
    o->first_access = acc_names[h->first_kind];
    o->second_access = acc_names[h->second_kind];
    where(P, h->first_pc, &o->first_file, &o->first_line, &o->first_ptx_line);
    where(P, h->second_pc, &o->second_file, &o->second_line, &o->second_ptx_line);
    o->count = h->count;
    o->address = h->address;
    uint64_t sa = h->cluster ? h->address & 0xffffff : h->address; /* the offset in its block */
    const placed_var *v = h->global ? NULL : var_at(P, sa);
    o->variable = v ? v->name : NULL;
    o->var_offset = v ? sa - v->addr : 0;
    memcpy(o->block, h->block, sizeof o->block);
    tid3(ctx, h->first_tid, o->first_thread);
    tid3(ctx, h->second_tid, o->second_thread);
    o->first_value = h->first_value;
    o->second_value = h->second_value;
    o->cluster = h->cluster;
    o->first_rank = h->first_rank;
    o->second_rank = h->second_rank;
    smemu_hazard *g = same_lines(ctx, o);
    if (g) {
      g->count += o->count;
      ctx->nhz--;
    }
  }
  for (uint32_t i = 0; i < r->nsy; i++) {
    const sync_rec *s = &r->sy[i];
    smemu_sync_error *o = &ctx->sy[ctx->nsy++];
    o->kind = sync_kinds[s->kind];
    where(P, s->pc, &o->file, &o->line, &o->ptx_line);
    memcpy(o->block, s->block, sizeof o->block);
    tid3(ctx, s->tid, o->thread);
    o->count = s->count;
    memcpy(o->threads, s->lanes, sizeof o->threads);
  }
}

int smemu_hazard_count(const smemu_ctx *ctx) {
  if (!ctx) return 0;
  build((smemu_ctx *)ctx);
  return ctx->nhz;
}

const smemu_hazard *smemu_hazard_get(const smemu_ctx *ctx, int i) {
  if (!ctx) return NULL;
  build((smemu_ctx *)ctx);
  return i >= 0 && i < ctx->nhz ? &ctx->hz[i] : NULL;
}

int smemu_sync_error_count(const smemu_ctx *ctx) {
  if (!ctx) return 0;
  build((smemu_ctx *)ctx);
  return ctx->nsy;
}

const smemu_sync_error *smemu_sync_error_get(const smemu_ctx *ctx, int i) {
  if (!ctx) return NULL;
  build((smemu_ctx *)ctx);
  return i >= 0 && i < ctx->nsy ? &ctx->sy[i] : NULL;
}

static void loc(FILE *f, const char *file, uint32_t line, uint32_t ptx) {
  if (file)
    fprintf(f, "%s:%u", file, line);
  else
    fprintf(f, "PTX line %u", ptx);
}

/* 1 when the instruction at PTX line n is an asynchronous bulk or TMA copy. */
static int is_async_copy(const program *P, uint32_t n) {
  for (uint32_t i = 0; P && i < P->nlines; i++)
    if (P->lines[i].ptx_line == n && P->lines[i].text)
      return !strncmp(P->lines[i].text, "cp.async.bulk", 13) ||
             !strncmp(P->lines[i].text, "cp.reduce.async.bulk", 20);
  return 0;
}

/* 1 when the instruction at PTX line n is a (non-bulk) cp.async copy. */
static int is_cp_async(const program *P, uint32_t n) {
  for (uint32_t i = 0; P && i < P->nlines; i++)
    if (P->lines[i].ptx_line == n && P->lines[i].text)
      return !strncmp(P->lines[i].text, "cp.async.ca.", 12) || !strncmp(P->lines[i].text, "cp.async.cg.", 12);
  return 0;
}

/* A hint under a hazard one of whose accesses is an asynchronous copy:
 * what orders it (src/async/pipeline.c, check/race.c race_cp_wait). */
static void async_note(FILE *f, const program *P, const smemu_hazard *h) {
  if (is_cp_async(P, h->first_ptx_line) || is_cp_async(P, h->second_ptx_line)) {
    fprintf(
        f,
        "    (the write is a cp.async copy: its bytes land at any time until the issuing thread's "
        "cp.async.wait_group / wait_all, or the phase its cp.async.mbarrier.arrive arrives on, completes)\n");
    return;
  }
  int first = is_async_copy(P, h->first_ptx_line), second = is_async_copy(P, h->second_ptx_line);
  if (!first && !second) return;
  const char *acc = first ? h->first_access : h->second_access;
  if (!strcmp(acc, "Write"))
    fprintf(
        f, "    (the write is an asynchronous copy into shared memory: read its bytes only after a completed "
           "mbarrier wait on the barrier it completes on)\n");
  else
    fprintf(
        f,
        "    (the read is an asynchronous copy out of shared memory: each thread that writes its bytes needs "
        "fence.proxy.async before the copy is issued, and may write them again only after "
        "cp.async.bulk.wait_group.read)\n");
}

int smemu_write_race_report(const smemu_ctx *ctx, FILE *f, int detailed) {
  if (!ctx || !f) return -1;
  int n = smemu_hazard_count(ctx), errors = 0, warnings = 0;
  char kname[512];
  smemu_demangle(ctx->last.kernel ? ctx->last.kernel : "?", kname, sizeof kname);
  for (int i = 0; i < n; i++) {
    const smemu_hazard *h = &ctx->hz[i];
    const char *sev = h->error ? "Error" : "Warning";
    h->error ? errors++ : warnings++;
    if (!detailed) {
      fprintf(f, "%s: Race reported between %s access at ", sev, h->first_access);
      loc(f, h->first_file, h->first_line, h->first_ptx_line);
      fprintf(f, "\n    and %s access at ", h->second_access);
      loc(f, h->second_file, h->second_line, h->second_ptx_line);
      fprintf(f, " [%" PRIu64 " hazard%s]%s%s\n", h->count, h->count == 1 ? "" : "s",
              h->global ? " in global memory" : "",
              h->error ? "" : " (threads of one warp, no __syncwarp between them)");
      async_note(f, ctx->last_prog, h);
      if (h->cluster)
        fprintf(f,
                "    between block ranks %u and %u of a cluster (distributed shared memory: order the "
                "accesses with "
                "barrier.cluster or an mbarrier)\n",
                h->first_rank, h->second_rank);
    } else {
      fprintf(f, "%s: Potential %s hazard detected at __%s__ 0x%" PRIx64, sev, h->type,
              h->global ? "global" : "shared", h->address);
      if (h->variable) {
        char vn[512];
        smemu_demangle(h->variable, vn, sizeof vn);
        fprintf(f, " (%s + %" PRIu64 ")", vn, h->var_offset);
      }
      fprintf(f, " in block (%u,%u,%u):\n", h->block[0], h->block[1], h->block[2]);
      char r1[32] = "", r2[32] = "";
      if (h->cluster) {
        snprintf(r1, sizeof r1, " (block rank %u)", h->first_rank);
        snprintf(r2, sizeof r2, " (block rank %u)", h->second_rank);
      }
      fprintf(f, "    %s Thread (%u,%u,%u)%s at ", h->first_access, h->first_thread[0], h->first_thread[1],
              h->first_thread[2], r1);
      loc(f, h->first_file, h->first_line, h->first_ptx_line);
      fprintf(f, "\n    %s Thread (%u,%u,%u)%s at ", h->second_access, h->second_thread[0],
              h->second_thread[1], h->second_thread[2], r2);
      loc(f, h->second_file, h->second_line, h->second_ptx_line);
      fprintf(f, "\n    current value 0x%02" PRIx64 " (%" PRIu64 " such hazards in %s)\n",
              h->first_value | h->second_value, h->count, kname);
    }
  }
  fprintf(f, "RACECHECK SUMMARY: %d hazard%s displayed (%d error%s, %d warning%s)\n", n, n == 1 ? "" : "s",
          errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  int ns = smemu_sync_error_count(ctx);
  for (int i = 0; i < ns; i++) {
    const smemu_sync_error *s = &ctx->sy[i];
    static const struct {
      const char *k, *msg;
    } text[] = {
        {"divergent-warp", "Barrier error detected. Divergent thread(s) in warp."},
        {"divergent-block", "Barrier error detected. Divergent thread(s) in block."},
        {"warp-sync-mask",
         "Barrier error detected. Invalid arguments. (a .sync membermask without the calling thread)"},
        {"barrier-count", "Barrier error detected. The thread count of the barrier is not a multiple of 32."},
        {"uninitialized-read", "Uninitialized __shared__ memory read."},
        {"wgmma-early-access",
         "Warpgroup MMA error: a register of a wgmma.mma_async (accumulator or A fragment) "
         "accessed before the wgmma.wait_group that completes it (undefined in PTX; ptxas "
         "waits there: C7517)."}};
    const char *msg = s->kind;
    for (size_t k = 0; k < sizeof text / sizeof *text; k++)
      if (!strcmp(text[k].k, s->kind)) msg = text[k].msg;
    fprintf(f, "Error: %s\n    at ", msg);
    loc(f, s->file, s->line, s->ptx_line);
    fprintf(f, " by thread (%u,%u,%u) in block (%u,%u,%u) [%" PRIu64 " thread%s]\n", s->thread[0],
            s->thread[1], s->thread[2], s->block[0], s->block[1], s->block[2], s->count,
            s->count == 1 ? "" : "s");
  }
  int ninit = 0;
  for (int i = 0; i < ns; i++) ninit += !strcmp(ctx->sy[i].kind, "uninitialized-read");
  if (ns - ninit) fprintf(f, "SYNCCHECK SUMMARY: %d error%s\n", ns - ninit, ns - ninit == 1 ? "" : "s");
  if (ninit) fprintf(f, "INITCHECK SUMMARY: %d error%s\n", ninit, ninit == 1 ? "" : "s");
  return 0;
}

int smemu_write_race_json(const smemu_ctx *ctx, FILE *f) {
  if (!ctx || !f) return -1;
  int n = smemu_hazard_count(ctx);
  fprintf(f, "\"hazards\": [");
  for (int i = 0; i < n; i++) {
    const smemu_hazard *h = &ctx->hz[i];
    fprintf(f,
            "%s{\"type\": \"%s\", \"severity\": \"%s\", \"space\": \"%s\", \"first\": {\"access\": \"%s\", "
            "\"file\": ",
            i ? ", " : "", h->type, h->error ? "error" : "warning", h->global ? "global" : "shared",
            h->first_access);
    smemu_json_string(f, h->first_file);
    fprintf(f,
            ", \"line\": %u, \"ptx_line\": %u}, \"second\": {\"access\": \"%s\", \"file\": ", h->first_line,
            h->first_ptx_line, h->second_access);
    smemu_json_string(f, h->second_file);
    fprintf(f,
            ", \"line\": %u, \"ptx_line\": %u}, \"count\": %" PRIu64 ", \"address\": %" PRIu64
            ", \"variable\": ",
            h->second_line, h->second_ptx_line, h->count, h->address);
    smemu_json_string(f, h->variable);
    fprintf(f,
            ", \"offset\": %" PRIu64 ", \"block\": [%u, %u, %u], \"first_thread\": [%u, %u, %u], "
            "\"second_thread\": [%u, %u, %u]}",
            h->var_offset, h->block[0], h->block[1], h->block[2], h->first_thread[0], h->first_thread[1],
            h->first_thread[2], h->second_thread[0], h->second_thread[1], h->second_thread[2]);
  }
  fprintf(f, "], \"barrier_errors\": [");
  int ns = smemu_sync_error_count(ctx);
  for (int i = 0; i < ns; i++) {
    const smemu_sync_error *s = &ctx->sy[i];
    fprintf(f, "%s{\"kind\": \"%s\", \"file\": ", i ? ", " : "", s->kind);
    smemu_json_string(f, s->file);
    fprintf(f,
            ", \"line\": %u, \"ptx_line\": %u, \"count\": %" PRIu64
            ", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]}",
            s->line, s->ptx_line, s->count, s->block[0], s->block[1], s->block[2], s->thread[0], s->thread[1],
            s->thread[2]);
  }
  fprintf(f, "]");
  return 0;
}
