/* report.c: what `smemu run --report`, `--check` and `--json` show after
 * the program ends. Every finished launch is noted: per kernel the
 * launches, warp and thread instructions, time and shared-memory bank
 * figures, and the bank report of its launch with the most conflicts; the
 * checkers' findings (racecheck-like hazards, barrier misuse) of each
 * launch that has any; for JSON also each launch. Written at exit to
 * SMEMU_REPORT_FILE (smemu run prints it after the program's own output)
 * or stderr, and SMEMU_JSON. */
#include "rt.h"
#include <stdlib.h>
#include <string.h>

#define MAX_JSON_LAUNCHES 100000
#define MAX_CHECK_REPORTS 100 /* launches whose findings are printed in full */

typedef struct kstat {
  char *name; /* mangled */
  uint64_t launches, failed;
  uint64_t warp, thread; /* instructions */
  double seconds;
  int have_banks;
  int sass;                /* counted per SASS instruction (smemu_last_counting) */
  smemu_bank_counts banks; /* summed over launches */
  uint64_t contention;     /* of the atomic requests, CAS retries other warps caused */
  uint64_t worst;          /* conflicts of the worst launch */
  char *worst_report;      /* its bank report */
  char *pipe_report;       /* the async pipeline of its last launch */
} kstat;

/* " (of which contention: N)" when other warps made N CAS retries, else "". */
static const char *contention_text(uint64_t n) {
  static char buf[64];
  if (!n) return "";
  snprintf(buf, sizeof buf, " (of which contention: %llu)", (unsigned long long)n);
  return buf;
}

static kstat *stats;
static int nstats;
static char *json_buf; /* launch objects, comma-separated */
static size_t json_len;
static FILE *json_mem;
static uint64_t json_count, total_launches;
static char *checks_buf; /* the checkers' reports of launches with findings */
static size_t checks_len;
static FILE *checks_mem;
static uint64_t checked, check_reports, total_hazards, total_sync, total_init, total_uninit;
static uint64_t errors; /* failed launches, hazard errors, barrier errors: --error-exitcode */

static kstat *stat_for(const char *name) {
  for (int i = 0; i < nstats; i++)
    if (!strcmp(stats[i].name, name)) return &stats[i];
  kstat *s = realloc(stats, (size_t)(nstats + 1) * sizeof *s);
  if (!s) return NULL;
  stats = s;
  s = &stats[nstats];
  memset(s, 0, sizeof *s);
  s->name = strdup(name);
  if (!s->name) return NULL;
  nstats++;
  return s;
}

static char *capture_bank_report(smemu_ctx *ctx) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  smemu_write_bank_report(ctx, f, 10);
  fclose(f);
  return buf;
}

/* Keep the checkers' report of the last launch when it found something. */
static void note_checks(smemu_ctx *ctx, const smemu_launch_stats *st, smemu_status s) {
  int nh = smemu_hazard_count(ctx), ns = smemu_sync_error_count(ctx);
  uint64_t nu = smemu_uninit_total(ctx);
  checked++;
  total_hazards += nh > 0 ? (uint64_t)nh : 0;
  /* the sync checker's list also carries the shared init check's findings:
   * count each class under its own name */
  for (int i = 0; i < ns; i++) {
    const smemu_sync_error *e = smemu_sync_error_get(ctx, i);
    if (e && !strcmp(e->kind, "uninitialized-read"))
      total_init++;
    else
      total_sync++;
  }
  total_uninit += nu; /* an error of sanitizer.c's (rt_san_extra_errors) */
  errors += ns > 0 ? (uint64_t)ns : 0;
  uint64_t race_errors = 0, sync_threads = 0, init_threads = 0;
  for (int i = 0; i < nh; i++) race_errors += smemu_hazard_get(ctx, i)->error != 0;
  errors += race_errors;
  for (int i = 0; i < ns; i++) {
    const smemu_sync_error *e = smemu_sync_error_get(ctx, i);
    if (e && !strcmp(e->kind, "uninitialized-read"))
      init_threads += e->count;
    else if (e)
      sync_threads += e->count;
  }
  rt_san_checks(race_errors, sync_threads, init_threads, s != SMEMU_OK);
  if (nh <= 0 && ns <= 0 && !nu) return;
  if (check_reports++ >= MAX_CHECK_REPORTS) return;
  if (!checks_mem && !(checks_mem = open_memstream(&checks_buf, &checks_len))) return;
  char name[1024];
  smemu_demangle(st->kernel, name, sizeof name);
  fprintf(checks_mem, "== checks of %s, grid (%u,%u,%u) block (%u,%u,%u):\n", name, st->grid[0], st->grid[1],
          st->grid[2], st->block[0], st->block[1], st->block[2]);
  smemu_write_race_report(ctx, checks_mem, rt.report_hazards);
  smemu_write_uninit_report(ctx, checks_mem);
}

void rt_report_launch(const rt_func *fn, smemu_status s) {
  int checks = (rt.analyses & RT_CHECKS) != 0;
  if (rt.html_file) rt_html_launch(s);
  if (s != SMEMU_OK) errors++;
  if (!rt.report_banks && !rt.report_launches && !rt.report_pipeline && !rt.json_file && !checks) return;
  smemu_ctx *ctx = rt.ctx;
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  kstat *k = stat_for(fn->name);
  if (!k || !st) return;
  if (checks) note_checks(ctx, st, s);
  total_launches++;
  k->launches++;
  if (s != SMEMU_OK) k->failed++;
  k->warp += st->warp_instructions;
  k->thread += st->thread_instructions;
  k->seconds += st->seconds;
  k->contention += st->shared_contention;
  smemu_bank_counts bc;
  int banks = smemu_last_bank_counts(ctx, &bc) == SMEMU_OK;
  if (banks) {
    k->have_banks = 1;
    smemu_counting cn;
    k->sass = smemu_last_counting(ctx, &cn) == SMEMU_OK && cn.sass;
    uint64_t conf = 0;
    for (int i = 0; i < 3; i++) {
      k->banks.requests[i] += bc.requests[i];
      k->banks.wavefronts[i] += bc.wavefronts[i];
      k->banks.conflicts[i] += bc.conflicts[i];
      conf += bc.conflicts[i];
    }
    if (rt.report_banks && (!k->worst_report || conf > k->worst)) {
      free(k->worst_report);
      k->worst_report = capture_bank_report(ctx);
      k->worst = conf;
    }
  }
  if (rt.report_pipeline) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
      smemu_write_pipeline_report(ctx, m);
      fclose(m);
      free(k->pipe_report);
      k->pipe_report = buf;
    }
  }
  if (!rt.json_file || json_count >= MAX_JSON_LAUNCHES) return;
  if (!json_mem && !(json_mem = open_memstream(&json_buf, &json_len))) return;
  FILE *f = json_mem;
  fprintf(f, "%s\n    {", json_count++ ? "," : "");
  smemu_write_launch_json(ctx, f);
  fprintf(f, ", \"status\": ");
  smemu_json_string(f, smemu_status_name(s));
  fprintf(f, "}");
}

static void write_json(void) {
  FILE *f = fopen(rt.json_file, "w");
  if (!f) {
    rt_msg("cannot write %s", rt.json_file);
    return;
  }
  if (json_mem) {
    fclose(json_mem);
    json_mem = NULL;
  }
  fprintf(f, "{\"arch\": ");
  smemu_json_string(f, rt.arch.name);
  fprintf(f, ", \"launch_count\": %llu, \"launches\": [%s\n  ],\n  \"kernels\": [",
          (unsigned long long)total_launches, json_buf ? json_buf : "");
  for (int i = 0; i < nstats; i++) {
    kstat *k = &stats[i];
    char name[1024];
    smemu_demangle(k->name, name, sizeof name);
    fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
    smemu_json_string(f, k->name);
    fprintf(f, ", \"name\": ");
    smemu_json_string(f, name);
    fprintf(
        f,
        ", \"launches\": %llu, \"failed\": %llu, \"warp_instructions\": %llu, \"thread_instructions\": %llu, "
        "\"seconds\": %.6f",
        (unsigned long long)k->launches, (unsigned long long)k->failed, (unsigned long long)k->warp,
        (unsigned long long)k->thread, k->seconds);
    if (k->have_banks) {
      static const char *const what[3] = {"ld", "st", "atom"};
      for (int j = 0; j < 3; j++)
        fprintf(f,
                ", \"shared_%s_requests\": %llu, \"shared_%s_wavefronts\": %llu, "
                "\"shared_%s_bank_conflicts\": %llu",
                what[j], (unsigned long long)k->banks.requests[j], what[j],
                (unsigned long long)k->banks.wavefronts[j], what[j],
                (unsigned long long)k->banks.conflicts[j]);
      fprintf(f, ", \"shared_contention_requests\": %llu, \"counting\": \"%s\"",
              (unsigned long long)k->contention, k->sass ? "sass" : "ptx");
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]");
  rt_san_json(f);
  fprintf(f, "}\n");
  fclose(f);
}

static void write_text(FILE *f) {
  fprintf(f, "== smemu: %llu launch%s of %d kernel%s on %s (%s)\n", (unsigned long long)total_launches,
          total_launches == 1 ? "" : "es", nstats, nstats == 1 ? "" : "s", rt.arch.name, rt.arch.part);
  for (int i = 0; i < nstats; i++) {
    kstat *k = &stats[i];
    char name[1024];
    smemu_demangle(k->name, name, sizeof name);
    fprintf(f, "%s: %llu launch%s%s, %llu warp / %llu thread instructions, %.3f s\n", name,
            (unsigned long long)k->launches, k->launches == 1 ? "" : "es", k->failed ? " (some failed)" : "",
            (unsigned long long)k->warp, (unsigned long long)k->thread, k->seconds);
    if (k->have_banks)
      fprintf(f,
              "  shared memory: ld %llu requests %llu conflicts, st %llu requests %llu conflicts, "
              "atom %llu requests %llu conflicts%s (counting %s)\n",
              (unsigned long long)k->banks.requests[0], (unsigned long long)k->banks.conflicts[0],
              (unsigned long long)k->banks.requests[1], (unsigned long long)k->banks.conflicts[1],
              (unsigned long long)k->banks.requests[2], (unsigned long long)k->banks.conflicts[2],
              contention_text(k->contention), k->sass ? "sass" : "ptx");
  }
  for (int i = 0; rt.report_pipeline && i < nstats; i++)
    if (stats[i].pipe_report) {
      fputc('\n', f);
      if (stats[i].launches > 1)
        fprintf(f, "(the last of %llu launches)\n", (unsigned long long)stats[i].launches);
      fputs(stats[i].pipe_report, f);
    }
  if (!rt.report_banks) return;
  for (int i = 0; i < nstats; i++) {
    kstat *k = &stats[i];
    if (!k->worst_report) continue;
    char name[1024];
    smemu_demangle(k->name, name, sizeof name);
    fputc('\n', f);
    if (k->launches > 1)
      fprintf(f, "(the launch of %s with the most bank conflicts, of %llu)\n", name,
              (unsigned long long)k->launches);
    fputs(k->worst_report, f);
  }
}

/* The checkers' findings and their totals. */
static void write_checks(FILE *f) {
  if (checks_mem) {
    fclose(checks_mem);
    checks_mem = NULL;
  }
  if (checks_buf) fputs(checks_buf, f);
  if (check_reports > MAX_CHECK_REPORTS)
    fprintf(f, "(findings of %llu more launches not shown)\n",
            (unsigned long long)(check_reports - MAX_CHECK_REPORTS));
  fprintf(f, "== smemu checks: %llu launch%s checked, %llu hazard%s, %llu barrier error%s",
          (unsigned long long)checked, checked == 1 ? "" : "es", (unsigned long long)total_hazards,
          total_hazards == 1 ? "" : "s", (unsigned long long)total_sync, total_sync == 1 ? "" : "s");
  if (rt.analyses & SMEMU_ANALYZE_INIT)
    fprintf(f, ", %llu uninitialized shared read%s, %llu uninitialized global read%s",
            (unsigned long long)total_init, total_init == 1 ? "" : "s", (unsigned long long)total_uninit,
            total_uninit == 1 ? "" : "s");
  fputc('\n', f);
}

void rt_report_finish(void) {
  rt_san_finish(); /* the leak check, before the count */
  const char *ef = getenv("SMEMU_ERROR_FILE");
  FILE *e = ef && *ef ? fopen(ef, "w") : NULL;
  if (e) {
    /* smemu run reads it for --error-exitcode: with the sanitizer's records
     * that are no failed launch (uninitialised reads, leaks, failed calls) */
    fprintf(e, "%llu\n", (unsigned long long)(errors + rt_san_extra_errors()));
    fclose(e);
  }
  if (rt.json_file) write_json();
  if (rt.html_file) rt_html_finish();
  int checks = (rt.analyses & RT_CHECKS) != 0;
  if (!rt.report_banks && !rt.report_launches && !rt.report_pipeline && !checks && !rt_san_active()) return;
  FILE *f = rt.report_file ? fopen(rt.report_file, "a") : stderr;
  if (!f) {
    rt_msg("cannot write %s", rt.report_file);
    return;
  }
  if (checks) write_checks(f);
  rt_san_write(f);
  if (rt.report_banks || rt.report_launches || rt.report_pipeline) write_text(f);
  if (f != stderr)
    fclose(f);
  else
    fflush(f);
}
