/* lifecycle.c: the runtime's start-up and shutdown. The first entry point
 * reads the environment (the options of runtime/README.md) and creates the
 * emulated device's context; every entry point goes through rt_begin /
 * rt_end; cudaDeviceReset drops everything; at exit the queued work runs
 * and the reports are written. This is the one file of core/ that calls
 * the queue, the modules and the reports. */
#include "rt.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Analyses SMEMU_CHECK can name (as `smemu exec --check` does, and
 * compute-sanitizer's tool names). memcheck (bounds of every global, shared
 * and local access) is always on. */
static const struct {
  const char *name;
  uint32_t bit;
} checks[] = {
    {"memory", 0},
    {"memcheck", 0},
    {"banks", SMEMU_ANALYZE_BANKS},
    {"races", SMEMU_ANALYZE_RACES},
    {"racecheck", SMEMU_ANALYZE_RACES},
    {"sync", SMEMU_ANALYZE_SYNC},
    {"synccheck", SMEMU_ANALYZE_SYNC},
    {"init", SMEMU_ANALYZE_INIT},
    {"initcheck", SMEMU_ANALYZE_INIT},
    {"global-races", SMEMU_ANALYZE_GLOBAL_RACES},
    {"racecheck-compat", SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_RACECHECK_COMPAT},
    {"all", RT_CHECKS},
};

static uint32_t parse_checks(const char *s) {
  uint32_t bits = 0;
  while (s && *s) {
    size_t n = strcspn(s, ",");
    size_t i;
    for (i = 0; i < sizeof checks / sizeof checks[0]; i++)
      if (strlen(checks[i].name) == n && !strncmp(checks[i].name, s, n)) break;
    if (i < sizeof checks / sizeof checks[0])
      bits |= checks[i].bit;
    else if (n)
      rt_msg("SMEMU_CHECK: unknown check '%.*s' (ignored)", (int)n, s);
    s += n;
    if (*s) s++;
  }
  return bits;
}

static void read_env(void) {
  const char *v;
  rt.inited = 1;
  rt.quiet = (v = getenv("SMEMU_QUIET")) && *v && strcmp(v, "0");
  v = getenv("SMEMU_ARCH");
  snprintf(rt.arch_name, sizeof rt.arch_name, "%s", v && *v ? v : "sm_90");
  rt.arch_ok = smemu_arch_query(rt.arch_name, &rt.arch) == SMEMU_OK;
  if (!rt.arch_ok) smemu_arch_query(NULL, &rt.arch);
  rt.threads = (v = getenv("SMEMU_THREADS")) ? atoi(v) : 0;
  /* a seeded random warp order, as `smemu exec --schedule`: races that a
   * fixed order hides show up in the program's results */
  if ((v = getenv("SMEMU_SCHEDULE")) && *v && strcmp(v, "fixed")) {
    char *end = NULL;
    if (!strncmp(v, "random", 6) &&
        (!v[6] || (v[6] == ':' && v[7] && (rt.seed = strtoull(v + 7, &end, 0), !*end))))
      rt.schedule = SMEMU_SCHEDULE_RANDOM;
    else
      rt_msg("SMEMU_SCHEDULE: expected fixed or random[:SEED], not '%s' (ignored)", v);
  }
  /* per launch (smemu run checks the numbers) */
  rt.max_insns = (v = getenv("SMEMU_MAX_INSNS")) ? strtoull(v, NULL, 0) : SMEMU_DEFAULT_MAX_INSNS;
  rt.timeout = (v = getenv("SMEMU_TIMEOUT")) ? strtod(v, NULL) : 0;
  rt.analyses = parse_checks(getenv("SMEMU_CHECK"));
  if ((v = getenv("SMEMU_REPORT"))) {
    for (const char *s = v; *s;) {
      size_t n = strcspn(s, ",");
      if (n == 5 && !strncmp(s, "banks", 5))
        rt.report_banks = 1;
      else if (n == 8 && !strncmp(s, "launches", 8))
        rt.report_launches = 1;
      else if (n == 7 && !strncmp(s, "hazards", 7))
        rt.report_hazards = 1;
      else if (n == 8 && !strncmp(s, "pipeline", 8))
        rt.report_pipeline = 1;
      else if (n == 3 && !strncmp(s, "all", 3))
        rt.report_banks = rt.report_launches = 1;
      else if (n)
        rt_msg("SMEMU_REPORT: unknown report '%.*s' (known: banks, launches, hazards, pipeline, all)", (int)n,
               s);
      s += n;
      if (*s) s++;
    }
  }
  if (rt.report_banks) rt.analyses |= SMEMU_ANALYZE_BANKS;
  if (rt.report_pipeline) rt.analyses |= SMEMU_ANALYZE_PIPELINE;
  if ((v = getenv("SMEMU_REPORT_FILE")) && *v) rt.report_file = strdup(v);
  if ((v = getenv("SMEMU_JSON")) && *v) rt.json_file = strdup(v);
  if ((v = getenv("SMEMU_HTML")) && *v) {
    rt.html_file = strdup(v);
    rt.analyses |= SMEMU_ANALYZE_BANKS;
  }
  rt.cache_config = cudaFuncCachePreferNone;
  rt.shmem_config = cudaSharedMemBankSizeFourByte;
  rt.stack_limit = 1024;
  rt.printf_fifo = 8650752; /* CUDA 13's default on sm_90 (8.25 MB, measured) */
  rt.heap_limit = 8 << 20;
  rt_san_init();
}

smemu_ctx *rt_ctx(void) {
  if (rt.ctx) return rt.ctx;
  if (!rt.arch_ok) return NULL;
  smemu_options o = {0};
  o.threads = rt.threads;
  o.schedule = rt.schedule;
  o.seed = rt.seed;
  o.arch = rt.arch_name;
  o.max_warp_instructions = rt.max_insns;
  o.timeout_seconds = rt.timeout;
  if (!rt.quiet && isatty(2)) {
    /* a status line while a launch runs longer than 2 s */
    o.progress = smemu_progress_print;
    o.progress_user = stderr;
  }
  o.analyses = rt.analyses;
  o.stack_bytes = (uint32_t)rt.stack_limit;
  o.bank_mode = rt.shmem_config == cudaSharedMemBankSizeEightByte ? 8 : 0;
  if (smemu_create(&o, &rt.ctx) != SMEMU_OK) rt.ctx = NULL;
  if (rt.ctx) rt.driver_ready = 1;
  if (rt.ctx) smemu_set_heap_bytes(rt.ctx, rt.heap_limit);
  /* red zones after allocations: SMEMU_PADDING (smemu run --padding),
   * else the library's default (smemu.h says why) */
  const char *pad = getenv("SMEMU_PADDING");
  if (rt.ctx && pad && *pad) smemu_set_padding(rt.ctx, strtoull(pad, NULL, 10));
  return rt.ctx;
}

cudaError_t rt_begin(int need_ctx) {
  pthread_mutex_lock(&rt.lock);
  if (!rt.inited) read_env();
  if (!need_ctx) return cudaSuccess;
  if (rt.sticky) return rt.sticky;
  if (!rt_ctx()) {
    static int said;
    if (!said++)
      fprintf(stderr, "smemu: unknown architecture '%s' in SMEMU_ARCH (see `smemu archs`)\n", rt.arch_name);
    return cudaErrorNoDevice;
  }
  return cudaSuccess;
}

cudaError_t rt_end(cudaError_t e) {
  rt_set_last(e);
  if (e != cudaSuccess && rt.san_memcheck) rt_san_api_error(e, NULL);
  pthread_mutex_unlock(&rt.lock);
  return e;
}

/* A stub of core/stubs.c: the error a GPU gives for a feature it lacks,
 * recorded as the last error (runtime) or returned (driver), and a message
 * naming the function once. */
int rt_stub(const char *name, int driver, int nodev, int *said) {
  rt_begin(0);
  if (!(*said)++)
    rt_msg("%s is %s (returns %s)", name,
           nodev ? "not available on one emulated device" : "not supported by smemu's runtime yet",
           driver ? "CUDA_ERROR_NOT_SUPPORTED" : "cudaErrorNotSupported");
  if (driver) {
    pthread_mutex_unlock(&rt.lock);
    return 801; /* CUDA_ERROR_NOT_SUPPORTED */
  }
  return rt_end(cudaErrorNotSupported);
}

void rt_reset(void) {
  rt_drain();
  rt_san_reset();
  rt_streams_reset();
  rt_pool_reset();
  rt_cdp_reset();
  rt_modules_unload();
  rt_tex_forget(NULL, SIZE_MAX); /* every texture and surface object goes with the context */
  if (rt.ctx) smemu_destroy(rt.ctx);
  rt.ctx = NULL;
  /* smemu_destroy freed every allocation but registered host ranges,
   * which belong to the program */
  rt.nallocs = 0;
  rt.allocated = 0;
  rt.sticky = cudaSuccess;
  rt_last_error(1);
  rt.cache_config = cudaFuncCachePreferNone;
  rt.shmem_config = cudaSharedMemBankSizeFourByte;
  rt.device_flags = 0;
}

/* At exit: run what is still queued (its output belongs to the program) and
 * write the reports. The context is left to the operating system. */
__attribute__((destructor)) static void rt_fini(void) {
  if (!rt.inited) return;
  pthread_mutex_lock(&rt.lock);
  if (!rt.sticky) rt_drain();
  fflush(stdout);
  rt_report_finish();
  pthread_mutex_unlock(&rt.lock);
}
