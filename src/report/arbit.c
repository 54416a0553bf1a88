/* arbit.c: the arbitration estimate of the last launch (model/arbit.h) as
 * a JSON member and a line of the bank report: what the launch's shape and
 * the kernel's code say Nsight Compute may count beyond the wavefronts
 * and conflicts the addresses give. smemu's counts stay those of the
 * addresses; this range is apart and labelled. */
#include "report/arbit.h"
#include "api/internal.h"
#include "exec/hooks.h"
#include "model/arbit.h"
#include <inttypes.h>
#include <string.h>

/* A global load that goes through L1's data banks: the default caching
 * (.ca), .nc and ldu; .cg and strong (volatile, relaxed, acquire) loads
 * are served from L2, and the recordings show those add nothing. */
static int cached_load(const program *P, uint32_t pc) {
  const insn *in = &P->code[pc];
  if (pc >= P->nlines || !P->lines[pc].text) return 0;
  const char *t = P->lines[pc].text;
  int cp = in->op == OP_CP && strstr(t, "cp.async.ca");
  if (!cp && ((in->op != OP_LD && in->op != OP_LDU) || in->space != PTX_SPACE_GLOBAL)) return 0;
  return !strstr(t, ".cg") && !strstr(t, ".cv") && !strstr(t, ".volatile") && !strstr(t, ".relaxed") &&
         !strstr(t, ".acquire");
}

static int shared_store(const insn *in) {
  return in->op == OP_ST && (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_GENERIC);
}

/* The code's part: L1-cached global loads, and whether one shares a loop
 * (a backward branch's range) with a shared store. */
static void code_features(const program *P, arbit_in *in) {
  for (uint32_t pc = 0; pc < P->ncode && !in->cached_loads; pc++) in->cached_loads = cached_load(P, pc);
  for (uint32_t b = 0; b < P->ncode && in->cached_loads && !in->interleaved; b++) {
    const insn *br = &P->code[b];
    if (br->op != OP_BRA || br->target > b) continue;
    int ld = 0, st = 0;
    for (uint32_t pc = br->target; pc <= b; pc++) {
      ld |= cached_load(P, pc);
      st |= shared_store(&P->code[pc]);
    }
    in->interleaved = ld && st;
  }
}

int report_arbit(const smemu_ctx *ctx, arbit_est *e) {
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  smemu_bank_counts c;
  if (!st || !ctx->last_prog || smemu_last_bank_counts(ctx, &c) != SMEMU_OK) return -1;
  arbit_in in = {0};
  in.grid_blocks = (uint64_t)st->grid[0] * st->grid[1] * st->grid[2];
  in.block_threads = st->block[0] * st->block[1] * st->block[2];
  in.smem_bytes = st->shared_static_bytes + st->shared_dynamic_bytes;
  memcpy(in.requests, c.requests, sizeof in.requests);
  memcpy(in.wavefronts, c.wavefronts, sizeof in.wavefronts);
  code_features(ctx->last_prog, &in);
  arbit_estimate(ctx->arch, &in, e);
  return 0;
}

int report_arbit_json(const smemu_ctx *ctx, FILE *f) {
  arbit_est e;
  if (report_arbit(ctx, &e)) return -1;
  fprintf(f, "\"shared_arbitration_est\": {\"case\": ");
  smemu_json_string(f, arbit_case_text(e.why));
  fprintf(f, ", \"warps_per_sm\": %u", e.warps_per_sm);
  static const char *const op[3] = {"ld", "st", "atom"};
  for (int k = 0; k < 3; k++) fprintf(f, ", \"%s\": [%" PRIu64 ", %" PRIu64 "]", op[k], e.lo[k], e.hi[k]);
  fprintf(f, "}");
  return 0;
}

void report_arbit_text(const smemu_ctx *ctx, FILE *f) {
  arbit_est e;
  if (report_arbit(ctx, &e)) return;
  static const char *const label[3] = {"loads", "stores", "atomics"};
  int any = 0;
  for (int k = 0; k < 3; k++) any |= e.hi[k] != 0;
  if (!any) {
    fprintf(f, "  arbitration estimate: none (%s, %u resident warps per SM)\n", arbit_case_text(e.why),
            e.warps_per_sm);
    return;
  }
  fprintf(f, "  arbitration estimate (not from addresses; %s, %u resident warps per SM; fitted to an H200):",
          arbit_case_text(e.why), e.warps_per_sm);
  for (int k = 0, n = 0; k < 3; k++)
    if (e.hi[k]) fprintf(f, "%s %s +%" PRIu64 "..%" PRIu64, n++ ? "," : "", label[k], e.lo[k], e.hi[k]);
  fprintf(f, " wavefronts and as many conflicts\n");
}
