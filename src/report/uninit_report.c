/* uninit_report.c: the global-memory initialisation check's findings of
 * the last launch, aggregated per source line as the shared-memory init
 * report is (one line per instruction: its first thread, block, address and
 * size, and how many reads it made of unwritten bytes), as text and JSON. */
#include "api/internal.h"
#include "check/ginit.h"
#include "exec/hooks.h"
#include <inttypes.h>

/* The kept record of instruction pc with the lowest block and thread. */
static const ginit_rec *first_of(const ginit_an *a, uint32_t pc) {
  for (uint32_t i = 0; i < a->n; i++)
    if (a->rec[i].pc == pc) return &a->rec[i];
  return NULL;
}

static const ginit_an *gin_of(const smemu_ctx *ctx) {
  return ctx && ctx->last_an && ctx->last_prog ? ctx->last_an->gin : NULL;
}

int smemu_write_uninit_report(const smemu_ctx *ctx, FILE *f) {
  const ginit_an *a = gin_of(ctx);
  if (!f) return -1;
  if (!a || !a->total) return 0;
  const program *P = ctx->last_prog;
  uint32_t bx = ctx->last.block[0] ? ctx->last.block[0] : 1, by = ctx->last.block[1] ? ctx->last.block[1] : 1;
  int lines = 0;
  for (uint32_t pc = 0; pc < a->ncode; pc++) {
    if (!a->per_pc[pc]) continue;
    const src_line *s = &P->lines[pc];
    const ginit_rec *r = first_of(a, pc);
    lines++;
    fprintf(f, "Error: Uninitialized __global__ memory read");
    if (r) fprintf(f, " of size %u bytes", r->size);
    fprintf(f, "\n    at ");
    if (s->file != ~0u)
      fprintf(f, "%s:%u", P->files[s->file], s->line);
    else
      fprintf(f, "PTX line %u", s->ptx_line);
    if (r)
      fprintf(f, " by thread (%u,%u,%u) in block (%u,%u,%u), address 0x%" PRIx64, r->tid % bx,
              r->tid / bx % by, r->tid / (bx * by), r->block[0], r->block[1], r->block[2], r->addr);
    fprintf(f, " [%" PRIu64 " read%s]\n", a->per_pc[pc], a->per_pc[pc] == 1 ? "" : "s");
  }
  fprintf(f, "INITCHECK SUMMARY: %" PRIu64 " uninitialized __global__ read%s at %d line%s\n", a->total,
          a->total == 1 ? "" : "s", lines, lines == 1 ? "" : "s");
  return lines;
}

int smemu_write_uninit_json(const smemu_ctx *ctx, FILE *f) {
  const ginit_an *a = gin_of(ctx);
  if (!f) return -1;
  fprintf(f, "\"uninitialized_global_reads\": [");
  int k = 0;
  for (uint32_t pc = 0; a && pc < a->ncode; pc++) {
    if (!a->per_pc[pc]) continue;
    const program *P = ctx->last_prog;
    const src_line *s = &P->lines[pc];
    const ginit_rec *r = first_of(a, pc);
    uint32_t bx = ctx->last.block[0] ? ctx->last.block[0] : 1,
             by = ctx->last.block[1] ? ctx->last.block[1] : 1;
    uint32_t t = r ? r->tid : 0;
    fprintf(f, "%s{\"file\": ", k++ ? ", " : "");
    smemu_json_string(f, s->file != ~0u ? P->files[s->file] : NULL);
    fprintf(f,
            ", \"line\": %u, \"ptx_line\": %u, \"count\": %" PRIu64 ", \"size\": %u, \"address\": %" PRIu64
            ", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]}",
            s->file != ~0u ? s->line : s->ptx_line, s->ptx_line, a->per_pc[pc], r ? r->size : 0,
            r ? r->addr : 0, r ? r->block[0] : 0, r ? r->block[1] : 0, r ? r->block[2] : 0, t % bx,
            t / bx % by, t / (bx * by));
  }
  fprintf(f, "]");
  return k;
}
