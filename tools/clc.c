/* clc.c: OpenCL C to PTX through clang-14 and libclc-14 (see clc.h). The
 * compiler runs with posix_spawn and argument vectors, never a shell, in a
 * private temporary directory; missing tools give a message naming the
 * Debian package. */
#include "clc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CLANG_NAME "clang-14"
#define TARGET "nvptx64-nvidia-nvcl" /* NVPTX for OpenCL: texmode_independent, .ptr params */
#define LIBCLC_FILE "nvptx64--nvidiacl.bc"

/* Where Debian (and LLVM's own packages) put libclc's NVPTX library. */
static const char *const libclc_dirs[] = {"/usr/lib/clc", "/usr/lib/llvm-14/lib/clc", "/usr/share/clc", NULL};

/* What libclc-14 leaves out or cannot lower for NVPTX, linked before libclc
 * (so these definitions win):
 * - get_global_offset: launches (cuLaunchKernel, smemu_launch) have no global
 *   offset and libclc's get_global_id adds none, so it is 0 in every dimension;
 * - work_group_barrier (OpenCL 2.0's name of barrier, with -cl-std=CL2.0): a
 *   barrier, with a device-wide fence first for a global fence of wider
 *   scope than the work-group;
 * - the native_ exponentials, logarithms and trigonometry: libclc's use LLVM
 *   intrinsics the NVPTX back end cannot select (clang-14 stops with
 *   "Undefined external symbol expf" or "Cannot select fsin"); these use the
 *   GPU's approximate instructions (ex2/lg2/sin/cos.approx.f32), as CUDA's
 *   __expf and friends do. */
static const char extra_src[] =
    "size_t __attribute__((overloadable)) get_global_offset(uint dim) { return 0; }\n"
    "void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags)\n"
    "{ barrier(flags); }\n"
    "void __attribute__((overloadable)) work_group_barrier(cl_mem_fence_flags flags,\n"
    "                                                      memory_scope scope)\n"
    "{\n"
    "  if ((flags & CLK_GLOBAL_MEM_FENCE) && scope != memory_scope_work_group &&\n"
    "      scope != memory_scope_work_item)\n"
    "    __nvvm_membar_gl();\n"
    "  barrier(flags);\n"
    "}\n"
    "#define OVL __attribute__((overloadable))\n"
    "#define VEC1(T, N, name, lo, hi) \\\n"
    "  T##N OVL name(T##N x) { return (T##N)(name(x.lo), name(x.hi)); }\n"
    "#define VEC2(T, N, name, lo, hi) \\\n"
    "  T##N OVL name(T##N x, T##N y) { return (T##N)(name(x.lo, y.lo), name(x.hi, y.hi)); }\n"
    "#define ALLVEC(V, name) V(float, 2, name, lo, hi) V(float, 3, name, s01, s2) \\\n"
    "  V(float, 4, name, lo, hi) V(float, 8, name, lo, hi) V(float, 16, name, lo, hi)\n"
    "#define NATIVE1(name, expr) float OVL name(float x) { return expr; } ALLVEC(VEC1, name)\n"
    "#define NATIVE2(name, expr) float OVL name(float x, float y) { return expr; } \\\n"
    "  ALLVEC(VEC2, name)\n"
    "NATIVE1(native_exp2, __nvvm_ex2_approx_f(x))\n"
    "NATIVE1(native_exp, __nvvm_ex2_approx_f(x * M_LOG2E_F))\n"
    "NATIVE1(native_exp10, __nvvm_ex2_approx_f(x * 3.32192809488736234787f))\n"
    "NATIVE1(native_log2, __nvvm_lg2_approx_f(x))\n"
    "NATIVE1(native_log, __nvvm_lg2_approx_f(x) * M_LN2_F)\n"
    "NATIVE1(native_log10, __nvvm_lg2_approx_f(x) * 0.301029995663981195214f)\n"
    "NATIVE1(native_sin, __nvvm_sin_approx_f(x))\n"
    "NATIVE1(native_cos, __nvvm_cos_approx_f(x))\n"
    "NATIVE1(native_tan, __nvvm_sin_approx_f(x) / __nvvm_cos_approx_f(x))\n"
    "NATIVE2(native_powr, __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)))\n";

/* printf into err (when there is one). */
static void say(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  if (!err || n == 0) return;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
}

static int is_exec(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

/* The clang to run: $SMEMU_CLANG, or clang-14 on PATH. 0, or -1 with err. */
static int find_clang(char *out, size_t n, char *err, size_t en) {
  const char *want = getenv("SMEMU_CLANG");
  if (!want || !*want) want = CLANG_NAME;
  if (strchr(want, '/')) {
    if (is_exec(want) && strlen(want) < n) {
      strcpy(out, want);
      return 0;
    }
  } else {
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
      size_t dl = strcspn(path, ":");
      if (dl > 0 && dl + 1 + strlen(want) < n) {
        snprintf(out, n, "%.*s/%s", (int)dl, path, want);
        if (is_exec(out)) return 0;
      }
      path += dl + (path[dl] == ':');
    }
  }
  say(err, en,
      "OpenCL C needs %s, which is not installed (no %s%s): install Debian's clang-14 package "
      "(apt-get install clang-14)",
      CLANG_NAME, want, strchr(want, '/') ? "" : " on PATH");
  return -1;
}

/* libclc's NVPTX bitcode: $SMEMU_LIBCLC or the Debian locations. */
static int find_libclc(char *out, size_t n, char *err, size_t en) {
  const char *want = getenv("SMEMU_LIBCLC");
  struct stat sb;
  if (want && *want) {
    if (stat(want, &sb) == 0 && S_ISREG(sb.st_mode) && strlen(want) < n) {
      strcpy(out, want);
      return 0;
    }
  } else {
    for (int i = 0; libclc_dirs[i]; i++) {
      snprintf(out, n, "%s/%s", libclc_dirs[i], LIBCLC_FILE);
      if (stat(out, &sb) == 0 && S_ISREG(sb.st_mode)) return 0;
    }
  }
  say(err, en,
      "OpenCL C needs libclc's NVPTX library %s, which is not installed (%s%s): install "
      "Debian's libclc-14 package (apt-get install libclc-14)",
      LIBCLC_FILE, want && *want ? "no file " : "not in ", want && *want ? want : "/usr/lib/clc");
  return -1;
}

int clc_available(char *err, size_t errsize) {
  char clang[4096], clc[4096];
  say(err, errsize, "%s", "");
  return find_clang(clang, sizeof clang, err, errsize) == 0 &&
         find_libclc(clc, sizeof clc, err, errsize) == 0;
}

/* A growing argument vector. */
typedef struct argv_t {
  char **v;   /* NULL-terminated */
  int n, cap; /* used, allocated (without the NULL) */
  int oom;    /* an allocation failed */
} argv_t;

static void push(argv_t *a, const char *s) {
  if (a->oom) return;
  if (a->n + 1 >= a->cap) {
    int cap = a->cap ? a->cap * 2 : 32;
    char **v = realloc(a->v, (size_t)cap * sizeof *v);
    if (!v) {
      a->oom = 1;
      return;
    }
    a->v = v;
    a->cap = cap;
  }
  if (!(a->v[a->n] = strdup(s))) {
    a->oom = 1;
    return;
  }
  a->v[++a->n] = NULL;
}

/* Pushes each string up to a NULL. */
static void push_all(argv_t *a, ...) {
  va_list ap;
  const char *s;
  va_start(ap, a);
  while ((s = va_arg(ap, const char *)) != NULL) push(a, s);
  va_end(ap);
}

static void argv_free(argv_t *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
}

/* Splits build options at white space; '...' keeps everything literally,
 * "..." and the outside honour backslash escapes. 0, or -1 with err. */
static int split_opts(argv_t *a, const char *s, char *err, size_t en) {
  size_t cap = strlen(s) + 1;
  char *tok = malloc(cap);
  if (!tok) return a->oom = 1, -1;
  while (*s) {
    size_t n = 0;
    int any = 0;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    while (*s && !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
      char q = *s;
      any = 1;
      if (q == '\'' || q == '"') {
        for (s++; *s && *s != q; s++) {
          if (q == '"' && *s == '\\' && s[1]) s++;
          tok[n++] = *s;
        }
        if (!*s) {
          say(err, en, "--cl-opts: unterminated %c quote", q);
          free(tok);
          return -1;
        }
        s++;
      } else {
        if (*s == '\\' && s[1]) s++;
        tok[n++] = *s++;
      }
    }
    tok[n] = 0;
    if (any) push(a, tok);
  }
  free(tok);
  return 0;
}

/* Runs argv (argv[0] a full path) with stdin from /dev/null and stdout and
 * stderr into log_path. Returns the exit status, or -1 with err. */
static int run(char *const argv[], const char *log_path, char *err, size_t en) {
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int st, rc;
  if (posix_spawn_file_actions_init(&fa) != 0) {
    say(err, en, "cannot start %s: out of memory", argv[0]);
    return -1;
  }
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    say(err, en, "cannot start %s: %s", argv[0], strerror(rc));
    return -1;
  }
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      say(err, en, "waiting for %s: %s", argv[0], strerror(errno));
      return -1;
    }
  }
  if (WIFSIGNALED(st)) {
    say(err, en, "%s was killed by signal %d", argv[0], WTERMSIG(st));
    return -1;
  }
  return WEXITSTATUS(st);
}

/* Reads a whole file into a NUL-terminated malloc'd buffer; NULL on failure. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) return NULL;
  for (;;) {
    if (cap - n < 4096) {
      char *b = realloc(buf, cap = cap ? cap * 2 : 65536);
      if (!b) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = b;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Skips blanks and newlines. */
static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* Skips a balanced ( ... ) at p (which is '('); returns the end or NULL. */
static const char *skip_parens(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(')
      depth++;
    else if (*p == ')' && --depth == 0)
      return p + 1;
  }
  return NULL;
}

/* Visits each `.func` of the PTX: its name and whether it has a body. */
typedef void (*func_visit)(const char *name, size_t n, int has_body, void *user);
static void each_func(const char *ptx, func_visit fn, void *user) {
  for (const char *p = ptx; (p = strstr(p, ".func")) != NULL; p += 5) {
    /* a directive at the start of a line, after optional .extern/.weak/.visible */
    const char *q = p;
    while (q > ptx && q[-1] != '\n') q--;
    q = skip_ws(q);
    while (*q == '.' && q != p) q = skip_ws(q + strcspn(q, " \t"));
    if (q != p || (p[5] != ' ' && p[5] != '\t' && p[5] != '\n')) continue;
    q = skip_ws(p + 5);
    if (*q == '(' && !(q = skip_parens(q))) return;
    q = skip_ws(q);
    size_t n = strcspn(q, " \t\r\n(;{");
    const char *name = q;
    q = skip_ws(q + n);
    if (*q == '(' && !(q = skip_parens(q))) return;
    q = skip_ws(q);
    while (*q == '.') q = skip_ws(q + strcspn(q, " \t\r\n;{")); /* .noreturn, ... */
    if (n) fn(name, n, *q == '{', user);
  }
}

/* Collects the functions of a PTX that are declared but never defined. */
typedef struct undef_list {
  const char *ptx;
  char *out; /* "name, name" (plain names of mangled built-ins) */
  size_t cap, used;
} undef_list;

typedef struct lookup {
  const char *name;
  size_t n;
  int found;
} lookup;

static void match_def(const char *name, size_t n, int has_body, void *user) {
  lookup *l = user;
  if (has_body && n == l->n && memcmp(name, l->name, n) == 0) l->found = 1;
}

static void note_undef(const char *name, size_t n, int has_body, void *user) {
  undef_list *u = user;
  lookup l = {name, n, 0};
  if (has_body) return;
  each_func(u->ptx, match_def, &l);
  if (l.found) return;
  /* _Z12get_work_dimv -> get_work_dim: the source name of a built-in */
  if (n > 2 && name[0] == '_' && name[1] == 'Z') {
    size_t i = 2, len = 0;
    while (i < n && name[i] >= '0' && name[i] <= '9') len = len * 10 + (size_t)(name[i++] - '0');
    if (len > 0 && i + len <= n) name += i, n = len;
  }
  if (u->used + n + 3 > u->cap) return;
  if (u->used) u->used += (size_t)snprintf(u->out + u->used, u->cap - u->used, ", ");
  u->used += (size_t)snprintf(u->out + u->used, u->cap - u->used, "%.*s", (int)n, name);
}

/* Removes the temporary directory and what the pipeline put there. */
static void cleanup(const char *dir, const char *const *files) {
  char path[4200];
  for (int i = 0; files[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  rmdir(dir);
}

int clc_compile(const char *cl_path, const char *opts, char **ptx_out, size_t *len, char *err,
                size_t errsize) {
  static const char *const files[] = {"extra.cl", "extra.bc", "kernel.ptx", "clang.log", NULL};
  char clang[4096], libclc[4096], dir[4096], extra_cl[4200], extra_bc[4200], ptx_path[4200], log_path[4200];
  argv_t a = {0};
  int rc = CLC_ERR_SYSTEM, st;
  char *log = NULL;

  if (ptx_out) *ptx_out = NULL;
  if (len) *len = 0;
  say(err, errsize, "%s", "");
  if (!cl_path || !ptx_out) {
    say(err, errsize, "clc_compile: no file or output");
    return CLC_ERR_SYSTEM;
  }
  if (find_clang(clang, sizeof clang, err, errsize) < 0 ||
      find_libclc(libclc, sizeof libclc, err, errsize) < 0)
    return CLC_ERR_MISSING;
  if (access(cl_path, R_OK) != 0) {
    say(err, errsize, "cannot read %s: %s", cl_path, strerror(errno));
    return CLC_ERR_COMPILE;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/smemu-clc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    say(err, errsize, "cannot make a temporary directory %s: %s", dir, strerror(errno));
    return CLC_ERR_SYSTEM;
  }
  snprintf(extra_cl, sizeof extra_cl, "%s/extra.cl", dir);
  snprintf(extra_bc, sizeof extra_bc, "%s/extra.bc", dir);
  snprintf(ptx_path, sizeof ptx_path, "%s/kernel.ptx", dir);
  snprintf(log_path, sizeof log_path, "%s/clang.log", dir);
  if (write_file(extra_cl, extra_src) != 0) {
    say(err, errsize, "cannot write %s: %s", extra_cl, strerror(errno));
    goto out;
  }

  /* 1. smemu's additions to libclc, as bitcode */
  push_all(&a, clang, "-x", "cl", "-cl-std=CL2.0", "-target", TARGET, "-emit-llvm", "-c", "-o", extra_bc,
           "--", extra_cl, (char *)NULL);
  if (a.oom) goto oom;
  st = run(a.v, log_path, err, errsize);
  if (st != 0) {
    if (st > 0 && (log = slurp(log_path, NULL)) != NULL)
      say(err, errsize, "%s failed on smemu's libclc additions (exit status %d):\n%s", clang, st, log);
    goto out;
  }
  argv_free(&a);
  memset(&a, 0, sizeof a);

  /* 2. the kernel file, with both libraries linked in before optimisation;
   * the user's options come after the defaults, so theirs win (-cl-std=) */
  push_all(&a, clang, "-x", "cl", "-cl-std=CL1.2", "-target", TARGET, "-gline-tables-only",
           "-Wno-linker-warnings",   /* libclc's triple is spelt nvptx64--nvidiacl */
           "-fno-crash-diagnostics", /* no reproducer files in /tmp */
           (char *)NULL);
  if (opts && split_opts(&a, opts, err, errsize) < 0) {
    rc = CLC_ERR_COMPILE;
    goto out;
  }
  push_all(&a, "-Xclang", "-mlink-builtin-bitcode", "-Xclang", extra_bc, "-Xclang", "-mlink-builtin-bitcode",
           "-Xclang", libclc, "-S", "-o", ptx_path, "--", cl_path, (char *)NULL);
  if (a.oom) goto oom;
  st = run(a.v, log_path, err, errsize);
  if (st < 0) goto out;
  log = slurp(log_path, NULL);
  if (st != 0) {
    char *crash = log ? strstr(log, "PLEASE submit a bug report") : NULL;
    if (crash) *crash = 0; /* a back-end failure: the message, not clang's stack */
    say(err, errsize, "%s could not compile %s (exit status %d):\n%s", clang, cl_path, st, log ? log : "");
    rc = CLC_ERR_COMPILE;
    goto out;
  }
  char *ptx = slurp(ptx_path, len);
  if (!ptx) {
    say(err, errsize, "cannot read the PTX %s: %s", ptx_path, strerror(errno));
    goto out;
  }

  /* built-ins neither libclc nor clc.c define stay declarations */
  char missing[512];
  undef_list u = {ptx, missing, sizeof missing, 0};
  missing[0] = 0;
  each_func(ptx, note_undef, &u);
  if (u.used) {
    say(err, errsize,
        "%s calls %s, which libclc-14 does not provide for NVPTX (smemu adds "
        "get_global_offset, work_group_barrier and the native_ math functions)",
        cl_path, missing);
    free(ptx);
    if (len) *len = 0;
    rc = CLC_ERR_COMPILE;
    goto out;
  }
  *ptx_out = ptx;
  say(err, errsize, "%s", log ? log : "");
  rc = CLC_OK;
  goto out;
oom:
  say(err, errsize, "out of memory");
out:
  free(log);
  argv_free(&a);
  cleanup(dir, files);
  return rc;
}
