/* smemu.c: the command-line tool. `smemu exec` loads a PTX file, builds the
 * kernel's arguments (buffers it allocates and fills, scalars), launches,
 * prints or saves buffers, and writes launch figures as JSON. Uses only the
 * public interface, smemu.h, and the tool's own files (clc.h, run_*.h). */
#include "smemu.h"
#include "clc.h"
#include "lint.h"
#include "run_cmd.h"
#include "run_num.h"
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const usage_main =
    "usage: smemu <command> [options]\n"
    "\n"
    "commands:\n"
    "  exec FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [options]\n"
    "                   run one kernel of a PTX file (see `smemu help exec`)\n"
    "  run [options] -- PROGRAM [ARGS]\n"
    "  run [options] FILE.cu [-- ARGS]\n"
    "                   run a whole CUDA program (built with nvcc -cudart shared,\n"
    "                   or compiled from FILE.cu) on the drop-in runtime\n"
    "                   (see `smemu help run`)\n"
    "  lint FILE        decode every kernel of FILE (.ptx, .cu or a program\n"
    "                   built with nvcc) without running it and list what\n"
    "                   smemu cannot run, with file:line:col (see `smemu help lint`)\n"
    "  archs            list the architecture profiles\n"
    "  help [COMMAND]   this text, or a command's\n"
    "  --version        print the version\n"
    "\n"
    "exit status of smemu exec:\n"
    "  0  the kernel ran to completion (and the checks found nothing)\n"
    "  1  it did not: a kernel fault, hang, time or instruction limit, a launch\n"
    "     CUDA would refuse, an unreadable file\n"
    "  2  bad usage: an unknown option, a malformed number or argument\n"
    "  3  the kernel ran but --check found errors\n"
    "exit status of smemu lint: 0 when every kernel decodes, 1 when some do not\n"
    "exit status of smemu run: the program's own; 2 for bad usage or a program\n"
    "smemu cannot run; 127 when it cannot be started; 128+N when signal N killed\n"
    "it; --error-exitcode N: N when the checks or a kernel fault found errors\n";

static const char *const usage_exec =
    "usage: smemu exec FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]\n"
    "                  [--shared BYTES] [--arg SPEC]... [options]\n"
    "\n"
    "Runs kernel NAME of FILE.ptx on the CPU: NAME is mangled, demangled\n"
    "(`reduce<256>(float*)`), or the name with its template arguments\n"
    "(`reduce<256>`) or without (`reduce`) when that is unambiguous.\n"
    "One --arg per kernel parameter, in order:\n"
    "\n"
    "FILE may be CUDA C (.cu): it is compiled to PTX with nvcc -O3 -lineinfo\n"
    "for the --arch given (the CUDA toolkit must be on the PATH).\n"
    "FILE may be OpenCL C (.cl): it is compiled to PTX with clang-14 and\n"
    "libclc-14 (--cl-opts passes build options) and runs the same way.\n"
    "\n"
    "  scalars   TYPE:VALUE     TYPE is u8 u16 u32 u64 s8 s16 s32 s64 f32 f64\n"
    "  local     local:BYTES    an OpenCL __local pointer argument: BYTES of\n"
    "                           shared memory, placed after the dynamic area\n"
    "                           e.g. u32:1024  s32:-3  f32:0.5  u64:0x10\n"
    "  buffers   buf:TYPE:COUNT[:INIT][:print][:save=PATH]\n"
    "            a device buffer of COUNT elements of TYPE, passed as a pointer.\n"
    "            INIT is one of\n"
    "              zeros          all zero (the default)\n"
    "              uninit         zeros the init check counts as never written\n"
    "              iota[=START]   START, START+1, ... (START defaults to 0)\n"
    "              fill=V         every element V\n"
    "              rand=SEED      pseudo-random: integers take the low bits of\n"
    "                             splitmix64(SEED) draws; floats are\n"
    "                             (draw >> 40) * 2^-24, in [0, 1)\n"
    "              values=A,B,..  the given elements, the rest zero\n"
    "              file=PATH      raw bytes of PATH (the rest zero)\n"
    "            print          print the buffer after the run\n"
    "            save=PATH      write the buffer's raw bytes to PATH after the run\n"
    "                           (last: the rest of the argument is the path)\n"
    "\n"
    "options:\n"
    "  --shared BYTES     dynamic shared memory per block (default 0)\n"
    "  --cluster X[,Y,Z]  thread-block cluster dimensions (sm_90; default: the\n"
    "                     kernel's .reqnctapercluster, else none)\n"
    "  --arch sm_XX       architecture profile (default sm_90; see `smemu archs`)\n"
    "  --threads N        worker threads (default: one per core)\n"
    "  --stack BYTES      local memory per thread (default 1024, like CUDA)\n"
    "  --max-insns N      stop a launch when its warps have run N instructions\n"
    "                     together (an endless loop; default 10000000000, 0: no\n"
    "                     limit)\n"
    "  --json FILE        write {\"launches\": [...]} figures to FILE\n"
    "  --tier T           interp (the interpreter), jit (compiled code, LLVM) or\n"
    "                     auto (compile kernels once they have run long;\n"
    "                     default, or the SMEMU_TIER environment variable);\n"
    "                     results, counts and reports are the same\n"
    "  --html FILE        write a self-contained HTML report: the launch's\n"
    "                     figures, the source shaded by bank conflicts, the\n"
    "                     bank x wavefront picture of the worst accesses,\n"
    "                     races, barrier and memory errors\n"
    "  --report banks     print the bank-conflict report after the run: totals,\n"
    "                     the source lines with the most conflicts, the lanes,\n"
    "                     banks and words of the worst instance, and a hint\n"
    "  --bank-mode 4|8    bank width where the generation can choose (3.x)\n"
    "  --no-banks         do not model banks (a little faster)\n"
    "  --counting sass|ptx  count shared requests per SASS instruction (ptxas and\n"
    "                     nvdisasm disassemble the PTX, cached; merged accesses,\n"
    "                     aggregated atomics and CAS loops as the GPU runs them)\n"
    "                     or by PTX rules; default: sass when both tools exist\n"
    "  --cl-opts OPTS     OpenCL build options for a .cl FILE (-D N=V, ...)\n"
    "  --check LIST       comma-separated checks: races (shared-memory hazards,\n"
    "                     like compute-sanitizer racecheck), sync (barrier misuse,\n"
    "                     like synccheck), init (reads of shared memory and of\n"
    "                     :uninit buffers nothing wrote, like initcheck),\n"
    "                     global-races (hazards on global memory within\n"
    "                     and between blocks), racecheck-compat (races, reporting\n"
    "                     only what racecheck's one access per byte sees), memory\n"
    "                     (bounds and alignment: always on), memcheck (the same,\n"
    "                     and every thread that made a bad address is listed,\n"
    "                     like compute-sanitizer), all\n"
    "  --report hazards   with --check races: every hazard's instance in detail\n"
    "                     (racecheck's hazard mode) instead of one line per pair\n"
    "  --report pipeline  the async pipeline after the run: bulk and TMA copies\n"
    "                     by kind and bytes, each mbarrier (stage) with its\n"
    "                     phases completed, copies, bytes and waits, the most\n"
    "                     copies and bytes in flight in a block (landed in\n"
    "                     phases not completed yet), bulk groups outstanding\n"
    "  --schedule fixed|random[:SEED]\n"
    "                     warp order inside a block: fixed (default: warp 0, 1, ...\n"
    "                     each until it waits at a barrier or exits) or a seeded\n"
    "                     random order with random switch points\n"
    "  --quiet            no summary line\n"
    "  --max-dynamic-shared BYTES\n"
    "                     let the kernel use up to BYTES of dynamic shared memory,\n"
    "                     the opt-in of cudaFuncSetAttribute(MaxDynamicSharedMemory-\n"
    "                     Size): needed above 48 KB; fails as CUDA does above the\n"
    "                     architecture's opt-in limit (227 KB on sm_90)\n"
    "  --timeout SECONDS  stop a launch that runs longer (wall clock)\n"
    "  --help             this text\n"
    "\n"
    "A launch in which no warp can make progress (every warp repeats the same\n"
    "state: a spin on a value nothing will change; checked with the fixed\n"
    "schedule) ends within seconds as a hang,\n"
    "naming the looping source lines. On a terminal a launch running longer\n"
    "than 2 s shows a status line (blocks done, thread instructions per second).\n"
    "Exit status: 0 success, 1 the launch failed, 2 bad usage, 3 --check found\n"
    "errors (see `smemu help`).\n"
    "\n"
    "examples:\n"
    "  smemu exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 \\\n"
    "      --arg buf:s32:64:iota:print --arg s32:64\n"
    "  smemu exec examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 \\\n"
    "      --shared 256 --arg buf:s32:64:iota:print --arg s32:64\n"
    "  smemu exec examples/matmul.ptx --kernel matmulTiled --grid 16,16 --block 16,16 \\\n"
    "      --arg buf:f32:65536:rand=1 --arg buf:f32:65536:rand=2 --arg buf:f32:65536:save=c.bin \\\n"
    "      --arg s32:256 --json run.json\n";

enum { T_U8, T_U16, T_U32, T_U64, T_S8, T_S16, T_S32, T_S64, T_F32, T_F64, T_BAD };
static const char *const tnames[] = {"u8",  "u16", "u32", "u64", "s8", "s16",
                                     "s32", "s64", "f32", "f64", NULL};
static const int tsize[] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};

typedef struct arg {
  int is_buf;
  int type;
  uint64_t count;
  void *ptr;         /* device buffer */
  uint8_t scalar[8]; /* scalar value */
  int print;
  const char *save;
  int is_local; /* local:BYTES (scalar holds the count) */
} arg;

static int type_of(const char *s, size_t n) {
  for (int i = 0; tnames[i]; i++)
    if (strlen(tnames[i]) == n && !strncmp(tnames[i], s, n)) return i;
  if (n == 3 && !strncmp(s, "i32", 3)) return T_S32;
  if (n == 3 && !strncmp(s, "i64", 3)) return T_S64;
  return T_BAD;
}

/* Parse a number of type t (the whole of s) into 8 bytes: integers must
 * fit the type (signed types take a '-'), floats must not overflow it. */
static int parse_value(const char *s, int t, uint8_t out[8]) {
  memset(out, 0, 8);
  if (t == T_F32 || t == T_F64) {
    double d;
    if (cli_double(s, &d) < 0) return -1;
    if (t == T_F32) {
      float f = (float)d;
      if (isinf(f) && !isinf(d)) return -1;
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &d, 8);
    }
    return 0;
  }
  int bits = tsize[t] * 8;
  uint64_t v;
  if (t >= T_S8 && t <= T_S64) {
    int64_t x, hi = (int64_t)((1ull << (bits - 1)) - 1);
    if (cli_s64(s, -hi - 1, hi, &x) < 0) return -1;
    v = (uint64_t)x;
  } else if (cli_u64(s, bits == 64 ? UINT64_MAX : (1ull << bits) - 1, &v) < 0) {
    return -1;
  }
  memcpy(out, &v, (size_t)tsize[t]);
  return 0;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int fill_buffer(arg *a, const char *init, char *err, size_t en) {
  uint8_t *p = a->ptr;
  int es = tsize[a->type], fp = a->type == T_F32 || a->type == T_F64;
  if (!init || !strcmp(init, "zeros") || !strcmp(init, "uninit")) return 0;
  if (!strcmp(init, "iota") || !strncmp(init, "iota=", 5)) {
    int64_t si = 0;
    double sd = 0;
    if (init[4] && (fp ? cli_double(init + 5, &sd) : cli_s64(init + 5, INT64_MIN, INT64_MAX, &si)) < 0) {
      snprintf(err, en, "bad iota start '%s'", init + 5);
      return -1;
    }
    for (uint64_t i = 0; i < a->count; i++) {
      if (a->type == T_F32) {
        float f = (float)(sd + (double)i);
        memcpy(p + i * 4, &f, 4);
      } else if (a->type == T_F64) {
        double d = sd + (double)i;
        memcpy(p + i * 8, &d, 8);
      } else {
        uint64_t v = (uint64_t)si + i;
        memcpy(p + i * (uint64_t)es, &v, (size_t)es);
      }
    }
    return 0;
  }
  if (!strncmp(init, "fill=", 5)) {
    uint8_t v[8];
    if (parse_value(init + 5, a->type, v) < 0) {
      snprintf(err, en, "bad fill value '%s' for %s", init + 5, tnames[a->type]);
      return -1;
    }
    for (uint64_t i = 0; i < a->count; i++) memcpy(p + i * (uint64_t)es, v, (size_t)es);
    return 0;
  }
  if (!strncmp(init, "rand=", 5)) {
    uint64_t st;
    if (cli_u64(init + 5, UINT64_MAX, &st) < 0) {
      snprintf(err, en, "bad seed '%s' (rand=SEED takes an unsigned integer)", init + 5);
      return -1;
    }
    for (uint64_t i = 0; i < a->count; i++) {
      uint64_t r = splitmix(&st);
      if (a->type == T_F32) {
        float f = (float)((double)(r >> 40) * 0x1p-24);
        memcpy(p + i * 4, &f, 4);
      } else if (a->type == T_F64) {
        double f = (double)(r >> 40) * 0x1p-24;
        memcpy(p + i * 8, &f, 8);
      } else
        memcpy(p + i * (uint64_t)es, &r, (size_t)es);
    }
    return 0;
  }
  if (!strncmp(init, "values=", 7)) {
    char *list = strdup(init + 7), *save = NULL;
    if (!list) return -1;
    uint64_t i = 0;
    int rc = 0;
    /* strtok would skip empty items: walk the commas by hand */
    for (char *item = list; item; item = save, i++) {
      save = strchr(item, ',');
      if (save) *save++ = 0;
      uint8_t v[8];
      if (i >= a->count) {
        snprintf(err, en, "values= has more items than the buffer's %" PRIu64 " elements", a->count);
        rc = -1;
        break;
      }
      if (parse_value(item, a->type, v) < 0) {
        snprintf(err, en, "bad value '%s' for %s in '%s'", item, tnames[a->type], init);
        rc = -1;
        break;
      }
      memcpy(p + i * (uint64_t)es, v, (size_t)es);
    }
    free(list);
    return rc;
  }
  if (!strncmp(init, "file=", 5)) {
    FILE *f = fopen(init + 5, "rb");
    struct stat sb;
    if (!f) {
      snprintf(err, en, "cannot open %s: %s", init + 5, strerror(errno));
      return -1;
    }
    if (fstat(fileno(f), &sb) < 0 || !S_ISREG(sb.st_mode)) {
      snprintf(err, en, "file=%s is not a regular file", init + 5);
      fclose(f);
      return -1;
    }
    size_t n = fread(p, 1, a->count * (uint64_t)es, f);
    (void)n;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
      snprintf(err, en, "cannot read %s", init + 5);
      return -1;
    }
    return 0;
  }
  snprintf(err, en, "unknown initialiser '%s'", init);
  return -1;
}

/* Parse one --arg. Buffer specs contain ':'-separated fields. */
static int parse_arg(smemu_ctx *ctx, const char *spec, arg *a, char *err, size_t en) {
  memset(a, 0, sizeof *a);
  if (!strncmp(spec, "local:", 6)) {
    uint64_t n;
    if (cli_u64(spec + 6, UINT32_MAX, &n) < 0) {
      snprintf(err, en, "bad argument '%s': expected local:BYTES", spec);
      return -1;
    }
    a->is_local = 1;
    memcpy(a->scalar, &n, 8);
    return 0;
  }
  if (!strncmp(spec, "buf:", 4)) {
    char *s = strdup(spec + 4), *save = NULL, *init = NULL;
    if (!s) return -1;
    /* save=PATH takes the rest of the spec, so a path may hold ':' */
    char *sv = strstr(s, ":save=");
    if (sv) {
      a->save = strdup(sv + 6);
      *sv = 0;
    }
    char *tok = strtok_r(s, ":", &save);
    a->is_buf = 1;
    a->type = tok ? type_of(tok, strlen(tok)) : T_BAD;
    tok = strtok_r(NULL, ":", &save);
    if (a->type == T_BAD || !tok || cli_u64(tok, 1ull << 34, &a->count) < 0 || a->count == 0) {
      snprintf(err, en, "bad buffer '%s': expected buf:TYPE:COUNT[:INIT][:print][:save=PATH]", spec);
      free(s);
      return -1;
    }
    while ((tok = strtok_r(NULL, ":", &save))) {
      if (!strcmp(tok, "print"))
        a->print = 1;
      else if (!strncmp(tok, "save=", 5) && !a->save)
        a->save = strdup(tok + 5);
      else if (init) {
        snprintf(err, en, "bad buffer '%s': two initialisers ('%s' and '%s')", spec, init, tok);
        free(s);
        return -1;
      } else
        init = tok;
    }
    if (smemu_malloc(ctx, &a->ptr, a->count * (uint64_t)tsize[a->type]) != SMEMU_OK) {
      snprintf(err, en, "%s", smemu_errmsg(ctx));
      free(s);
      return -2; /* not a usage error */
    }
    /* written for the init check, unless asked to stay unwritten */
    if (!init || strcmp(init, "uninit"))
      smemu_memset(ctx, a->ptr, 0, a->count * (uint64_t)tsize[a->type]);
    else
      memset(a->ptr, 0, a->count * (uint64_t)tsize[a->type]);
    int r = fill_buffer(a, init, err, en);
    free(s);
    return r;
  }
  const char *c = strchr(spec, ':');
  if (!c || (a->type = type_of(spec, (size_t)(c - spec))) == T_BAD ||
      parse_value(c + 1, a->type, a->scalar) < 0) {
    snprintf(err, en, "bad argument '%s': expected TYPE:VALUE or buf:TYPE:COUNT[...]", spec);
    return -1;
  }
  return 0;
}

static void print_buffer(int i, const arg *a) {
  printf("arg %d (%s[%" PRIu64 "]):\n", i, tnames[a->type], a->count);
  const uint8_t *p = a->ptr;
  for (uint64_t k = 0; k < a->count; k++) {
    int es = tsize[a->type];
    const uint8_t *e = p + k * (uint64_t)es;
    uint64_t u = 0;
    memcpy(&u, e, (size_t)es); /* little-endian: zero-extended */
    if (a->type <= T_U64) {
      printf("%" PRIu64, u);
    } else if (a->type <= T_S64) {
      int up = 64 - 8 * es;
      printf("%" PRId64, (int64_t)(u << up) >> up);
    } else if (a->type == T_F32) {
      float v;
      memcpy(&v, e, 4);
      printf("%.9g", v);
    } else {
      double v;
      memcpy(&v, e, 8);
      printf("%.17g", v);
    }
    putchar(k + 1 == a->count || k % 8 == 7 ? '\n' : ' ');
  }
}

static int parse_dims(const char *s, uint32_t d[3]) {
  d[0] = d[1] = d[2] = 1;
  for (int i = 0; i < 3; i++) {
    char num[32];
    size_t n = strcspn(s, ",x");
    uint64_t v;
    if (n >= sizeof num) return -1;
    memcpy(num, s, n);
    num[n] = 0;
    if (cli_u64(num, 0xffffffffu, &v) < 0) return -1;
    d[i] = (uint32_t)v;
    if (!s[n]) return 0;
    s += n + 1;
  }
  return -1;
}

static int write_json(const char *path, const smemu_ctx *ctx) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\"launches\": [{");
  smemu_write_launch_json(ctx, f);
  fprintf(f, "}]}\n");
  return fclose(f);
}

/* --check races,sync,init,memory,all */
static int parse_checks(const char *v, uint32_t *an) {
  char *s = strdup(v), *save = NULL;
  int rc = 0;
  for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (!strcmp(t, "races"))
      *an |= SMEMU_ANALYZE_RACES;
    else if (!strcmp(t, "sync"))
      *an |= SMEMU_ANALYZE_SYNC;
    else if (!strcmp(t, "init"))
      *an |= SMEMU_ANALYZE_INIT;
    else if (!strcmp(t, "global-races"))
      *an |= SMEMU_ANALYZE_GLOBAL_RACES;
    else if (!strcmp(t, "racecheck-compat"))
      *an |= SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_RACECHECK_COMPAT;
    else if (!strcmp(t, "memory")) {
    } else if (!strcmp(t, "memcheck"))
      *an |= SMEMU_ANALYZE_MEMCHECK;
    else if (!strcmp(t, "all"))
      *an |= SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_GLOBAL_RACES;
    else {
      fprintf(stderr, "smemu exec: unknown check '%s' (races, sync, init, memory, memcheck, all)\n", t);
      rc = -1;
    }
  }
  free(s);
  return rc;
}

extern char **environ;

/* The whole file, NUL-terminated (malloc'd), or NULL. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *b = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n + 1)) &&
      fread(b, 1, (size_t)n, f) == (size_t)n) {
    b[n] = 0;
    *len = (size_t)n;
  } else {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* --counting: map the module onto its SASS (ptxas + nvdisasm, cached)
 * unless PTX rules were asked for or banks are off; an explicit `sass`
 * that cannot be had is said, the default falls back quietly when a tool
 * is missing (the summary says which counting ran) and says so when one
 * is there but failed. */
static void sass_counting(smemu_ctx *ctx, smemu_module *mod, const char *ptx, size_t len, int counting,
                          uint32_t analyses) {
  if (counting == 2 || !(analyses & SMEMU_ANALYZE_BANKS)) return;
  smemu_status s = smemu_module_count_sass(mod, ptx, len);
  if (s != SMEMU_OK && (counting == 1 || s == SMEMU_ERR_IO))
    fprintf(stderr, "smemu: note: %s: %s; counting by PTX rules\n",
            s == SMEMU_ERR_IO ? "SASS counting" : "--counting sass", smemu_errmsg(ctx));
}

/* CUDA C to PTX: nvcc -arch=ARCH -O3 -lineinfo -ptx, run without a shell
 * into a temporary file. Returns the PTX (malloc'd, *len bytes) or NULL
 * with err telling why (nvcc missing: the CUDA toolkit is needed for .cu). */
char *cu_to_ptx(const char *cu, const char *arch, size_t *len, char *err, size_t en) {
  char out[] = "/tmp/smemu-cu-XXXXXX";
  int fd = mkstemp(out);
  if (fd < 0) {
    snprintf(err, en, "cannot make a temporary file: %s", strerror(errno));
    return NULL;
  }
  close(fd);
  char archopt[64];
  snprintf(archopt, sizeof archopt, "-arch=%s", arch && !strncmp(arch, "sm_", 3) ? arch : "sm_90");
  char *argv[] = {"nvcc", archopt, "-O3", "-lineinfo", "-ptx", "-o", out, (char *)cu, NULL};
  pid_t pid;
  int st = 0, rc = posix_spawnp(&pid, "nvcc", NULL, NULL, argv, environ);
  if (rc != 0) {
    snprintf(err, en,
             "cannot run nvcc (%s): compiling .cu files needs the CUDA toolkit on the PATH; "
             "or give the PTX (nvcc -ptx)",
             strerror(rc));
    unlink(out);
    return NULL;
  }
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    snprintf(err, en, "nvcc could not compile %s (its messages are above)", cu);
    unlink(out);
    return NULL;
  }
  FILE *f = fopen(out, "rb");
  char *buf = NULL;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    rewind(f);
    if (n >= 0 && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
      buf[n] = 0;
      *len = (size_t)n;
    } else {
      free(buf);
      buf = NULL;
    }
  }
  if (f) fclose(f);
  unlink(out);
  if (!buf) snprintf(err, en, "cannot read nvcc's PTX");
  return buf;
}

static int cmd_exec(int argc, char **argv) {
  const char *html = NULL;
  const char *file = NULL, *kname = NULL, *json = NULL, *grid_s = NULL, *block_s = NULL, *cl_opts = NULL;
  const char *cluster_s = NULL;
  smemu_options opt = {0};
  uint32_t shared = 0;
  int64_t max_dyn = -1;
  int quiet = 0, nargs = 0, report_banks = 0, report_pipeline = 0, detailed = 0,
      counting = 0; /* 0 auto, 1 sass, 2 ptx */
  uint64_t num;
  opt.analyses = SMEMU_ANALYZE_BANKS;
  opt.max_warp_instructions = SMEMU_DEFAULT_MAX_INSNS;
  /* the options whose value is kept as given */
  const struct {
    const char *name;
    const char **var;
  } kept[] = {{"--kernel", &kname}, {"--grid", &grid_s}, {"--block", &block_s}, {"--cluster", &cluster_s},
              {"--json", &json},    {"--html", &html},   {"--arch", &opt.arch}, {"--cl-opts", &cl_opts}};
  const char **specs = calloc((size_t)argc + 1, sizeof *specs);
  if (!specs) return 2;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED()                                                                                               \
  do {                                                                                                       \
    if (!v) {                                                                                                \
      fprintf(stderr, "smemu exec: %s needs a value\n", a);                                                  \
      free(specs);                                                                                           \
      return 2;                                                                                              \
    }                                                                                                        \
    i++;                                                                                                     \
  } while (0)
/* a number option: the whole value, at most MAX */
#define NUM(MAX, WHAT)                                                                                       \
  do {                                                                                                       \
    NEED();                                                                                                  \
    if (cli_u64(v, (MAX), &num) < 0) {                                                                       \
      fprintf(stderr, "smemu exec: %s: '%s' is not %s\n", a, v, WHAT);                                       \
      free(specs);                                                                                           \
      return 2;                                                                                              \
    }                                                                                                        \
  } while (0)
    size_t k = 0;
    while (k < sizeof kept / sizeof kept[0] && strcmp(a, kept[k].name)) k++;
    if (k < sizeof kept / sizeof kept[0]) {
      NEED();
      *kept[k].var = v;
    } else if (!strcmp(a, "--shared")) {
      NUM(UINT32_MAX, "a byte count (0 to 4294967295)");
      shared = (uint32_t)num;
    } else if (!strcmp(a, "--max-dynamic-shared")) {
      NUM(UINT32_MAX, "a byte count (0 to 4294967295)");
      max_dyn = (int64_t)num;
    } else if (!strcmp(a, "--timeout")) {
      NEED();
      if (cli_double(v, &opt.timeout_seconds) < 0 || !(opt.timeout_seconds > 0) ||
          opt.timeout_seconds > 1e9) {
        fprintf(stderr, "smemu exec: --timeout: '%s' is not a number of seconds above 0\n", v);
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_exec, stdout);
      free(specs);
      return 0;
    } else if (!strcmp(a, "--arg")) {
      NEED();
      specs[nargs++] = v;
    } else if (!strcmp(a, "--threads")) {
      NUM(1024, "a thread count (1 to 1024, 0: one per core)");
      opt.threads = (int)num;
    } else if (!strcmp(a, "--stack")) {
      NUM(UINT32_MAX, "a byte count (0 to 4294967295)");
      opt.stack_bytes = (uint32_t)num;
    } else if (!strcmp(a, "--max-insns")) {
      NUM(UINT64_MAX, "an instruction count");
      opt.max_warp_instructions = num;
    } else if (!strcmp(a, "--quiet"))
      quiet = 1;
    else if (!strcmp(a, "--report")) {
      NEED();
      if (!strcmp(v, "banks"))
        report_banks = 1;
      else if (!strcmp(v, "hazards"))
        detailed = 1;
      else if (!strcmp(v, "pipeline")) {
        report_pipeline = 1;
        opt.analyses |= SMEMU_ANALYZE_PIPELINE;
      } else {
        fprintf(stderr, "smemu exec: unknown report '%s' (known: banks, hazards, pipeline)\n", v);
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--check")) {
      NEED();
      if (parse_checks(v, &opt.analyses) < 0) {
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--tier")) {
      NEED();
      if (!strcmp(v, "interp"))
        opt.tier = SMEMU_TIER_INTERP;
      else if (!strcmp(v, "jit"))
        opt.tier = SMEMU_TIER_JIT;
      else if (!strcmp(v, "auto"))
        opt.tier = SMEMU_TIER_AUTO;
      else {
        fprintf(stderr, "smemu exec: --tier takes interp, jit or auto\n");
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--schedule")) {
      NEED();
      if (!strcmp(v, "fixed"))
        opt.schedule = SMEMU_SCHEDULE_FIXED;
      else if (!strncmp(v, "random", 6) && (v[6] == 0 || v[6] == ':')) {
        opt.schedule = SMEMU_SCHEDULE_RANDOM;
        opt.seed = 1;
        if (v[6] && cli_u64(v + 7, UINT64_MAX, &opt.seed) < 0) {
          fprintf(stderr, "smemu exec: --schedule: bad seed '%s'\n", v + 7);
          free(specs);
          return 2;
        }
      } else {
        fprintf(stderr, "smemu exec: --schedule takes fixed or random[:SEED]\n");
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--bank-mode")) {
      NEED();
      opt.bank_mode = !strcmp(v, "4") ? 4 : !strcmp(v, "8") ? 8 : 0;
      if (!opt.bank_mode) {
        fprintf(stderr, "smemu exec: --bank-mode takes 4 or 8\n");
        free(specs);
        return 2;
      }
    } else if (!strcmp(a, "--no-banks"))
      opt.analyses &= ~SMEMU_ANALYZE_BANKS;
    else if (!strcmp(a, "--counting")) {
      NEED();
      counting = !strcmp(v, "sass") ? 1 : !strcmp(v, "ptx") ? 2 : -1;
      if (counting < 0) {
        fprintf(stderr, "smemu exec: --counting takes sass or ptx\n");
        free(specs);
        return 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "smemu exec: unknown option %s\n%s", a, usage_exec);
      free(specs);
      return 2;
    } else if (!file)
      file = a;
    else {
      fprintf(stderr, "smemu exec: unexpected argument %s\n", a);
      free(specs);
      return 2;
    }
  }
  uint32_t grid[3], block[3], cdims[3];
  if (!file || !kname || !grid_s || !block_s) {
    fprintf(stderr, "smemu exec: FILE, --kernel, --grid and --block are required\n%s", usage_exec);
    free(specs);
    return 2;
  }
  if (parse_dims(grid_s, grid) < 0 || parse_dims(block_s, block) < 0 ||
      (cluster_s && parse_dims(cluster_s, cdims) < 0)) {
    fprintf(stderr, "smemu exec: bad --grid or --block%s (expected X[,Y[,Z]])\n",
            cluster_s ? " or --cluster" : "");
    free(specs);
    return 2;
  }
  if (!quiet && isatty(2)) {
    /* a status line while a launch runs longer than 2 s */
    opt.progress = smemu_progress_print;
    opt.progress_user = stderr;
  }
  smemu_ctx *ctx;
  if (smemu_create(&opt, &ctx) != SMEMU_OK) {
    fprintf(stderr, "smemu exec: unknown architecture '%s' (see `smemu archs`)\n", opt.arch ? opt.arch : "?");
    free(specs);
    return 2;
  }
  if (opt.bank_mode && smemu_bank_mode(ctx) != opt.bank_mode)
    fprintf(stderr,
            "smemu: note: %s has no %d-byte bank mode; cudaDeviceSetSharedMemConfig is ignored there, "
            "banks stay %d bytes wide\n",
            opt.arch ? opt.arch : "sm_90", opt.bank_mode, smemu_bank_mode(ctx));
  int rc = 1;
  smemu_module *mod;
  smemu_kernel *k;
  arg *args = calloc((size_t)nargs + 1, sizeof *args);
  void **argv2 = calloc((size_t)nargs + 1, sizeof *argv2);
  if (!args || !argv2) goto out;
  size_t flen = strlen(file);
  if (flen > 3 && !strcmp(file + flen - 3, ".cu")) {
    char cerr[1024];
    size_t plen = 0;
    char *ptx = cu_to_ptx(file, opt.arch, &plen, cerr, sizeof cerr);
    if (!ptx) {
      fprintf(stderr, "smemu: %s\n", cerr);
      goto out;
    }
    char pname[1024];
    snprintf(pname, sizeof pname, "%s.ptx", file);
    smemu_status ls = smemu_module_load_data(ctx, ptx, plen, pname, &mod);
    if (ls == SMEMU_OK) sass_counting(ctx, mod, ptx, plen, counting, opt.analyses);
    free(ptx);
    if (ls != SMEMU_OK) {
      fprintf(stderr, "smemu: %s\n", smemu_errmsg(ctx));
      goto out;
    }
  } else if (flen > 3 && !strcmp(file + flen - 3, ".cl")) {
    char *ptx = NULL, cerr[8192];
    size_t plen = 0;
    int c = clc_compile(file, cl_opts, &ptx, &plen, cerr, sizeof cerr);
    if (c != CLC_OK) {
      fprintf(stderr, "smemu: %s\n", cerr);
      goto out;
    }
    if (cerr[0]) fprintf(stderr, "%s", cerr);
    char pname[1024];
    snprintf(pname, sizeof pname, "%s.ptx", file); /* messages point into the generated PTX */
    smemu_status ls = smemu_module_load_data(ctx, ptx, plen, pname, &mod);
    if (ls == SMEMU_OK) sass_counting(ctx, mod, ptx, plen, counting, opt.analyses);
    free(ptx);
    if (ls != SMEMU_OK) {
      fprintf(stderr, "smemu: %s\n", smemu_errmsg(ctx));
      goto out;
    }
  } else if (smemu_module_load_file(ctx, file, &mod) != SMEMU_OK) {
    fprintf(stderr, "smemu: %s\n", smemu_errmsg(ctx));
    goto out;
  } else {
    size_t plen = 0;
    char *ptx = read_file(file, &plen);
    if (ptx) sass_counting(ctx, mod, ptx, plen, counting, opt.analyses);
    free(ptx);
  }
  if (smemu_module_get_kernel(mod, kname, &k) != SMEMU_OK) {
    fprintf(stderr, "smemu: %s\n", smemu_errmsg(ctx));
    goto out;
  }
  if (nargs != smemu_kernel_param_count(k)) {
    fprintf(stderr, "smemu exec: kernel %s takes %d parameter(s), %d --arg given\n", smemu_kernel_name(k),
            smemu_kernel_param_count(k), nargs);
    rc = 2;
    goto out;
  }
  for (int i = 0; i < nargs; i++) {
    char err[512];
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    int pr = parse_arg(ctx, specs[i], &args[i], err, sizeof err);
    if (pr < 0) {
      fprintf(stderr, "smemu exec: --arg %d: %s\n", i + 1, err);
      rc = pr == -2 ? 1 : 2;
      goto out;
    }
    rc = 2; /* the mismatches below are usage errors */
    if (pi.is_local != args[i].is_local) {
      fprintf(stderr, "smemu exec: --arg %d: parameter %s %s\n", i + 1, pi.name,
              pi.is_local ? "is a __local pointer: give local:BYTES" : "is not a __local pointer");
      goto out;
    }
    if (args[i].is_local) {
      argv2[i] = args[i].scalar;
    } else if (args[i].is_buf) {
      if (pi.size != 8) {
        fprintf(stderr, "smemu exec: --arg %d: parameter %s is %u bytes, not a pointer\n", i + 1, pi.name,
                pi.size);
        goto out;
      }
      argv2[i] = &args[i].ptr;
    } else {
      if ((uint32_t)tsize[args[i].type] != pi.size) {
        fprintf(stderr, "smemu exec: --arg %d: parameter %s is %u bytes, the value is %d\n", i + 1, pi.name,
                pi.size, tsize[args[i].type]);
        goto out;
      }
      argv2[i] = args[i].scalar;
    }
    rc = 1;
  }
  if (max_dyn >= 0 && smemu_kernel_set_attribute(k, SMEMU_ATTR_MAX_DYNAMIC_SHARED, max_dyn) != SMEMU_OK) {
    /* cudaFuncSetAttribute fails the same way (cudaErrorInvalidValue) */
    fprintf(stderr, "smemu: error: --max-dynamic-shared: %s\n", smemu_errmsg(ctx));
    goto out;
  }
  smemu_status s = smemu_launch_cluster(ctx, k, grid, block, cluster_s ? cdims : NULL, shared, argv2);
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  int found = 0;
  if (opt.analyses &
      (SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_GLOBAL_RACES)) {
    fflush(stdout);
    smemu_write_race_report(ctx, stderr, detailed);
    found = smemu_hazard_count(ctx) + smemu_sync_error_count(ctx);
    found += smemu_write_uninit_report(ctx, stderr);
  }
  if (s != SMEMU_OK && smemu_fault_total(ctx)) {
    /* --check memcheck: every thread that made a bad address */
    int n = smemu_fault_count(ctx);
    for (int i = 0; i < n && i < 100; i++) {
      smemu_fault f;
      if (smemu_fault_get(ctx, i, &f) == SMEMU_OK) smemu_write_fault_text(&f, stderr);
    }
    fprintf(stderr, "========= ERROR SUMMARY: %llu errors%s\n", (unsigned long long)smemu_fault_total(ctx),
            smemu_fault_total(ctx) > 100 ? " (the first 100 printed)" : "");
  }
  if (s != SMEMU_OK) {
    fprintf(stderr, "smemu: error: %s (%s)\n", smemu_errmsg(ctx), smemu_status_name(s));
    if (s == SMEMU_ERR_OUT_OF_RESOURCES && max_dyn < 0)
      fprintf(stderr,
              "smemu: hint: --max-dynamic-shared BYTES is the opt-in cudaFuncSetAttribute gives programs\n");
  } else {
    rc = 0;
    for (int i = 0; i < nargs; i++) {
      if (!args[i].is_buf) continue;
      if (args[i].print) print_buffer(i, &args[i]);
      if (args[i].save) {
        FILE *f = fopen(args[i].save, "wb");
        size_t bytes = args[i].count * (uint64_t)tsize[args[i].type];
        if (!f || fwrite(args[i].ptr, 1, bytes, f) != bytes) {
          fprintf(stderr, "smemu exec: cannot write %s\n", args[i].save);
          rc = 1;
        }
        if (f) fclose(f);
      }
    }
    fflush(stdout);
    smemu_bank_counts bc;
    if (report_banks) {
      if (smemu_last_bank_counts(ctx, &bc) == SMEMU_OK)
        smemu_write_bank_report(ctx, stdout, 10);
      else
        fprintf(stderr, "smemu: --report banks needs the bank model (drop --no-banks)\n");
      fflush(stdout);
    }
    if (report_pipeline) {
      smemu_write_pipeline_report(ctx, stdout);
      fflush(stdout);
    }
    if (!quiet) {
      fprintf(stderr,
              "smemu: %s grid (%u,%u,%u) block (%u,%u,%u): %" PRIu64 " warp / %" PRIu64
              " thread instructions in %.3f s (%s)",
              st->kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2], st->warp_instructions,
              st->thread_instructions, st->seconds, st->tier ? st->tier : "interp");
      smemu_counting cn;
      if (smemu_last_bank_counts(ctx, &bc) == SMEMU_OK) {
        fprintf(stderr,
                "; shared ld %" PRIu64 " req %" PRIu64 " conflicts, st %" PRIu64 " req %" PRIu64
                " conflicts, atom %" PRIu64 " req %" PRIu64 " conflicts",
                bc.requests[0], bc.conflicts[0], bc.requests[1], bc.conflicts[1], bc.requests[2],
                bc.conflicts[2]);
        if (st->shared_contention)
          fprintf(stderr, " (of which contention: %" PRIu64 " req)", st->shared_contention);
        fprintf(stderr, "; counting %s",
                smemu_last_counting(ctx, &cn) == SMEMU_OK && cn.sass ? "sass" : "ptx");
      }
      fputc('\n', stderr);
    }
  }
  if (found && rc == 0) rc = 3;
  if (html) {
    smemu_html *h = smemu_html_new(file);
    smemu_html_add(h, ctx, s);
    if (!h || smemu_html_write(h, html) != 0) {
      fprintf(stderr, "smemu exec: cannot write %s\n", html);
      rc = 1;
    }
    smemu_html_free(h);
  }
  if (json && write_json(json, ctx) != 0) {
    fprintf(stderr, "smemu exec: cannot write %s\n", json);
    rc = 1;
  }
out:
  for (int i = 0; args && i < nargs; i++) free((void *)args[i].save);
  free(args);
  free(argv2);
  free(specs);
  smemu_destroy(ctx);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_main, stderr);
    return 2;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--version") || !strcmp(c, "version")) {
    printf("smemu %s\n", smemu_version());
    return 0;
  }
  if (!strcmp(c, "help") || !strcmp(c, "--help") || !strcmp(c, "-h")) {
    if (argc > 2 && !strcmp(argv[2], "exec"))
      fputs(usage_exec, stdout);
    else if (argc > 2 && !strcmp(argv[2], "lint")) {
      char *h[] = {"--help"};
      return smemu_cmd_lint(1, h);
    } else if (argc > 2 && !strcmp(argv[2], "run")) {
      char *h[] = {"--help"};
      return smemu_cmd_run(1, h);
    } else
      fputs(usage_main, stdout);
    return 0;
  }
  if (!strcmp(c, "exec")) return cmd_exec(argc - 2, argv + 2);
  if (!strcmp(c, "run")) return smemu_cmd_run(argc - 2, argv + 2);
  if (!strcmp(c, "lint")) return smemu_cmd_lint(argc - 2, argv + 2);
  if (!strcmp(c, "archs")) return smemu_print_archs(stdout) < 0;
  fprintf(stderr, "smemu: unknown command '%s'\n%s", c, usage_main);
  return 2;
}
