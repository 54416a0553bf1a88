/* run_cmd.c: `smemu run`, which runs a whole CUDA program on the drop-in
 * runtime: `smemu run [options] -- PROGRAM [ARGS]` starts PROGRAM with
 * build/runtime first on LD_LIBRARY_PATH and the options passed as SMEMU_*
 * environment variables, waits for it and prints the reports after its
 * output; `smemu run [options] FILE.cu... [-- ARGS]` first compiles the
 * sources with nvcc (-cudart shared, -lineinfo, the architecture's PTX
 * kept) into a cache. Before starting a program it reads its ELF header:
 * a program linked with another CUDA version's shared runtime gets a
 * message saying how to rebuild it; one linked with the static runtime
 * reaches smemu through libcuda.so.1. Uses only smemu.h. */
#include "run_cmd.h"
#include "run_cache.h"
#include "run_num.h"
#include "run_spawn.h"

#include "smemu.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
    "usage: smemu run [options] -- PROGRAM [ARGS...]\n"
    "       smemu run [options] FILE.cu [FILE.cu...] [-- ARGS...]\n"
    "\n"
    "Runs a CUDA program on the CPU. PROGRAM is built by CUDA 13's nvcc, with\n"
    "the static runtime (the default) or -cudart shared, and carries PTX (nvcc\n"
    "-arch=sm_XX embeds it); it loads smemu's libcudart.so.13 or libcuda.so.1\n"
    "instead of NVIDIA's. With .cu\n"
    "files, smemu compiles them first with nvcc -cudart shared -lineinfo\n"
    "-arch=sm_XX (again with -rdc=true when that fails: kernels that launch\n"
    "kernels need it) into a cache ($SMEMU_CACHE, else ~/.cache/smemu), which must be\n"
    "a private directory of yours (mode 0700); a build is reused while the\n"
    "sources and every header they include are unchanged.\n"
    "\n"
    "options:\n"
    "  --arch sm_XX       architecture profile (default sm_90; see `smemu archs`)\n"
    "  --check LIST       checks on every launch, comma-separated: races\n"
    "                     (shared-memory hazards, like compute-sanitizer racecheck),\n"
    "                     sync (barrier misuse, like synccheck), init (reads of\n"
    "                     uninitialised shared or global memory,\n"
    "                     like initcheck), global-races, banks (the\n"
    "                     bank model), all; memory (bounds of every access) is\n"
    "                     always on; naming it (memcheck) reports every thread\n"
    "                     that made a bad address and every call that failed\n"
    "                     after it, as compute-sanitizer's memcheck does.\n"
    "                     Findings are printed after the program.\n"
    "  --report LIST      after the program: launches (per kernel: launches,\n"
    "                     instructions, time, bank totals), banks (also the bank\n"
    "                     report of each kernel's worst launch), hazards (with\n"
    "                     --check races: every hazard in detail), pipeline (the\n"
    "                     async pipeline of each kernel's last launch: copies,\n"
    "                     mbarrier phases, bytes in flight), all\n"
    "  --json FILE        write every launch's figures to FILE\n"
    "  --html FILE        write a self-contained HTML report (launches, source\n"
    "                     shaded by bank conflicts, the worst accesses' banks,\n"
    "                     races, barrier and memory errors) to FILE\n"
    "  --threads N        worker threads per launch (default: one per core)\n"
    "  --tier T           interp, jit or auto (default): how kernels run\n"
    "                     (SMEMU_TIER; results are the same)\n"
    "  --max-insns N      stop a launch when its warps have run N instructions\n"
    "                     together (cudaErrorLaunchTimeout; default 10000000000,\n"
    "                     0: none)\n"
    "  --timeout SECONDS  stop a launch running longer (cudaErrorLaunchTimeout)\n"
    "  --error-exitcode N exit with status N (1..255) when a launch failed or the\n"
    "                     checks found errors (as compute-sanitizer's option)\n"
    "  --quiet            no smemu messages (kernel faults, warnings) on stderr\n"
    "  --continue-after-error  a kernel fault ends its launch only; the program\n"
    "                     goes on and later calls succeed (compute-sanitizer's\n"
    "                     --destroy-on-device-error kernel, also accepted)\n"
    "  --leak-check full  at exit, list device allocations never freed (errors)\n"
    "  --padding N        at least N bytes of red zone after each device\n"
    "                     allocation (compute-sanitizer's option): an access just\n"
    "                     past an allocation is out of bounds, not in the next one.\n"
    "                     Default 1: allocations come in 512-byte units, so that\n"
    "                     moves only those after a multiple of 512; 0: cudaMalloc's\n"
    "                     layout, where such an access is missed, as on the GPU\n"
    "  --print-limit N    print the first N errors in compute-sanitizer's shape\n"
    "                     (default 100, 0: all); ERROR SUMMARY counts them all\n"
    "  --nvcc PATH        the compiler for .cu files (default: nvcc on the PATH)\n"
    "  --counting sass|ptx  count shared requests per SASS instruction (the\n"
    "                     program's sm_XX cubin, or ptxas, disassembled by nvdisasm)\n"
    "                     or by PTX rules; default: sass when the tools exist\n"
    "\n"
    "A launch in which no warp can make progress (a spin on a value nothing will\n"
    "change) fails at once with cudaErrorLaunchTimeout, naming the looping lines.\n"
    "On a terminal a launch running longer than 2 s shows a status line.\n"
    "The reports are written also when the program exits without synchronising,\n"
    "aborts or dies of a signal (after a crash the queued launches run first).\n"
    "Python: CuPy and Numba scripts run as PROGRAM (smemu run -- python3 x.py);\n"
    "CUPY_COMPILE_WITH_PTX=1 is set unless it is set, so that CuPy hands smemu PTX.\n"
    "\n"
    "exit status: the program's own; 2 for bad usage or a program smemu cannot\n"
    "run; 127 when it cannot be started; 128+N when signal N killed it; with\n"
    "--error-exitcode N, N when a launch failed or the checks found errors.\n"
    "Device printf output and the\n"
    "program's own output are on stdout, smemu's messages on stderr.\n"
    "\n"
    "examples:\n"
    "  nvcc -arch=sm_90 -cudart shared -o reverse examples/programs/reverse_main.cu\n"
    "  smemu run -- ./reverse\n"
    "  smemu run --arch sm_80 --report banks examples/programs/matmul_main.cu\n";

/* ---- where the drop-in libraries are ---- */

static int has_runtime(const char *dir) {
  char p[PATH_MAX + 64];
  if (snprintf(p, sizeof p, "%s/libcudart.so.13", dir) >= (int)sizeof p) return 0;
  return access(p, R_OK) == 0;
}

static int find_runtime(char *out, size_t n) {
  const char *env = getenv("SMEMU_RUNTIME_DIR");
  if (env && *env) {
    snprintf(out, n, "%s", env);
    return has_runtime(out) ? 0 : -1;
  }
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k <= 0) return -1;
  exe[k] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = 0;
  static const char *const rel[] = {"runtime", "../runtime", "../lib/smemu", "."};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char d[PATH_MAX + 32];
    snprintf(d, sizeof d, "%s/%s", exe, rel[i]);
    if (has_runtime(d) && realpath(d, out)) return 0;
  }
  return -1;
}

/* ---- what kind of program it is ---- */

enum { PROG_OTHER, PROG_SHARED, PROG_STATIC, PROG_OLD_CUDART, PROG_DRIVER };

static uint64_t rd(const unsigned char *p, int n) {
  uint64_t v = 0;
  memcpy(&v, p, (size_t)n);
  return v;
}

/* Reads PROGRAM's dynamic dependencies and sections (64-bit ELF); *rpath
 * is set when it has a DT_RPATH, which the loader searches before
 * LD_LIBRARY_PATH. */
static int program_kind(const char *path, char *needed_cudart, size_t nn, int *rpath) {
  FILE *f = fopen(path, "rb");
  if (!f) return PROG_OTHER;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size < 64 || size > (1l << 31)) {
    fclose(f);
    return PROG_OTHER;
  }
  unsigned char *e = malloc((size_t)size);
  if (!e || fread(e, 1, (size_t)size, f) != (size_t)size) {
    free(e);
    fclose(f);
    return PROG_OTHER;
  }
  fclose(f);
  int kind = PROG_OTHER, fatbin = 0, cudart = 0, driver = 0;
  if (memcmp(e, "\177ELF", 4) || e[4] != 2) goto out;
  uint64_t shoff = rd(e + 0x28, 8);
  unsigned shentsize = (unsigned)rd(e + 0x3a, 2), shnum = (unsigned)rd(e + 0x3c, 2),
           shstrndx = (unsigned)rd(e + 0x3e, 2);
  if (shentsize < 64 || shoff + (uint64_t)shnum * shentsize > (uint64_t)size || shstrndx >= shnum) goto out;
  const unsigned char *shs = e + shoff + (size_t)shstrndx * shentsize;
  uint64_t stroff = rd(shs + 24, 8), strsz = rd(shs + 32, 8);
  if (stroff + strsz > (uint64_t)size) goto out;
  for (unsigned i = 0; i < shnum; i++) {
    const unsigned char *s = e + shoff + (size_t)i * shentsize;
    uint32_t nm = (uint32_t)rd(s, 4);
    if (nm >= strsz) continue;
    const char *name = (const char *)e + stroff + nm;
    if (!strcmp(name, ".nv_fatbin") || !strcmp(name, ".nvFatBinSegment")) fatbin = 1;
    if (rd(s + 4, 4) != 6) continue; /* SHT_DYNAMIC */
    uint64_t off = rd(s + 24, 8), sz = rd(s + 32, 8);
    uint32_t link = (uint32_t)rd(s + 40, 4);
    if (off + sz > (uint64_t)size || link >= shnum) continue;
    const unsigned char *ls = e + shoff + (size_t)link * shentsize;
    uint64_t dso = rd(ls + 24, 8), dsz = rd(ls + 32, 8);
    if (dso + dsz > (uint64_t)size) continue;
    for (uint64_t d = 0; d + 16 <= sz; d += 16) {
      uint64_t tag = rd(e + off + d, 8), val = rd(e + off + d + 8, 8);
      if (tag == 15) *rpath = 1;            /* DT_RPATH */
      if (tag != 1 || val >= dsz) continue; /* DT_NEEDED */
      const char *lib = (const char *)e + dso + val;
      if (!strncmp(lib, "libcudart.so", 12)) {
        cudart = strcmp(lib, "libcudart.so.13") ? 2 : 1;
        snprintf(needed_cudart, nn, "%s", lib);
      }
      if (!strncmp(lib, "libcuda.so", 10)) driver = 1;
    }
  }
  if (cudart == 1)
    kind = PROG_SHARED;
  else if (cudart == 2)
    kind = PROG_OLD_CUDART;
  else if (driver)
    kind = PROG_DRIVER;
  else if (fatbin)
    kind = PROG_STATIC;
out:
  free(e);
  return kind;
}

/* ---- the command ---- */

/* Whether a comma-separated list holds a word not in `known` (says which). */
static int bad_word(const char *list, const char *const *known, const char *what) {
  for (const char *s = list; s && *s;) {
    size_t n = strcspn(s, ","), i;
    for (i = 0; known[i]; i++)
      if (strlen(known[i]) == n && !strncmp(known[i], s, n)) break;
    if (!known[i]) {
      fprintf(stderr, "smemu run: unknown %s '%.*s' (known:", what, (int)n, s);
      for (i = 0; known[i]; i++) fprintf(stderr, " %s", known[i]);
      fprintf(stderr, ")\n");
      return 1;
    }
    s += n + (s[n] == ',');
  }
  return 0;
}

/* An option's value that must be a count (absent is fine): 0 or -1 with a message. */
static int count_ok(const char *opt, const char *v) {
  char *end = NULL;
  if (v && (!*v || (strtoull(v, &end, 10), *end) || *v == '-')) {
    fprintf(stderr, "smemu run: %s takes a number, not '%s'\n", opt, v);
    return -1;
  }
  return 0;
}

/* compute-sanitizer's options: --destroy-on-device-error context|kernel,
 * --leak-check full|no, --print-limit N. */
static int san_options(const char *destroy, const char *leak, const char *plimit, int *cont) {
  if (destroy && strcmp(destroy, "kernel") && strcmp(destroy, "context")) {
    fprintf(stderr, "smemu run: --destroy-on-device-error takes kernel or context, not '%s'\n", destroy);
    return -1;
  }
  if (destroy && !strcmp(destroy, "kernel")) *cont = 1;
  if (leak && strcmp(leak, "full") && strcmp(leak, "no")) {
    fprintf(stderr, "smemu run: --leak-check takes full or no, not '%s'\n", leak);
    return -1;
  }
  return count_ok("--print-limit", plimit);
}

static void set_env(const char *name, const char *value) {
  if (value) setenv(name, value, 1);
}

/* name=path made absolute (the program may change directory), when given */
static void set_path_env(const char *name, const char *path) {
  char abs[PATH_MAX];
  if (!path) return;
  if (path[0] != '/' && getcwd(abs, sizeof abs)) {
    size_t k = strlen(abs);
    snprintf(abs + k, sizeof abs - k, "/%s", path);
  } else {
    snprintf(abs, sizeof abs, "%s", path);
  }
  setenv(name, abs, 1);
}

int smemu_cmd_run(int argc, char **argv) {
  const char *arch = NULL, *check = NULL, *report = NULL, *json = NULL, *html = NULL, *threads = NULL,
             *max_insns = NULL;
  const char *nvcc = NULL, *timeout = NULL, *exitcode = NULL, *counting = NULL;
  const char *leak = NULL, *plimit = NULL, *destroy = NULL, *tier = NULL, *padding = NULL;
  int quiet = 0, cont = 0, i;
  const char *srcs[64];
  int nsrc = 0;
  char **prog = NULL;
  /* the options that take a value, and where it goes */
  const struct {
    const char *name;
    const char **var;
  } valued[] = {{"--arch", &arch},
                {"--check", &check},
                {"--report", &report},
                {"--json", &json},
                {"--html", &html},
                {"--threads", &threads},
                {"--tier", &tier},
                {"--max-insns", &max_insns},
                {"--nvcc", &nvcc},
                {"--counting", &counting},
                {"--timeout", &timeout},
                {"--error-exitcode", &exitcode},
                {"--destroy-on-device-error", &destroy},
                {"--leak-check", &leak},
                {"--print-limit", &plimit},
                {"--padding", &padding}};
  const size_t nvalued = sizeof valued / sizeof valued[0];
  for (i = 0; i < argc; i++) {
    const char *a = argv[i];
    size_t k = 0;
    while (k < nvalued && strcmp(a, valued[k].name)) k++;
    if (k < nvalued) {
      if (i + 1 >= argc) {
        fprintf(stderr, "smemu run: %s needs a value\n", a);
        return 2;
      }
      *valued[k].var = argv[++i];
      if (valued[k].var == &counting && strcmp(counting, "sass") && strcmp(counting, "ptx")) {
        fprintf(stderr, "smemu run: --counting takes sass or ptx\n");
        return 2;
      }
    } else if (!strcmp(a, "--")) {
      prog = argv + i + 1;
      break;
    } else if (!strcmp(a, "--quiet"))
      quiet = 1;
    else if (!strcmp(a, "--continue-after-error"))
      cont = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return 0;
    } else if (a[0] == '-') {
      fprintf(stderr, "smemu run: unknown option %s\n%s", a, usage);
      return 2;
    } else if (strlen(a) > 3 && !strcmp(a + strlen(a) - 3, ".cu")) {
      if (nsrc < 64) srcs[nsrc++] = a;
    } else if (!nsrc) {
      prog = argv + i; /* PROGRAM without `--` */
      break;
    } else {
      fprintf(stderr, "smemu run: unexpected argument %s (program arguments go after --)\n", a);
      return 2;
    }
  }
  smemu_arch_info ai;
  if (smemu_arch_query(arch, &ai) != SMEMU_OK) {
    fprintf(stderr, "smemu run: unknown architecture '%s' (see `smemu archs`)\n", arch);
    return 2;
  }
  static const char *const reports[] = {"launches", "banks", "hazards", "pipeline", "all", NULL};
  static const char *const check_names[] = {"races",  "racecheck", "sync",         "synccheck",
                                            "init",   "initcheck", "global-races", "banks",
                                            "memory", "memcheck",  "all",          NULL};
  if (bad_word(report, reports, "report") || bad_word(check, check_names, "check")) return 2;
  if (san_options(destroy, leak, plimit, &cont) < 0 || count_ok("--padding", padding) < 0) return 2;
  if (tier && strcmp(tier, "interp") && strcmp(tier, "jit") && strcmp(tier, "auto")) {
    fprintf(stderr, "smemu run: --tier takes interp, jit or auto, not '%s'\n", tier);
    return 2;
  }
  uint64_t num, errcode = 0;
  double secs;
  if (threads && cli_u64(threads, 1024, &num) < 0) {
    fprintf(stderr, "smemu run: --threads: '%s' is not a thread count (1 to 1024, 0: one per core)\n",
            threads);
    return 2;
  }
  if (max_insns && cli_u64(max_insns, UINT64_MAX, &num) < 0) {
    fprintf(stderr, "smemu run: --max-insns: '%s' is not an instruction count\n", max_insns);
    return 2;
  }
  if (timeout && (cli_double(timeout, &secs) < 0 || !(secs > 0) || secs > 1e9)) {
    fprintf(stderr, "smemu run: --timeout: '%s' is not a number of seconds above 0\n", timeout);
    return 2;
  }
  if (exitcode && (cli_u64(exitcode, 255, &errcode) < 0 || errcode == 0)) {
    fprintf(stderr, "smemu run: --error-exitcode: '%s' is not an exit status (1 to 255)\n", exitcode);
    return 2;
  }
  char rtdir[PATH_MAX];
  if (find_runtime(rtdir, sizeof rtdir) < 0) {
    fprintf(stderr, "smemu run: cannot find smemu's libcudart.so.13 (build it with `make`, or set "
                    "SMEMU_RUNTIME_DIR to the folder holding it)\n");
    return 2;
  }
  char built[PATH_MAX];
  char **args = prog;
  int ptx_any = 0;
  if (nsrc) {
    char found[PATH_MAX] = "";
    if (!nvcc) {
      const char *path = getenv("PATH");
      while (path && *path && !found[0]) {
        size_t n = strcspn(path, ":");
        char c[PATH_MAX];
        snprintf(c, sizeof c, "%.*s/nvcc", (int)n, path);
        if (access(c, X_OK) == 0) snprintf(found, sizeof found, "%s", c);
        path += n + (path[n] == ':');
      }
      if (!found[0] && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
        snprintf(found, sizeof found, "/usr/local/cuda/bin/nvcc");
      if (!found[0]) {
        fprintf(stderr, "smemu run: compiling .cu files needs nvcc (CUDA 13) on the PATH, or --nvcc PATH\n");
        return 2;
      }
      nvcc = found;
    }
    if (rc_compile(nvcc, srcs, nsrc, ai.major * 10 + ai.minor, built, sizeof built, &ptx_any) < 0) return 2;
    /* the program's own arguments follow -- */
    int extra = prog ? (int)(argc - (prog - argv)) : 0;
    args = calloc((size_t)extra + 2, sizeof *args);
    if (!args) return 2;
    args[0] = built;
    for (int k = 0; k < extra; k++) args[k + 1] = prog[k];
  }
  if (!args || !args[0]) {
    fprintf(stderr, "smemu run: no program given\n%s", usage);
    return 2;
  }
  char needed[64] = "";
  char resolved[PATH_MAX];
  const char *path = args[0];
  if (!strchr(path, '/')) {
    /* as execvp would find it */
    const char *p = getenv("PATH");
    while (p && *p) {
      size_t n = strcspn(p, ":");
      snprintf(resolved, sizeof resolved, "%.*s/%s", (int)n, p, args[0]);
      if (access(resolved, X_OK) == 0) {
        path = resolved;
        break;
      }
      p += n + (p[n] == ':');
    }
  }
  int rpath = 0;
  switch (program_kind(path, needed, sizeof needed, &rpath)) {
  case PROG_STATIC:
    /* NVIDIA's static runtime, linked in: it dlopens libcuda.so.1, which is
     * smemu's on the path set below (export_tables.c) */
    break;
  case PROG_OLD_CUDART:
    fprintf(stderr,
            "smemu run: %s needs %s; smemu's drop-in is the CUDA 13 runtime (libcudart.so.13): "
            "rebuild it with CUDA 13's nvcc and -cudart shared\n",
            args[0], needed);
    return 2;
  default:
    break;
  }
  /* the environment the runtime reads */
  const char *old = getenv("LD_LIBRARY_PATH");
  size_t ln = strlen(rtdir) + (old ? strlen(old) : 0) + 2;
  char *lp = malloc(ln);
  if (!lp) return 2;
  snprintf(lp, ln, "%s%s%s", rtdir, old && *old ? ":" : "", old && *old ? old : "");
  setenv("LD_LIBRARY_PATH", lp, 1);
  free(lp);
  if (rpath) {
    /* an RPATH could find NVIDIA's libraries first: preload ours, whose
     * sonames then satisfy the program's dependencies */
    char pre[2 * PATH_MAX + 64];
    snprintf(pre, sizeof pre, "%s/libcudart.so.13:%s/libcuda.so.1", rtdir, rtdir);
    setenv("LD_PRELOAD", pre, 1);
  }
  set_env("SMEMU_ARCH", ai.name);
  set_env("SMEMU_CHECK", check);
  set_env("SMEMU_REPORT", report);
  set_env("SMEMU_THREADS", threads);
  set_env("SMEMU_TIER", tier);
  set_env("SMEMU_MAX_INSNS", max_insns);
  set_env("SMEMU_COUNTING", counting);
  set_env("SMEMU_TIMEOUT", timeout);
  if (quiet) setenv("SMEMU_QUIET", "1", 1);
  if (cont) setenv("SMEMU_CONTINUE_AFTER_ERROR", "1", 1);
  if (leak && !strcmp(leak, "full")) setenv("SMEMU_LEAK_CHECK", "full", 1);
  set_env("SMEMU_PRINT_LIMIT", plimit);
  set_env("SMEMU_PADDING", padding);
  if (ptx_any) setenv("SMEMU_PTX_ANY", "1", 1);
  /* CuPy asks NVRTC for a cubin (SASS alone) where the device's
   * architecture allows; smemu runs PTX, which this makes CuPy ask for.
   * A value the user set is theirs to keep. */
  setenv("CUPY_COMPILE_WITH_PTX", "1", 0);
  set_path_env("SMEMU_JSON", json);
  set_path_env("SMEMU_HTML", html);
  char rfile[] = "/tmp/smemu-report-XXXXXX";
  int rfd = -1;
  if (report || check || cont || leak || plimit) {
    rfd = mkstemp(rfile);
    if (rfd >= 0) setenv("SMEMU_REPORT_FILE", rfile, 1);
  }
  char efile[] = "/tmp/smemu-errors-XXXXXX";
  int efd = -1;
  if (errcode) {
    efd = mkstemp(efile);
    if (efd >= 0) setenv("SMEMU_ERROR_FILE", efile, 1);
  }
  fflush(stdout);
  int rc = rs_run_program(args);
  if (rc < 0) rc = 127;
  if (efd >= 0) {
    char buf[32] = "";
    ssize_t k = read(efd, buf, sizeof buf - 1);
    if (k > 0 && strtoull(buf, NULL, 10) > 0) rc = (int)errcode;
    close(efd);
    unlink(efile);
  }
  if (rfd >= 0) {
    /* the reports come after everything the program printed */
    char buf[65536];
    ssize_t k;
    lseek(rfd, 0, SEEK_SET);
    while ((k = read(rfd, buf, sizeof buf)) > 0) fwrite(buf, 1, (size_t)k, stdout);
    fflush(stdout);
    close(rfd);
    unlink(rfile);
  }
  if (args != prog) free(args);
  return rc;
}
