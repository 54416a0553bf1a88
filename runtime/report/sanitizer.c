/* sanitizer.c: compute-sanitizer's behaviour and report shapes for
 * `smemu run`: kernel faults (memcheck), reads of unwritten global memory
 * (initcheck, SMEMU_CHECK=init), device allocations never freed
 * (SMEMU_LEAK_CHECK=full) and going on after a fault
 * (SMEMU_CONTINUE_AFTER_ERROR=1, compute-sanitizer's
 * --destroy-on-device-error kernel). Every record is counted; the first
 * SMEMU_PRINT_LIMIT (default 100, 0: all) are printed at exit in
 * compute-sanitizer's shape ("========= " lines, thread and block,
 * address, "ERROR SUMMARY: N errors") and written to the JSON. What the
 * tool does, as recorded on an H100 (tests/hw/sanitizer): memcheck reports
 * every thread that made a bad address, ends the context on the first
 * (later calls fail with cudaErrorLaunchFailure, each failed call is an
 * error of its own) unless --destroy-on-device-error kernel; initcheck
 * reports each unwritten read and each 32-byte sector of a copy's source
 * nothing wrote, and no API errors; leaks are every allocation (device,
 * managed, pinned, registered) not freed, cudaDeviceReset or not. */
#include "report/grouped.h"
#include "rt.h"
#include <dlfcn.h>
#include <execinfo.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PFX "========= "

static struct {
  int inited;
  int active;       /* a section is written at exit */
  uint64_t limit;   /* records printed (0: all) */
  uint64_t errors;  /* every error found */
  uint64_t faults;  /* of them kernel faults (failed launches) */
  uint64_t printed; /* records kept in text / json */
  uint64_t checks;  /* the other checks' errors (rt_san_checks), in the count only */
  char *text;       /* the kept records, compute-sanitizer's shape */
  size_t text_len;
  FILE *text_mem;
  char *json; /* the same records as JSON objects */
  size_t json_len;
  FILE *json_mem;
  rt_alloc *reset_leaks; /* allocations cudaDeviceReset dropped (still leaks) */
  size_t nreset_leaks;
} san;

void rt_san_init(void) {
  const char *v;
  san.inited = 1;
  rt.san_continue = (v = getenv("SMEMU_CONTINUE_AFTER_ERROR")) && *v && strcmp(v, "0");
  rt.san_leaks = (v = getenv("SMEMU_LEAK_CHECK")) && !strcmp(v, "full");
  san.limit = (v = getenv("SMEMU_PRINT_LIMIT")) && *v ? strtoull(v, NULL, 0) : 100;
  /* memcheck (compute-sanitizer's default tool): named ("memcheck",
   * "memory"; not by "all", which keeps CUDA's own errors), or implied by its
   * options when initcheck is not asked for */
  const char *c = getenv("SMEMU_CHECK");
  int init = (rt.analyses & SMEMU_ANALYZE_INIT) != 0;
  rt.san_memcheck = (c && strstr(c, "mem")) || rt.san_leaks || rt.san_continue || (!init && v && *v);
  if (rt.san_memcheck) rt.analyses |= SMEMU_ANALYZE_MEMCHECK;
  /* synccheck prints ERROR SUMMARY too; racecheck alone does not (recorded) */
  san.active = rt.san_memcheck || init || rt.san_continue || (rt.analyses & SMEMU_ANALYZE_SYNC);
}

void rt_san_checks(uint64_t races, uint64_t sync_threads, uint64_t init_threads, int failed) {
  if (!san.inited) rt_san_init();
  /* a failed launch is memcheck's record when memcheck is on; under
   * initcheck alone the hardware's fault is no error (recorded:
   * mem_faults.initcheck_kernel); under synccheck or racecheck it is,
   * once, when the launch reported nothing else (a misused barrier that
   * also ends the launch is one error: illegal_syncwarp) */
  uint64_t found = races + sync_threads + init_threads;
  int fault =
      failed && !found && !rt.san_memcheck && (rt.analyses & (SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_RACES));
  san.checks += found + (fault ? 1 : 0);
}

int rt_san_active(void) { return san.active; }
uint64_t rt_san_errors(void) { return san.errors + san.checks; }
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
  if (file)
    fprintf(f, PFX "    at %s in %s:%u\n", name, file, line);
  else
    fprintf(f, PFX "    at %s in PTX line %u\n", name, ptx_line);
}

static void json_where(FILE *f, const char *kernel, const char *file, uint32_t line, uint32_t ptx_line,
                       const uint32_t block[3], const uint32_t thread[3]) {
  fprintf(f, ", \"kernel\": ");
  smemu_json_string(f, kernel);
  fprintf(f, ", \"file\": ");
  smemu_json_string(f, file);
  fprintf(f, ", \"line\": %u, \"ptx_line\": %u, \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u]", line,
          ptx_line, block[0], block[1], block[2], thread[0], thread[1], thread[2]);
}

/* The device function of a record and its call sites (the text's "Device
 * Frame" lines), when the line is not the kernel's own. */
static void json_frames(FILE *f, const char *func, const smemu_frame *fr, uint32_t n) {
  if (!func && !n) return;
  fprintf(f, ", \"function\": ");
  smemu_json_string(f, func);
  fprintf(f, ", \"frames\": [");
  for (uint32_t i = 0; i < n && i < SMEMU_MAX_FRAMES; i++) {
    fprintf(f, "%s{\"function\": ", i ? ", " : "");
    smemu_json_string(f, fr[i].func);
    fprintf(f, ", \"file\": ");
    smemu_json_string(f, fr[i].file);
    fprintf(f, ", \"line\": %u}", fr[i].line);
  }
  fputs("]", f);
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
    where(f, r.func ? r.func : kernel, r.file, r.line, r.ptx_line);
    fprintf(f, PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", r.thread[0], r.thread[1], r.thread[2],
            r.block[0], r.block[1], r.block[2]);
    fprintf(f, PFX "    Address 0x%" PRIx64 "\n", r.address);
    smemu_write_frames(r.frames, r.nframes, f);
    fputs(PFX "\n", f);
    f = san.json_mem;
    fprintf(f, "\"kind\": \"uninitialized-global-read\", \"size\": %u, \"address\": %" PRIu64, r.size,
            r.address);
    json_where(f, kernel, r.file, r.line, r.ptx_line, r.block, r.thread);
    json_frames(f, r.func, r.frames, r.nframes);
    fputs("}", f);
  }
}

/* One bad address in memcheck's words. */
static void one_fault(const smemu_fault *ft, const char *kernel) {
  if (!keep()) return;
  smemu_fault k = *ft;
  k.kernel = kernel;
  smemu_write_fault_text(&k, san.text_mem);
  FILE *f = san.json_mem;
  fprintf(f, "\"kind\": \"%s\", \"access\": \"%s\", \"space\": \"%s\", \"size\": %u, \"address\": %" PRIu64,
          ft->misaligned ? "misaligned" : "out-of-bounds", ft->write ? "write" : "read", ft->space, ft->size,
          ft->address);
  json_where(f, kernel, ft->file, ft->line, ft->ptx_line, ft->block, ft->thread);
  json_frames(f, ft->func, ft->frames, ft->nframes);
  fputs("}", f);
}

/* A fault that is no bad address (a trap, an assertion, a deadlock, the
 * instruction limit). A failed assert is memcheck's "Warp assert" in
 * CUDA's __assertfail (recorded); the others are smemu's message. */
static void other_fault(const smemu_fault *ft, const char *kernel, cudaError_t e) {
  if (!keep()) return;
  FILE *f = san.text_mem;
  if (e == cudaErrorAssert) {
    fputs(PFX "Warp assert\n" PFX "    at __assertfail\n", f);
  } else {
    fprintf(f, PFX "%s\n", cudaGetErrorString(e));
    where(f, kernel, ft->file, ft->line, ft->ptx_line);
  }
  fprintf(f, PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", ft->thread[0], ft->thread[1],
          ft->thread[2], ft->block[0], ft->block[1], ft->block[2]);
  fputs(PFX "\n", f);
  f = san.json_mem;
  fprintf(f, "\"kind\": \"kernel-fault\", \"error\": ");
  smemu_json_string(f, cudaGetErrorName(e));
  json_where(f, kernel, ft->file, ft->line, ft->ptx_line, ft->block, ft->thread);
  fprintf(f, ", \"message\": ");
  smemu_json_string(f, ft->message);
  fputs("}", f);
}

/* Every bad address of the launch (memcheck keeps going after each). */
static void note_faults(smemu_ctx *ctx, const char *kernel, cudaError_t e) {
  smemu_fault ft;
  if (smemu_last_fault(ctx, &ft) != SMEMU_OK) return;
  san.faults++;
  uint64_t total = smemu_fault_total(ctx);
  if (!ft.access || !total) {
    other_fault(&ft, kernel, e);
    return;
  }
  int n = smemu_fault_count(ctx);
  for (uint64_t i = 0; i < total; i++) {
    if (i >= (uint64_t)n || smemu_fault_get(ctx, (int)i, &ft) != SMEMU_OK) {
      san.errors += total - i;
      return;
    }
    one_fault(&ft, kernel);
  }
}

/* `--check sync` alone is compute-sanitizer's synccheck: did the launch
 * misuse a barrier? (With other checks, smemu reports and goes on.) */
static int sync_stops(const smemu_ctx *ctx) {
  if ((rt.analyses & RT_CHECKS) != SMEMU_ANALYZE_SYNC || rt.san_memcheck) return 0;
  int n = smemu_sync_error_count(ctx);
  for (int i = 0; i < n; i++) {
    const smemu_sync_error *e = smemu_sync_error_get(ctx, i);
    if (e && strcmp(e->kind, "uninitialized-read")) return 1;
  }
  return 0;
}

cudaError_t rt_san_launch(const rt_func *fn, smemu_status s, cudaError_t e, int *contained) {
  if (!san.inited) rt_san_init();
  smemu_ctx *ctx = rt.ctx;
  *contained = 0;
  if (!ctx) return e;
  if (rt.analyses & SMEMU_ANALYZE_INIT) note_uninit(ctx, fn->name);
  if ((s == SMEMU_OK || s == SMEMU_ERR_ILLEGAL_INSTRUCTION) && sync_stops(ctx)) {
    /* synccheck stops the kernel at a barrier error and ends the context
     * (recorded: sync_skip, every later call fails), also where the
     * barrier itself then faults: an illegal __syncwarp mask is
     * cudaErrorIllegalInstruction natively, cudaErrorLaunchFailure under
     * synccheck (recorded: sanitizer_patterns/partial_syncwarp) */
    *contained = rt.san_continue;
    return rt.san_continue ? cudaSuccess : cudaErrorLaunchFailure;
  }
  if (s == SMEMU_OK || e == cudaSuccess || !rt.san_memcheck) return e;
  note_faults(ctx, fn->name, e);
  /* a bad address is memcheck's own: it ends the context with an
   * unspecified launch failure, or (--destroy-on-device-error kernel) the
   * launch only; anything else (an assert) ends the context with its own
   * error either way (recorded) */
  if (s != SMEMU_ERR_ILLEGAL_ADDRESS && s != SMEMU_ERR_MISALIGNED && s != SMEMU_ERR_LAUNCH_FAILURE) return e;
  *contained = rt.san_continue;
  return rt.san_continue ? e : cudaErrorLaunchFailure;
}

/* The CUDA entry point the program called: the first return address
 * outside this library follows a call to it, directly, through the PLT
 * ([endbr64] [bnd] jmp *GOT) or through the GOT (-fno-plt). NULL when
 * that cannot be read back (a call through a register). x86-64 only. */
static const char *api_name(void) {
#if defined(__x86_64__)
  void *fr[48];
  int k = backtrace(fr, 48);
  Dl_info self, d, t;
  if (!dladdr((void *)api_name, &self)) return NULL;
  for (int i = 0; i < k; i++) {
    if (!dladdr(fr[i], &d) || d.dli_fbase == self.dli_fbase) continue;
    const uint8_t *ra = fr[i];
    int32_t rel;
    const void *const *slot = NULL;
    if (ra[-6] == 0xff && ra[-5] == 0x15) { /* call *GOT(%rip) */
      memcpy(&rel, ra - 4, 4);
      slot = (const void *const *)(ra + rel);
    } else if (ra[-5] == 0xe8) { /* call rel32 */
      memcpy(&rel, ra - 4, 4);
      const uint8_t *s = ra + rel;
      if (dladdr(s, &t) && t.dli_fbase == self.dli_fbase) return t.dli_saddr == s ? t.dli_sname : NULL;
      if (!dladdr(s, &t) || t.dli_fbase != d.dli_fbase) return NULL;
      if (!memcmp(s, "\xf3\x0f\x1e\xfa", 4)) s += 4;
      if (*s == 0xf2) s++;
      if (s[0] != 0xff || s[1] != 0x25) return NULL;
      memcpy(&rel, s + 2, 4);
      slot = (const void *const *)(s + 6 + rel);
    } else {
      return NULL;
    }
    if (!dladdr(slot, &t) || t.dli_fbase != d.dli_fbase) return NULL;
    const void *fn = *slot;
    if (!dladdr(fn, &t) || t.dli_fbase != self.dli_fbase || t.dli_saddr != fn) return NULL;
    return t.dli_sname;
  }
#endif
  return NULL;
}

void rt_san_api_error(cudaError_t e, const char *name) {
  if (!rt.san_memcheck || e == cudaSuccess || e == cudaErrorNotReady) return;
  char buf[128];
  if (!name && (name = api_name())) {
    /* __cudaLaunchKernel is <<<>>>'s cudaLaunchKernel; _ptsz / _v2 variants */
    snprintf(buf, sizeof buf, "%s", name + (strncmp(name, "__cuda", 6) ? 0 : 2));
    char *u = strstr(buf, "_ptsz");
    if (u) *u = 0;
    name = buf;
  }
  if (!keep()) return;
  fprintf(san.text_mem, PFX "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.\n" PFX "\n",
          cudaGetErrorName(e), (int)e, cudaGetErrorString(e), name ? name : "(a CUDA API function)");
  fprintf(san.json_mem, "\"kind\": \"api-error\", \"error\": ");
  smemu_json_string(san.json_mem, cudaGetErrorName(e));
  fprintf(san.json_mem, ", \"code\": %d, \"call\": ", (int)e);
  smemu_json_string(san.json_mem, name);
  fputs("}", san.json_mem);
}

/* initcheck: a copy from device memory nothing wrote, per 32-byte sector. */
void rt_san_copy_source(const void *src, size_t n, const char *call) {
  if (!(rt.analyses & SMEMU_ANALYZE_INIT) || !rt.ctx || !n) return;
  uint64_t at[64];
  size_t k = smemu_mem_unwritten_sectors(rt.ctx, src, n, at, 64);
  for (size_t i = 0; i < k; i++) {
    if (i >= 64) {
      san.errors += k - i;
      return;
    }
    if (!keep()) continue;
    fprintf(san.text_mem,
            PFX "Host API memory access error at host access to 0x%" PRIxPTR " of size %zu bytes\n" PFX
                "    Uninitialized access to 0x%" PRIx64 " on access by %s source\n" PFX "\n",
            (uintptr_t)src, n, at[i], call);
    fprintf(san.json_mem,
            "\"kind\": \"uninitialized-copy-source\", \"address\": %" PRIu64 ", \"copy\": %" PRIuPTR
            ", \"size\": %zu, \"call\": \"%s\"}",
            at[i], (uintptr_t)src, n, call);
  }
}

/* cudaDeviceReset: what it frees is still a leak at exit (measured). */
void rt_san_reset(void) {
  if (!rt.san_leaks || !rt.nallocs) return;
  rt_alloc *a = realloc(san.reset_leaks, (san.nreset_leaks + rt.nallocs) * sizeof *a);
  if (!a) return;
  san.reset_leaks = a;
  for (size_t i = 0; i < rt.nallocs; i++) san.reset_leaks[san.nreset_leaks++] = rt.allocs[i];
}

static void leak(const rt_alloc *a, uint64_t *bytes, uint64_t *count) {
  *bytes += a->size;
  ++*count;
  if (!keep()) return;
  char g[40];
  fprintf(san.text_mem, PFX "Leaked %s bytes at 0x%" PRIxPTR "\n" PFX "\n",
          report_grouped(g, sizeof g, a->size), (uintptr_t)a->p);
  fprintf(san.json_mem, "\"kind\": \"leak\", \"size\": %zu, \"address\": %" PRIuPTR "}", a->size,
          (uintptr_t)a->p);
}

/* At exit: every allocation still live (device, managed, pinned, and host
 * memory still registered: recorded) is a leak. */
static void leaks(void) {
  uint64_t bytes = 0, count = 0;
  for (size_t i = 0; i < san.nreset_leaks; i++) leak(&san.reset_leaks[i], &bytes, &count);
  for (size_t i = 0; i < rt.nallocs; i++) leak(&rt.allocs[i], &bytes, &count);
  if (!san.text_mem && !(san.text_mem = open_memstream(&san.text, &san.text_len))) return;
  fprintf(san.text_mem, PFX "LEAK SUMMARY: %" PRIu64 " bytes leaked in %" PRIu64 " allocations\n", bytes,
          count);
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
  uint64_t all = san.errors + san.checks;
  fprintf(f, PFX "ERROR SUMMARY: %" PRIu64 " error%s\n", all, all == 1 ? "" : "s");
  if (san.limit && san.errors > san.printed)
    fprintf(f,
            PFX "ERROR SUMMARY: %" PRIu64 " error%s not printed. Use --print-limit option to adjust the "
                "number of printed errors\n",
            san.errors - san.printed, san.errors - san.printed == 1 ? " was" : "s were");
}

void rt_san_json(FILE *f) {
  rt_san_finish();
  if (!san.active) return;
  fprintf(f,
          ",\n  \"sanitizer\": {\"error_count\": %" PRIu64 ", \"print_limit\": %" PRIu64
          ", \"errors\": [%s\n  ]}",
          san.errors + san.checks, san.limit, san.json ? san.json : "");
}
