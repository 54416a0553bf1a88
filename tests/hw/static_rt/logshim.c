/* logshim.c: a libcuda.so.1 that logs what a program (here: one linked
 * with NVIDIA's static CUDA runtime) asks of the driver and forwards every
 * call to the real driver. Logged, one line each, to $SHIMLOG:
 *   P  cuGetProcAddress*(symbol, version, flags) and its answer
 *   E  cuGetExportTable(uuid) and the table's words (x: executable code)
 *   >  a call through a wrapped pointer: label, first args as raw words,
 *      and up to 4 words behind each argument that points at readable memory
 *   <  its return value and the words behind the arguments afterwards
 * Every function pointer handed out (procedure addresses, export-table
 * slots, the shim's own exports) goes through a trampoline that logs.
 * The runtime hashes the addresses of the tables it was given in its
 * integrity handshake (table {d4082055}, slot 1): with wrapped tables the
 * driver's answer cannot match, so the shim answers itself, with smemu's
 * implementation (runtime/integrity.c, compiled in), on the real driver's
 * device data. The runtime accepting it checks that implementation. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

__attribute__((visibility("default"))) int cuGetProcAddress(const char *sym, void **pfn, int version,
                                                            unsigned long long flags);
__attribute__((visibility("default"))) int cuGetExportTable(const void **table, const unsigned char *id);
typedef uint64_t (*tramp_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                             uint64_t, uint64_t, uint64_t);
static uint64_t tramp_call(int i, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                           uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11);
static uint64_t named_call(int k, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                           uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11);
#include "tramp.inc"
#include "static_rt.h"

#define NSLOTS (sizeof tramp_fns / sizeof tramp_fns[0])
static struct {
  char label[96];
  tramp_fn real;
  int nargs;
} slots[NSLOTS];
static int nslots;
static tramp_fn named_real[NEXPORTS];
static pthread_mutex_t mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static FILE *logf_;
static void *real;
static uint64_t seq;

static void open_real(void) {
  if (real) return;
  const char *p = getenv("SHIM_REAL");
  real = dlopen(p ? p : "/usr/lib/x86_64-linux-gnu/libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  const char *lp = getenv("SHIMLOG");
  logf_ = fopen(lp ? lp : "/tmp/shim.log", "a");
  if (!real) fprintf(logf_ ? logf_ : stderr, "! dlopen real failed: %s\n", dlerror());
}

static int readable(uint64_t p, void *buf, size_t n) {
  if (p < 4096) return 0;
  struct iovec l = {buf, n}, r = {(void *)p, n};
  return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n;
}

static void dump_args(char tag, const uint64_t *a, int n) {
  for (int j = 0; j < n; j++) {
    uint64_t w[4];
    if (!readable(a[j], w, sizeof w)) continue;
    fprintf(logf_, "   %c[%d] %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " |", tag, j, w[0], w[1], w[2],
            w[3]);
    const unsigned char *c = (const unsigned char *)w;
    for (int b = 0; b < 32; b++) fputc(c[b] >= 32 && c[b] < 127 ? c[b] : '.', logf_);
    fputs("|\n", logf_);
  }
}

static uint64_t logged(const char *label, tramp_fn fn, int nargs, uint64_t *a) {
  pthread_mutex_lock(&mu);
  uint64_t id = ++seq;
  fprintf(logf_, "> %" PRIu64 " t%ld %s", id, (long)gettid(), label);
  for (int j = 0; j < nargs; j++) fprintf(logf_, " %" PRIx64, a[j]);
  fputc('\n', logf_);
  dump_args('i', a, nargs);
  fflush(logf_);
  pthread_mutex_unlock(&mu);
  uint64_t r = fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
  pthread_mutex_lock(&mu);
  fprintf(logf_, "< %" PRIu64 " %s = %" PRIx64 "\n", id, label, r);
  dump_args('o', a, nargs);
  fflush(logf_);
  pthread_mutex_unlock(&mu);
  return r;
}

static uint64_t tramp_call(int i, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                           uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11) {
  uint64_t a[12] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
  return logged(slots[i].label, slots[i].real, slots[i].nargs, a);
}

static uint64_t named_call(int k, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                           uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11) {
  pthread_mutex_lock(&mu);
  open_real();
  if (!named_real[k]) named_real[k] = (tramp_fn)dlsym(real, export_names[k]);
  pthread_mutex_unlock(&mu);
  uint64_t a[12] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
  char label[96];
  snprintf(label, sizeof label, "D:%s", export_names[k]);
  if (!named_real[k]) {
    fprintf(logf_, "! no real %s\n", export_names[k]);
    return 500;
  }
  return logged(label, named_real[k], 8, a);
}

/* A trampoline for fn (one per label and address). */
static void *wrap(const char *label, void *fn, int nargs) {
  if (!fn) return NULL;
  for (int i = 0; i < nslots; i++)
    if (slots[i].real == (tramp_fn)fn && !strcmp(slots[i].label, label)) return (void *)tramp_fns[i];
  if (nslots == (int)NSLOTS) {
    fprintf(logf_, "! out of trampolines for %s\n", label);
    return fn;
  }
  int i = nslots++;
  snprintf(slots[i].label, sizeof slots[i].label, "%s", label);
  slots[i].real = (tramp_fn)fn;
  slots[i].nargs = nargs;
  return (void *)tramp_fns[i];
}

/* Executable mappings, to tell code pointers from data in export tables. */
static int is_code(uint64_t p) {
  FILE *m = fopen("/proc/self/maps", "r");
  char line[512];
  int yes = 0;
  while (m && !yes && fgets(line, sizeof line, m)) {
    uint64_t lo, hi;
    char perm[8];
    if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s", &lo, &hi, perm) == 3 && perm[2] == 'x' && p >= lo && p < hi) yes = 1;
  }
  if (m) fclose(m);
  return yes;
}

__attribute__((visibility("default"))) int cuGetProcAddress_v2(const char *sym, void **pfn, int version,
                                                               unsigned long long flags, int *status) {
  pthread_mutex_lock(&mu);
  open_real();
  int (*f)(const char *, void **, int, unsigned long long, int *) =
      (int (*)(const char *, void **, int, unsigned long long, int *))dlsym(real, "cuGetProcAddress_v2");
  int r = f ? f(sym, pfn, version, flags, status) : 500;
  void *got = pfn ? *pfn : NULL;
  char label[96];
  snprintf(label, sizeof label, "%s@%d", sym ? sym : "(null)", version);
  /* the runtime fetches cuGetProcAddress and cuGetExportTable themselves
   * this way: hand out the shim's, so that what it asks through them is
   * logged too */
  if (r == 0 && pfn && got && sym && !strcmp(sym, "cuGetProcAddress"))
    *pfn = version >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
  else if (r == 0 && pfn && got && sym && !strcmp(sym, "cuGetExportTable"))
    *pfn = (void *)cuGetExportTable;
  else if (r == 0 && pfn && got)
    *pfn = wrap(label, got, 12);
  fprintf(logf_, "P %s version=%d flags=%llx -> %d status=%d %s\n", sym ? sym : "(null)", version, flags, r,
          status ? *status : -1, got ? "found" : "null");
  fflush(logf_);
  pthread_mutex_unlock(&mu);
  return r;
}

__attribute__((visibility("default"))) int cuGetProcAddress(const char *sym, void **pfn, int version,
                                                            unsigned long long flags) {
  pthread_mutex_lock(&mu);
  open_real();
  fprintf(logf_, "P1 (cuGetProcAddress v1) %s\n", sym ? sym : "(null)");
  pthread_mutex_unlock(&mu);
  return cuGetProcAddress_v2(sym, pfn, version, flags, NULL);
}

/* Wrapped copies of the real export tables, by uuid. */
static struct {
  unsigned char id[16];
  void *words[256];
} tables[32];
static int ntables;

static void *table_of(const char *hex) {
  unsigned char id[16];
  for (int b = 0; b < 16; b++) sscanf(hex + 2 * b, "%2hhx", &id[b]);
  for (int k = 0; k < ntables; k++)
    if (!memcmp(tables[k].id, id, 16)) return tables[k].words;
  return NULL;
}

/* The integrity answer for the tables the runtime holds (the shim's). */
static uint64_t shim_integrity(uint64_t version, uint64_t seconds, uint64_t ptr, uint64_t a3, uint64_t a4, uint64_t a5,
                               uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11) {
  uint64_t *out = (uint64_t *)ptr;
  typedef int (*fn_t)();
  fn_t ver = (fn_t)dlsym(real, "cuDriverGetVersion"), cnt = (fn_t)dlsym(real, "cuDeviceGetCount"),
       uid = (fn_t)dlsym(real, "cuDeviceGetUuid"), att = (fn_t)dlsym(real, "cuDeviceGetAttribute");
  static_rt_integrity_in in;
  memset(&in, 0, sizeof in);
  int v = 0, n = 0;
  ver(&v);
  in.driver_version = (uint32_t)v;
  in.version = (uint32_t)version;
  in.pid = (uint32_t)getpid();
  in.tid = (uint32_t)(uintptr_t)pthread_self();
  void **integ = table_of("d4082055bde6704b8d34ba123c66e1f2");
  in.cudart_table = table_of("6bd5fb6c5bf4e74a8987d93912fd9df9");
  in.integrity_table = integ;
  in.fn = integ ? integ[1] : NULL;
  in.unix_seconds = seconds;
  static_rt_device_id devs[8];
  if (cnt(&n) || n > 8) n = 0;
  for (int d = 0; d < n; d++) {
    memset(&devs[d], 0, sizeof devs[d]);
    uid(devs[d].uuid, d);
    att(&devs[d].pci_domain, 50, d);
    att(&devs[d].pci_bus, 33, d);
    att(&devs[d].pci_device, 34, d);
  }
  if (out) static_rt_integrity(&in, devs, n, out);
  return 0;
}

__attribute__((visibility("default"))) int cuGetExportTable(const void **table, const unsigned char *id) {
  pthread_mutex_lock(&mu);
  open_real();
  int (*f)(const void **, const unsigned char *) = (int (*)(const void **, const unsigned char *))dlsym(real, "cuGetExportTable");
  const void *t = NULL;
  int r = f ? f(&t, id) : 500;
  char uu[40] = "(null)";
  if (id)
    for (int b = 0; b < 16; b++) sprintf(uu + 2 * b, "%02x", id[b]);
  fprintf(logf_, "E %s -> %d table=%p\n", uu, r, t);
  if (r == 0 && t && table) {
    int k = 0;
    while (k < ntables && memcmp(tables[k].id, id, 16)) k++;
    if (k == ntables && ntables < 32) {
      ntables++;
      memcpy(tables[k].id, id, 16);
      const uint64_t *w = t;
      /* tables that start with their byte size: that many words; others
       * (no size word) up to 64 words or the first word that is no code */
      int n = w[0] < 4096 ? (int)(w[0] / 8) : 64;
      if (n > 256) n = 256;
      for (int s = 0; s < n; s++) {
        int code = is_code(w[s]);
        fprintf(logf_, "  E %s [%d] %016" PRIx64 " %s\n", uu, s, w[s], code ? "x" : "");
        if (s == 0 && w[0] < 4096) {
          tables[k].words[0] = (void *)w[0];
          continue;
        }
        if (!code && w[0] >= 4096) {
          n = s;
          break;
        }
        char label[96];
        snprintf(label, sizeof label, "X:%.8s[%d]", uu, s);
        tables[k].words[s] = code ? wrap(label, (void *)w[s], 8) : (void *)w[s];
        if (!strcmp(uu, "d4082055bde6704b8d34ba123c66e1f2") && s == 1) {
          snprintf(label, sizeof label, "I:%.8s[%d]", uu, s);
          tables[k].words[s] = wrap(label, (void *)shim_integrity, 3);
        }
      }
    }
    *table = k < 32 ? tables[k].words : t;
  } else if (table)
    *table = t;
  fflush(logf_);
  pthread_mutex_unlock(&mu);
  return r;
}
