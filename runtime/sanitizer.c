/* sanitizer.c: compute-sanitizer's behaviour and report shapes for
 * `smemu run`: kernel faults (memcheck), reads of unwritten global memory
 * (initcheck, SMEMU_CHECK=init), device allocations never freed
 * (SMEMU_LEAK_CHECK=full) and going on after a fault
 * (SMEMU_CONTINUE_AFTER_ERROR=1, compute-sanitizer's
 * --destroy-on-device-error kernel). Every record is counted; the first
 * SMEMU_PRINT_LIMIT (default 100, 0: all) are printed at exit in
 * compute-sanitizer's shape ("========= " lines, thread and block,
 * "Address", "ERROR SUMMARY: N errors") and written to the JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

#define PFX "========= "

static struct {
  int inited;
  int active;             /* a section is written at exit */
  uint64_t limit;         /* records printed (0: all) */
  uint64_t errors;        /* every error found */
  uint64_t faults;        /* of them kernel faults (failed launches) */
  uint64_t printed;       /* records kept in text / json */
  char *text;             /* the kept records, compute-sanitizer's shape */
  size_t text_len;
  FILE *text_mem;
  char *json;             /* the same records as JSON objects */
  size_t json_len;
  FILE *json_mem;
} san;

void rt_san_init(void) {
  const char *v;
  san.inited = 1;
  rt.san_continue = (v = getenv("SMEMU_CONTINUE_AFTER_ERROR")) && *v && strcmp(v, "0");
  rt.san_leaks = (v = getenv("SMEMU_LEAK_CHECK")) && !strcmp(v, "full");
  san.limit = (v = getenv("SMEMU_PRINT_LIMIT")) && *v ? strtoull(v, NULL, 0) : 100;
  /* memcheck's bounds checks are always on; naming the tool asks for its report */
  const char *c = getenv("SMEMU_CHECK");
  int memcheck = c && (strstr(c, "mem") || strstr(c, "all"));
  san.active = rt.san_continue || rt.san_leaks || (v && *v) || memcheck || (rt.analyses & SMEMU_ANALYZE_INIT);
}

int rt_san_active(void) { return san.active; }
uint64_t rt_san_errors(void) { return san.errors; }
uint64_t rt_san_extra_errors(void) { return san.errors - san.faults; }

/* Room for one more printed record: opens the streams. */
static int keep(void) {
  san.errors++;
  if (san.limit && san.printed >= san.limit) return 0;
  if (!san.text_mem && !(san.text_mem = open_memstream(&san.text, &san.text_len))) return 0;
  if (!san.json_mem && !(san.json_mem = open_memstream(&san.json, &san.json_len))) return 0;
  if (san.printed++) fputs(",", san.json_mem);
  fputs("\n    {", san.json_mem);
  return 1;
}

static void where(FILE *f, const char *kernel, const char *file, uint32_t line, uint32_t ptx_line) {
  char name[1024];
  smemu_demangle(kernel, name, sizeof name);
  if (file) fprintf(f, PFX "    at %s in %s:%u\n", name, file, line);
  else fprintf(f, PFX "    at %s in PTX line %u\n", name, ptx_line);
}

static void json_where(FILE *f, const char *kernel, const char *file, uint32_t line, uint32_t ptx_line,
                       const uint32_t block[3], const uint32_t thread[3]) {
  fprintf(f, ", \"kernel\": ");
  smemu_json_string(f, kernel);
  fprintf(f, ", \"file\": ");
  smemu_json_string(f, file);
  fprintf(f, ", \"line\": %u, \"ptx_line\": %u, \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]", line, ptx_line,
          block[0], block[1], block[2], thread[0], thread[1], thread[2]);
}

/* The reads of unwritten global memory of the launch that just ended. */
static void note_uninit(smemu_ctx *ctx, const char *kernel) {
  uint64_t total = smemu_uninit_total(ctx);
  int n = smemu_uninit_count(ctx);
  for (uint64_t i = 0; i < total; i++) {
    smemu_uninit_read r;
    if (i >= (uint64_t)n || smemu_uninit_get(ctx, (int)i, &r) != SMEMU_OK) {
      san.errors += total - i; /* counted, not kept */
      return;
    }
    if (!keep()) continue;
    FILE *f = san.text_mem;
    fprintf(f, PFX "Uninitialized __global__ memory read of size %u bytes\n", r.size);
    where(f, kernel, r.file, r.line, r.ptx_line);
    fprintf(f, PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", r.thread[0], r.thread[1], r.thread[2],
            r.block[0], r.block[1], r.block[2]);
    fprintf(f, PFX "    Address 0x%" PRIx64 "\n" PFX "\n", r.address);
    f = san.json_mem;
    fprintf(f, "\"kind\": \"uninitialized-global-read\", \"size\": %u, \"address\": %" PRIu64, r.size, r.address);
    json_where(f, kernel, r.file, r.line, r.ptx_line, r.block, r.thread);
    fputs("}", f);
  }
}

/* A launch's fault, in memcheck's words where it is a bad address. */
static void note_fault(smemu_ctx *ctx, const char *kernel, cudaError_t e) {
  smemu_fault ft;
  if (smemu_last_fault(ctx, &ft) != SMEMU_OK) return;
  san.faults++;
  if (!keep()) return;
  FILE *f = san.text_mem;
  char what[160];
  if (ft.access)
    snprintf(what, sizeof what, "Invalid __%s__ %s of size %u bytes", ft.space, ft.write ? "write" : "read", ft.size);
  else
    snprintf(what, sizeof what, "%s", cudaGetErrorString(e));
  fprintf(f, PFX "%s\n", what);
  where(f, kernel, ft.file, ft.line, ft.ptx_line);
  if (ft.has_thread)
    fprintf(f, PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", ft.thread[0], ft.thread[1], ft.thread[2],
            ft.block[0], ft.block[1], ft.block[2]);
  else
    fprintf(f, PFX "    by warp of thread (%u,%u,%u) in block (%u,%u,%u)\n", ft.thread[0], ft.thread[1],
            ft.thread[2], ft.block[0], ft.block[1], ft.block[2]);
  if (ft.access && ft.misaligned) {
    fprintf(f, PFX "    Address 0x%" PRIx64 " is misaligned\n", ft.address);
  } else if (ft.access) {
    fprintf(f, PFX "    Address 0x%" PRIx64 " is out of bounds\n", ft.address);
    if (ft.near_size) {
      if (ft.address >= ft.near_base + ft.near_size)
        fprintf(f, PFX "    and is %" PRIu64 " bytes after the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                       " bytes\n",
                ft.address - (ft.near_base + ft.near_size), ft.near_base, ft.near_size);
      else if (ft.address < ft.near_base)
        fprintf(f, PFX "    and is %" PRIu64 " bytes before the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                       " bytes\n",
                ft.near_base - ft.address, ft.near_base, ft.near_size);
    }
  }
  fputs(PFX "\n", f);
  f = san.json_mem;
  fprintf(f, "\"kind\": \"%s\", \"error\": ", !ft.access ? "kernel-fault" : ft.misaligned ? "misaligned" : "out-of-bounds");
  smemu_json_string(f, cudaGetErrorName(e));
  if (ft.access) {
    fprintf(f, ", \"access\": \"%s\", \"space\": \"%s\", \"size\": %u, \"address\": %" PRIu64,
            ft.write ? "write" : "read", ft.space, ft.size, ft.address);
  }
  json_where(f, kernel, ft.file, ft.line, ft.ptx_line, ft.block, ft.thread);
  fprintf(f, ", \"message\": ");
  smemu_json_string(f, ft.message);
  fputs("}", f);
}

void rt_san_launch(const rt_func *fn, smemu_status s, cudaError_t e) {
  if (!san.inited) rt_san_init();
  smemu_ctx *ctx = rt.ctx;
  if (!ctx) return;
  if (rt.analyses & SMEMU_ANALYZE_INIT) note_uninit(ctx, fn->name);
  if (s != SMEMU_OK && e != cudaSuccess && san.active) note_fault(ctx, fn->name, e);
}

/* "1,024": compute-sanitizer groups the leak sizes' digits. */
static void grouped(char *out, size_t n, uint64_t v) {
  char d[32];
  int k = snprintf(d, sizeof d, "%" PRIu64, v), o = 0;
  for (int i = 0; i < k && (size_t)o + 2 < n; i++) {
    out[o++] = d[i];
    if ((k - i - 1) % 3 == 0 && i < k - 1) out[o++] = ',';
  }
  out[o] = 0;
}

/* At exit, before the section is written: every device allocation still
 * live is a leak. */
static void leaks(void) {
  uint64_t bytes = 0, count = 0;
  for (size_t i = 0; i < rt.nallocs; i++) {
    const rt_alloc *a = &rt.allocs[i];
    if (a->kind != ALLOC_DEVICE) continue;
    bytes += a->size;
    count++;
    if (!keep()) continue;
    char g[40];
    grouped(g, sizeof g, a->size);
    fprintf(san.text_mem, PFX "Leaked %s bytes at 0x%" PRIxPTR "\n" PFX "\n", g, (uintptr_t)a->p);
    fprintf(san.json_mem, "\"kind\": \"leak\", \"size\": %zu, \"address\": %" PRIuPTR "}", a->size, (uintptr_t)a->p);
  }
  if (!san.text_mem && !(san.text_mem = open_memstream(&san.text, &san.text_len))) return;
  fprintf(san.text_mem, PFX "LEAK SUMMARY: %" PRIu64 " bytes leaked in %" PRIu64 " allocations\n", bytes, count);
}

static int finished;

void rt_san_finish(void) {
  if (finished++) return;
  if (!san.inited) rt_san_init();
  if (rt.san_leaks) leaks();
  if (san.text_mem) fclose(san.text_mem);
  if (san.json_mem) fclose(san.json_mem);
  san.text_mem = san.json_mem = NULL;
}

void rt_san_write(FILE *f) {
  rt_san_finish();
  if (!san.active) return;
  fputs(PFX "COMPUTE-SANITIZER (smemu)\n", f);
  if (san.text) fputs(san.text, f);
  if (san.limit && san.errors > san.printed)
    fprintf(f, PFX "(%" PRIu64 " more errors not printed: --print-limit %" PRIu64 ")\n", san.errors - san.printed,
            san.limit);
  fprintf(f, PFX "ERROR SUMMARY: %" PRIu64 " error%s\n", san.errors, san.errors == 1 ? "" : "s");
}

void rt_san_json(FILE *f) {
  rt_san_finish();
  if (!san.active) return;
  fprintf(f, ",\n  \"sanitizer\": {\"error_count\": %" PRIu64 ", \"print_limit\": %" PRIu64 ", \"errors\": [%s\n  ]}",
          san.errors, san.limit, san.json ? san.json : "");
}
