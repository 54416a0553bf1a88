/* pipeline_report.c: the async pipeline of the last launch in text
 * (`smemu exec --report pipeline`, `smemu run --report pipeline`) and JSON:
 * the bulk and TMA copies by kind, the stages (the mbarriers copies
 * complete on) with their phases, copies, bytes, waits and failed polls,
 * the most copies and bytes in flight in one block and the most bulk
 * groups outstanding. The figures come from src/async/pipeline.c. */
#include "api/internal.h"
#include "async/async.h"
#include "exec/hooks.h"
#include <inttypes.h>
#include <stdio.h>

static const char *const kind_names[PIPE_KINDS] = {"bulk copies global->shared", "bulk copies shared->global",
                                                   "tensor loads (TMA)", "tensor stores (TMA)",
                                                   "bulk reductions"};

/* "bar" or "bar + 8" for the shared variable holding offset a. */
static void var_name(const program *P, uint32_t a, char *buf, size_t n) {
  const placed_var *best = NULL;
  for (uint32_t i = 0; i < P->nvars; i++) {
    const placed_var *v = &P->vars[i];
    if (v->space == PTX_SPACE_SHARED && a >= v->addr && (v->dynamic || a < v->addr + v->size))
      if (!best || v->addr > best->addr) best = v;
  }
  if (!best)
    snprintf(buf, n, "?");
  else if (a == best->addr)
    snprintf(buf, n, "%s", best->name);
  else
    snprintf(buf, n, "%s + %" PRIu64, best->name, (uint64_t)(a - best->addr));
}

static const pipe_stats *last_pipe(const smemu_ctx *ctx) {
  return ctx && ctx->last_an && ctx->last_prog ? ctx->last_an->pipe : NULL;
}

int smemu_write_pipeline_report(const smemu_ctx *ctx, FILE *f) {
  const pipe_stats *p = last_pipe(ctx);
  if (!p || !f) return -1;
  const program *P = ctx->last_prog;
  char name[512];
  smemu_demangle(P->name, name, sizeof name);
  int lines = 1;
  fprintf(f, "== async pipeline: %s\n", name);
  uint64_t total = 0;
  for (int k = 0; k < PIPE_KINDS; k++) total += p->copies[k];
  if (!total && !p->nbars) {
    fprintf(f, "  no mbarrier, bulk copy or TMA copy\n");
    return lines + 1;
  }
  for (int k = 0; k < PIPE_KINDS; k++)
    if (p->copies[k]) {
      fprintf(f, "  %-28s %10" PRIu64 " %-6s %12" PRIu64 " bytes\n", kind_names[k], p->copies[k],
              p->copies[k] == 1 ? "copy" : "copies", p->bytes[k]);
      lines++;
    }
  uint32_t stages = 0;
  for (uint32_t i = 0; i < p->nbars; i++) stages += p->bars[i].copies > 0;
  fprintf(f, "  stages: %u mbarrier%s receiving copies, %u mbarrier%s in all%s\n", stages,
          stages == 1 ? "" : "s", p->nbars + p->more_bars, p->nbars + p->more_bars == 1 ? "" : "s",
          p->more_bars ? " (the first 64 listed)" : "");
  lines++;
  for (uint32_t i = 0; i < p->nbars; i++) {
    const pipe_bar *b = &p->bars[i];
    char v[128];
    var_name(P, b->addr, v, sizeof v);
    fprintf(f,
            "    mbarrier at shared 0x%x (%s): count %u, %" PRIu64 " init%s, %" PRIu64
            " phase%s completed, %" PRIu64 " cop%s, %" PRIu64 " bytes; threads: %" PRIu64
            " wait%s done, %" PRIu64 " failed poll%s\n",
            b->addr, v, b->expected, b->inits, b->inits == 1 ? "" : "s", b->phases, b->phases == 1 ? "" : "s",
            b->copies, b->copies == 1 ? "y" : "ies", b->bytes, b->waits, b->waits == 1 ? "" : "s", b->spins,
            b->spins == 1 ? "" : "s");
    lines++;
  }
  fprintf(f,
          "  in flight (one block): at most %u cop%s, %" PRIu64
          " bytes landed in barrier phases not yet completed\n",
          p->max_copies, p->max_copies == 1 ? "y" : "ies", p->max_bytes);
  fprintf(f,
          "  bulk groups: %" PRIu64 " commit%s, %" PRIu64
          " wait%s, at most %u outstanding (one block); %" PRIu64 " fence.proxy.async\n",
          p->commits, p->commits == 1 ? "" : "s", p->group_waits, p->group_waits == 1 ? "" : "s",
          p->max_groups, p->fences);
  return lines + 2;
}

int smemu_write_pipeline_json(const smemu_ctx *ctx, FILE *f) {
  const pipe_stats *p = last_pipe(ctx);
  if (!p || !f) return -1;
  static const char *const keys[PIPE_KINDS] = {"bulk_loads", "bulk_stores", "tensor_loads", "tensor_stores",
                                               "reductions"};
  fprintf(f, "\"pipeline\": {");
  for (int k = 0; k < PIPE_KINDS; k++)
    fprintf(f, "\"%s\": %" PRIu64 ", \"%s_bytes\": %" PRIu64 ", ", keys[k], p->copies[k], keys[k],
            p->bytes[k]);
  fprintf(f,
          "\"max_copies_in_flight\": %u, \"max_bytes_in_flight\": %" PRIu64 ", \"max_bulk_groups\": %u, "
          "\"commits\": %" PRIu64 ", \"fences\": %" PRIu64 ", \"mbarriers\": [",
          p->max_copies, p->max_bytes, p->max_groups, p->commits, p->fences);
  for (uint32_t i = 0; i < p->nbars; i++) {
    const pipe_bar *b = &p->bars[i];
    fprintf(f,
            "%s{\"shared\": %u, \"count\": %u, \"inits\": %" PRIu64 ", \"phases\": %" PRIu64
            ", \"copies\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"waits\": %" PRIu64
            ", \"failed_polls\": %" PRIu64 "}",
            i ? ", " : "", b->addr, b->expected, b->inits, b->phases, b->copies, b->bytes, b->waits,
            b->spins);
  }
  fprintf(f, "]}");
  return 0;
}
