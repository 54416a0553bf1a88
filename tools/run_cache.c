/* run_cache.c: the compile cache of `smemu run FILE.cu`. A cached program
 * is only run from a directory that is the user's alone (owned by them,
 * not a symbolic link, no access for anyone else), so nobody else can
 * plant a program there. An entry is keyed by the compiler (its path and
 * its binary), the target and the sources' paths and contents; inside it, the binary's name holds
 * a hash of the contents of every file the build read (nvcc -M: the
 * sources and all the headers they include), so editing a header builds
 * anew. Files appear only by rename, so a reader never sees a partial one.
 *
 *   CACHE/                         0700, owned by the user
 *     STEM-KEY/                    0700: one per (nvcc, arch, sources)
 *       deps                       the absolute paths of every input, one a line
 *       STEM-HASH                  the program built from inputs hashing to HASH
 */
#include "run_cache.h"

#include "run_spawn.h"
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FNV_INIT 0xcbf29ce484222325ull

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* Hash a file's path and contents into h; -1 when it cannot be read. */
static int hash_file(uint64_t *h, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char buf[65536];
  size_t k;
  *h = fnv(*h, path, strlen(path) + 1);
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) *h = fnv(*h, buf, k);
  int bad = ferror(f);
  fclose(f);
  return bad ? -1 : 0;
}

/* Whether path is a directory only the user can use: not a symbolic link,
 * owned by the effective user, nobody else may write it. A directory of
 * the user's that others may only read is made private (0700). */
static int private_dir(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) {
    fprintf(stderr, "smemu run: cannot use the cache %s: %s\n", path, strerror(errno));
    return -1;
  }
  const char *why = NULL;
  if (S_ISLNK(st.st_mode))
    why = "it is a symbolic link";
  else if (!S_ISDIR(st.st_mode))
    why = "it is not a directory";
  else if (st.st_uid != geteuid())
    why = "it belongs to another user";
  else if (st.st_mode & 022)
    why = "others may write to it";
  if (why) {
    fprintf(stderr,
            "smemu run: refusing the compile cache %s: %s (it must be a private directory of yours, "
            "mode 0700; set SMEMU_CACHE to another path)\n",
            path, why);
    return -1;
  }
  if ((st.st_mode & 077) && chmod(path, 0700) < 0) return -1;
  return 0;
}

/* mkdir -p with mode 0700 for what it creates. */
static int mkdirs(const char *path) {
  char p[PATH_MAX];
  if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return -1;
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0700) && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

static int cache_root(char *dir, size_t n) {
  const char *cache = getenv("SMEMU_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int k;
  if (cache && *cache)
    k = snprintf(dir, n, "%s", cache);
  else if (xdg && *xdg)
    k = snprintf(dir, n, "%s/smemu", xdg);
  else if (home && *home)
    k = snprintf(dir, n, "%s/.cache/smemu", home);
  else
    k = snprintf(dir, n, "/tmp/smemu-cache-%u", (unsigned)geteuid());
  if (k <= 0 || k >= (int)n) return -1;
  while (k > 1 && dir[k - 1] == '/') dir[--k] = 0;
  if (mkdirs(dir) < 0) {
    fprintf(stderr, "smemu run: cannot create the cache %s: %s\n", dir, strerror(errno));
    return -1;
  }
  return private_dir(dir);
}

/* Whether nvcc can target compute_XX (`nvcc --list-gpu-arch`). */
static int nvcc_has_arch(const char *nvcc, int cc) {
  char out[8192], want[32];
  char *argv[] = {(char *)nvcc, "--list-gpu-arch", NULL};
  if (rs_capture(argv, out, sizeof out) != 0) return 0;
  snprintf(want, sizeof want, "compute_%d", cc);
  size_t wl = strlen(want);
  for (char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, want, wl) && (l[wl] == '\n' || l[wl] == 0 || l[wl] == '\r')) return 1;
  return 0;
}

/* ---- the inputs of a build ---- */

typedef struct deps {
  char **path;
  int n, cap;
} deps;

static void deps_free(deps *d) {
  for (int i = 0; i < d->n; i++) free(d->path[i]);
  free(d->path);
  memset(d, 0, sizeof *d);
}

static int deps_add(deps *d, const char *p) {
  char abs[PATH_MAX];
  if (!realpath(p, abs) || strchr(abs, '\n')) return -1;
  for (int i = 0; i < d->n; i++)
    if (!strcmp(d->path[i], abs)) return 0;
  if (d->n == d->cap) {
    int cap = d->cap ? d->cap * 2 : 64;
    char **np = realloc(d->path, (size_t)cap * sizeof *np);
    if (!np) return -1;
    d->path = np;
    d->cap = cap;
  }
  if (!(d->path[d->n] = strdup(abs))) return -1;
  d->n++;
  return 0;
}

/* Add the prerequisites of a make rule file (`TARGET : A B \ C`). */
static int deps_from_make(deps *d, const char *text) {
  const char *s = strchr(text, ':');
  if (!s) return -1;
  s++;
  char tok[PATH_MAX];
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
           (*s == '\\' && (s[1] == '\n' || s[1] == '\r')))
      s++;
    if (!*s) return 0;
    size_t k = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
      if (*s == '\\' && s[1] == ' ')
        s++; /* an escaped space belongs to the name */
      else if (*s == '\\' && (s[1] == '\n' || s[1] == '\r'))
        break;
      if (k + 1 < sizeof tok) tok[k++] = *s;
      s++;
    }
    tok[k] = 0;
    if (k && deps_add(d, tok) < 0) return -1;
  }
}

/* Hash the contents of every input; -1 when one is gone. */
static int deps_hash(const deps *d, uint64_t *h) {
  *h = FNV_INIT;
  for (int i = 0; i < d->n; i++)
    if (hash_file(h, d->path[i]) < 0) return -1;
  return 0;
}

static int deps_read(deps *d, const char *manifest) {
  FILE *f = fopen(manifest, "r");
  if (!f) return -1;
  char line[PATH_MAX + 2];
  int rc = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] != '/' || deps_add(d, line) < 0) rc = -1;
  }
  fclose(f);
  return d->n ? rc : -1;
}

/* Write a file atomically: a temporary beside it, then rename. */
static int write_atomic(const char *path, const deps *d) {
  char tmp[PATH_MAX + 400];
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) return -1;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(tmp);
    return -1;
  }
  for (int i = 0; i < d->n; i++) fprintf(f, "%s\n", d->path[i]);
  if (fclose(f) != 0 || rename(tmp, path) < 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* The inputs of compiling srcs: nvcc -M on each. */
static int find_deps(const char *nvcc, const char *flag, const char *const *srcs, int nsrc, const char *entry,
                     deps *d) {
  for (int i = 0; i < nsrc; i++) {
    char mf[PATH_MAX + 400];
    snprintf(mf, sizeof mf, "%s/.deps.XXXXXX", entry);
    int fd = mkstemp(mf);
    if (fd < 0) return -1;
    close(fd);
    char *argv[8];
    int a = 0;
    argv[a++] = (char *)nvcc;
    argv[a++] = "-M";
    if (flag) argv[a++] = (char *)flag;
    argv[a++] = "-o";
    argv[a++] = mf;
    argv[a++] = (char *)srcs[i];
    argv[a] = NULL;
    int rc = rs_wait(argv);
    size_t len = 0;
    char *text = NULL;
    FILE *f = rc == 0 ? fopen(mf, "r") : NULL;
    if (f) {
      text = malloc(1 << 20);
      if (text) {
        len = fread(text, 1, (1 << 20) - 1, f);
        text[len] = 0;
      }
      fclose(f);
    }
    unlink(mf);
    int ok = text && deps_from_make(d, text) == 0;
    free(text);
    if (!ok || deps_add(d, srcs[i]) < 0) {
      fprintf(stderr, "smemu run: cannot list the files %s includes (nvcc -M)\n", srcs[i]);
      return -1;
    }
  }
  return 0;
}

int rc_compile(const char *nvcc, const char *const *srcs, int nsrc, int cc, char *out, size_t n,
               int *ptx_any) {
  char flag[32], dir[PATH_MAX], entry[PATH_MAX + 160];
  int have = nvcc_has_arch(nvcc, cc);
  *ptx_any = !have;
  snprintf(flag, sizeof flag, "-arch=sm_%d", cc);
  if (cache_root(dir, sizeof dir) < 0) return -1;
  /* the entry: compiler, target, sources (where and what) */
  uint64_t key = fnv(FNV_INIT, nvcc, strlen(nvcc) + 1);
  char nv[PATH_MAX];
  if (realpath(nvcc, nv)) hash_file(&key, nv); /* another toolkit at the same path */
  key = fnv(key, have ? flag : "-", strlen(have ? flag : "-") + 1);
  for (int i = 0; i < nsrc; i++) {
    char abs[PATH_MAX];
    if (!realpath(srcs[i], abs) || hash_file(&key, abs) < 0) {
      fprintf(stderr, "smemu run: cannot open %s: %s\n", srcs[i], strerror(errno));
      return -1;
    }
  }
  const char *base = strrchr(srcs[0], '/');
  base = base ? base + 1 : srcs[0];
  char stem[128];
  size_t sl = strcspn(base, ".");
  snprintf(stem, sizeof stem, "%.*s", (int)(sl < 100 ? sl : 100), base);
  for (char *c = stem; *c; c++)
    if (*c == '/' || *c == '\n') *c = '_';
  snprintf(entry, sizeof entry, "%s/%s-%016llx", dir, stem, (unsigned long long)key);
  if (mkdir(entry, 0700) < 0 && errno != EEXIST) {
    fprintf(stderr, "smemu run: cannot create %s: %s\n", entry, strerror(errno));
    return -1;
  }
  if (private_dir(entry) < 0) return -1;
  char manifest[PATH_MAX + 200];
  snprintf(manifest, sizeof manifest, "%s/deps", entry);
  /* a hit: every input still hashes to a binary's name */
  deps d = {0};
  uint64_t h;
  if (deps_read(&d, manifest) == 0 && deps_hash(&d, &h) == 0) {
    if (snprintf(out, n, "%s/%s-%016llx", entry, stem, (unsigned long long)h) < (int)n &&
        access(out, X_OK) == 0) {
      deps_free(&d);
      return 0;
    }
  }
  deps_free(&d);
  fprintf(stderr, "smemu run: compiling with %s -cudart shared -lineinfo %s\n", nvcc, have ? flag : "");
  if (find_deps(nvcc, have ? flag : NULL, srcs, nsrc, entry, &d) < 0 || deps_hash(&d, &h) < 0) {
    deps_free(&d);
    return -1;
  }
  char tmp[PATH_MAX + 200];
  snprintf(tmp, sizeof tmp, "%s/.build.XXXXXX", entry);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    deps_free(&d);
    return -1;
  }
  close(fd);
  const char *argv[72];
  int a = 0;
  argv[a++] = nvcc;
  argv[a++] = "-cudart";
  argv[a++] = "shared";
  argv[a++] = "-lineinfo";
  if (have) argv[a++] = flag;
  argv[a++] = "-o";
  argv[a++] = tmp;
  for (int i = 0; i < nsrc && a < 70; i++) argv[a++] = srcs[i];
  argv[a] = NULL;
  /* quietly first: a program whose kernels launch kernels needs separate
   * compilation, and gets it on the second try (whose errors are shown) */
  char sink[64];
  int rc = rs_capture((char *const *)argv, sink, sizeof sink);
  if (rc != 0 && a < 71) {
    memmove(argv + 2, argv + 1, (size_t)a * sizeof *argv);
    argv[1] = "-rdc=true";
    rc = rs_wait((char *const *)argv);
  }
  if (rc != 0) {
    fprintf(stderr, "smemu run: nvcc failed (exit %d)\n", rc);
    unlink(tmp);
    deps_free(&d);
    return -1;
  }
  if (snprintf(out, n, "%s/%s-%016llx", entry, stem, (unsigned long long)h) >= (int)n ||
      chmod(tmp, 0700) < 0 || rename(tmp, out) < 0 || write_atomic(manifest, &d) < 0) {
    fprintf(stderr, "smemu run: cannot store the program in the cache %s: %s\n", entry, strerror(errno));
    unlink(tmp);
    deps_free(&d);
    return -1;
  }
  deps_free(&d);
  return 0;
}
