/* json.c: the last launch as one JSON object's members, from the report
 * writers' parts (strings through json_string.c). */
#include "report/arbit.h"
#include "smemu.h"
#include <stdio.h>

/* The members of the last launch's JSON object: kernel, name, grid, block,
 * shared bytes, instruction counts and time, then the bank figures and the
 * hazards where those analyses ran. */
int smemu_write_launch_json(const smemu_ctx *ctx, FILE *f) {
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  if (!st || !st->kernel || !f) return -1;
  char name[1024];
  smemu_demangle(st->kernel, name, sizeof name);
  fprintf(f, "\"kernel\": ");
  smemu_json_string(f, st->kernel);
  fprintf(f, ", \"name\": ");
  smemu_json_string(f, name);
  fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], ", st->grid[0], st->grid[1], st->grid[2],
          st->block[0], st->block[1], st->block[2]);
  fprintf(f, "\"shared_static_bytes\": %u, \"shared_dynamic_bytes\": %u, ", st->shared_static_bytes,
          st->shared_dynamic_bytes);
  fprintf(f, "\"warp_instructions\": %llu, \"thread_instructions\": %llu, \"seconds\": %.6f",
          (unsigned long long)st->warp_instructions, (unsigned long long)st->thread_instructions,
          st->seconds);
  fprintf(f, ", \"tier\": \"%s\", \"jit_seconds\": %.6f", st->tier ? st->tier : "interp", st->jit_seconds);
  fprintf(f, ", \"shared_contention_requests\": %llu", (unsigned long long)st->shared_contention);
  smemu_bank_counts bc;
  if (smemu_last_bank_counts(ctx, &bc) == SMEMU_OK) {
    smemu_counting cn;
    int sass = smemu_last_counting(ctx, &cn) == SMEMU_OK && cn.sass;
    fprintf(f, ", \"counting\": \"%s\"", sass ? "sass" : "ptx");
    if (sass)
      fprintf(f, ", \"counting_mapped\": %d, \"counting_fallback\": %d, \"counting_accesses\": %d",
              cn.agree + cn.set, cn.fallback, cn.accesses);
    fprintf(f, ", ");
    smemu_write_bank_json(ctx, f);
    fprintf(f, ", ");
    report_arbit_json(ctx, f);
  }
  fprintf(f, ", ");
  if (smemu_uninit_total(ctx)) {
    smemu_write_uninit_json(ctx, f);
    fprintf(f, ", ");
  }
  if (smemu_write_pipeline_json(ctx, f) == 0) fprintf(f, ", ");
  return smemu_write_race_json(ctx, f);
}
