/* tool.c: runs ptxas and nvdisasm for SASS-informed counting (sass.h).
 * Both run without a shell (posix_spawn), their output goes to files in a
 * cache directory, so a program run twice disassembles once. A missing
 * tool is not an error of the run: the caller counts by PTX rules and
 * says so. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mem/bytes.h"
#include "sass/sass.h"

extern char **environ;

static uint64_t fnv(const void *p, size_t n, uint64_t h) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) {
    h ^= s[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static int is_exec(const char *p) { return p && access(p, X_OK) == 0; }

/* `name` on the PATH or in the usual places; static storage. */
static const char *find_tool(const char *env, const char *name) {
  static char found[2][PATH_MAX];
  char *buf = found[strcmp(name, "ptxas") == 0];
  const char *e = getenv(env);
  if (e && *e) return is_exec(e) ? e : NULL;
  const char *path = getenv("PATH");
  if (path) {
    const char *p = path;
    while (*p) {
      size_t n = strcspn(p, ":");
      if (n && n + strlen(name) + 2 < PATH_MAX) {
        snprintf(buf, PATH_MAX, "%.*s/%s", (int)n, p, name);
        if (is_exec(buf)) return buf;
      }
      p += n + (p[n] == ':');
    }
  }
  const char *cuda = getenv("CUDA_HOME");
  snprintf(buf, PATH_MAX, "%s/bin/%s", cuda && *cuda ? cuda : "/usr/local/cuda", name);
  if (is_exec(buf)) return buf;
  /* the PyPI wheel in the build tree, beside the file holding this code
   * (the smemu program, or the runtime's libcudart.so in build/runtime) */
  char self[PATH_MAX];
  Dl_info di;
  if (dladdr((void *)find_tool, &di) && di.dli_fname && realpath(di.dli_fname, self) &&
      strlen(self) + 64 < PATH_MAX) {
    for (int up = 0; up < 3; up++) {
      char *s = strrchr(self, '/');
      if (!s) break;
      *s = 0;
      static const char *const sub[] = {"pydeps/nvidia/cu13", "pydeps/nvidia/cu12",
                                        "build/pydeps/nvidia/cu13", "build/pydeps/nvidia/cu12"};
      for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        size_t k = strlen(self);
        memcpy(buf, self, k);
        snprintf(buf + k, PATH_MAX - k, "/%s/bin/%s", sub[i], name);
        if (is_exec(buf)) return buf;
      }
    }
  }
  return NULL;
}

const char *sass_nvdisasm(void) { return find_tool("SMEMU_NVDISASM", "nvdisasm"); }

static int cache_dir(char *out, size_t n) {
  const char *c = getenv("SMEMU_CACHE"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (c && *c)
    snprintf(out, n, "%s", c);
  else if (x && *x)
    snprintf(out, n, "%s/smemu", x);
  else if (h && *h)
    snprintf(out, n, "%s/.cache/smemu", h);
  else
    snprintf(out, n, "/tmp/smemu-cache-%u", (unsigned)getuid());
  /* create the path, parents included */
  for (char *p = out + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(out, 0700);
      *p = '/';
    }
  return mkdir(out, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* Runs argv once with stdout to `out` (NULL: inherited) and stderr
 * discarded, in environment envp. */
static int run_once(char *const argv[], const char *out, char *const envp[]) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out) posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) return -1;
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* run_once, tried again after a pause when it fails: on a loaded machine a
 * spawn can fail (EAGAIN, ENOMEM) or the tool be killed or run out of
 * memory, and one such failure must not change how a program is counted.
 * A tool that fails every time (bad input) costs TOOL_TRIES runs. */
#define TOOL_TRIES 3
static int run(char *const argv[], const char *out, char *const envp[]) {
  for (int i = 0;; i++) {
    if (run_once(argv, out, envp) == 0) return 0;
    if (i + 1 == TOOL_TRIES) return -1;
    struct timespec ts = {0, 100000000L << (2 * i)}; /* 0.1 s, 0.4 s */
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
      ;
  }
}

/* A temporary name beside `path` that no other process or thread uses:
 * jobs on threads (sass_from_cubin_with) may work on the same file. */
static void tmp_name(char *out, size_t n, const char *path) {
  static atomic_uint seq;
  snprintf(out, n, "%s.%d.%u", path, (int)getpid(), atomic_fetch_add(&seq, 1));
}

/* The file's bytes, NUL-terminated; a read error keeps what was read. */
static char *read_all(const char *path, size_t *len) {
  int err;
  return file_read(path, len, &err);
}

static int write_all(const char *path, const void *p, size_t n) {
  char tmp[PATH_MAX + 32];
  tmp_name(tmp, sizeof tmp, path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

/* Disassembles cubin file `cubin` into `sass` (cached) and reads it with
 * nvdisasm `nv` ("": none found). */
static char *disasm(const char *nv, char *const envp[], const char *cubin, const char *sass, size_t *len,
                    char *err, size_t en, int *broken) {
  char *t = read_all(sass, len);
  if (t && *len > 0) return t;
  free(t);
  if (!*nv) {
    snprintf(err, en, "nvdisasm not found (pip install nvidia-cuda-nvdisasm, or set SMEMU_NVDISASM)");
    return NULL;
  }
  char tmp[PATH_MAX + 32];
  tmp_name(tmp, sizeof tmp, sass);
  /* -ndf: no dataflow analysis, a third of nvdisasm's time; it only adds
   * the BRANCH_TARGETS annotation of indirect branches (BRX), which the
   * parser does not read (the blocks, labels, line info and shared
   * instructions are the same, compared on the sass2 and sass-cub corpora
   * and the tests' PTX for sm_75..sm_120) */
  char *argv[] = {(char *)nv, "-c", "-gi", "-ndf", (char *)cubin, NULL};
  if (run(argv, tmp, envp) < 0 || rename(tmp, sass) != 0) {
    remove(tmp);
    *broken = 1;
    snprintf(err, en, "%s failed on %s (%d tries)", nv, cubin, TOOL_TRIES);
    return NULL;
  }
  t = read_all(sass, len);
  if (!t) snprintf(err, en, "cannot read %s", sass);
  return t;
}

char *sass_from_ptx_with(const sass_tools *t, const char *ptx, size_t len, const char *arch, size_t *out_len,
                         char *err, size_t errsz, int *broken) {
  int b = 0;
  if (!broken) broken = &b;
  *broken = 0;
  char ptxf[PATH_MAX + 32], cubin[PATH_MAX], sass[PATH_MAX];
  if (!arch) arch = "sm_90";
  uint64_t h = fnv(arch, strlen(arch), fnv(ptx, len, 0xcbf29ce484222325ull));
  if (!t->dir_ok) {
    snprintf(err, errsz, "cannot create the cache directory %s", t->dir);
    return NULL;
  }
  snprintf(cubin, sizeof cubin, "%s/%016llx.cubin", t->dir, (unsigned long long)h);
  snprintf(sass, sizeof sass, "%s/%016llx.sass", t->dir, (unsigned long long)h);
  struct stat sb;
  if (stat(sass, &sb) == 0 && sb.st_size > 0)
    return disasm(t->nvdisasm, t->envp, cubin, sass, out_len, err, errsz, broken);
  if (stat(cubin, &sb) != 0 || sb.st_size == 0) {
    if (!t->ptxas[0]) {
      snprintf(err, errsz, "ptxas not found (the CUDA toolkit, or set SMEMU_PTXAS)");
      return NULL;
    }
    /* the PTX file is this call's own: another smemu compiling the same
     * text must not remove it under our ptxas */
    char base[PATH_MAX];
    snprintf(base, sizeof base, "%s/%016llx", t->dir, (unsigned long long)h);
    tmp_name(ptxf, sizeof ptxf - 4, base);
    strcat(ptxf, ".ptx");
    if (write_all(ptxf, ptx, len) < 0) {
      snprintf(err, errsz, "cannot write %s", ptxf);
      return NULL;
    }
    char archopt[64], tmp[PATH_MAX + 32];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    tmp_name(tmp, sizeof tmp, cubin);
    char *argv[] = {(char *)t->ptxas, archopt, "-lineinfo", "-o", tmp, ptxf, NULL};
    int rc = run(argv, NULL, t->envp);
    remove(ptxf);
    if (rc < 0 || rename(tmp, cubin) != 0) {
      remove(tmp);
      *broken = 1;
      snprintf(err, errsz, "%s -arch=%s failed on the PTX (%d tries)", t->ptxas, arch, TOOL_TRIES);
      return NULL;
    }
  }
  return disasm(t->nvdisasm, t->envp, cubin, sass, out_len, err, errsz, broken);
}

char *sass_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len, char *err, size_t errsz,
                    int *broken) {
  sass_tools t;
  if (sass_tools_get(&t) < 0) {
    snprintf(err, errsz, "out of memory");
    if (broken) *broken = 0;
    return NULL;
  }
  char *r = sass_from_ptx_with(&t, ptx, len, arch, out_len, err, errsz, broken);
  sass_tools_free(&t);
  return r;
}

int sass_tools_get(sass_tools *t) {
  memset(t, 0, sizeof *t);
  const char *nv = sass_nvdisasm();
  snprintf(t->nvdisasm, sizeof t->nvdisasm, "%s", nv ? nv : "");
  const char *px = find_tool("SMEMU_PTXAS", "ptxas");
  snprintf(t->ptxas, sizeof t->ptxas, "%s", px ? px : "");
  size_t n = 0;
  while (environ[n]) n++;
  if (!(t->envp = calloc(n + 1, sizeof *t->envp))) return -1;
  for (size_t i = 0; i < n; i++)
    if (!(t->envp[i] = strdup(environ[i]))) {
      sass_tools_free(t);
      return -1;
    }
  t->dir_ok = cache_dir(t->dir, sizeof t->dir) == 0;
  return 0;
}

void sass_tools_free(sass_tools *t) {
  for (size_t i = 0; t->envp && t->envp[i]; i++) free(t->envp[i]);
  free(t->envp);
  t->envp = NULL;
}

char *sass_from_cubin_with(const sass_tools *t, const void *cubin, size_t len, size_t *out_len, char *err,
                           size_t errsz, int *broken) {
  int b = 0;
  if (!broken) broken = &b;
  *broken = 0;
  char cf[PATH_MAX], sass[PATH_MAX];
  uint64_t h = fnv(cubin, len, 0xcbf29ce484222325ull);
  if (!t->dir_ok) {
    snprintf(err, errsz, "cannot create the cache directory %s", t->dir);
    return NULL;
  }
  snprintf(cf, sizeof cf, "%s/%016llx.cubin", t->dir, (unsigned long long)h);
  snprintf(sass, sizeof sass, "%s/%016llx.sass", t->dir, (unsigned long long)h);
  struct stat sb;
  if ((stat(cf, &sb) != 0 || (size_t)sb.st_size != len) && write_all(cf, cubin, len) < 0) {
    snprintf(err, errsz, "cannot write %s", cf);
    return NULL;
  }
  return disasm(t->nvdisasm, t->envp, cf, sass, out_len, err, errsz, broken);
}

char *sass_from_cubin(const void *cubin, size_t len, size_t *out_len, char *err, size_t errsz, int *broken) {
  sass_tools t;
  if (sass_tools_get(&t) < 0) {
    snprintf(err, errsz, "out of memory");
    if (broken) *broken = 0;
    return NULL;
  }
  char *r = sass_from_cubin_with(&t, cubin, len, out_len, err, errsz, broken);
  sass_tools_free(&t);
  return r;
}
