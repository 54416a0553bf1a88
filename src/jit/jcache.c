/* jcache.c: trimming the compiled tier's disk cache to its size limit
 * (jcache.h). Least recently used first, by modification time. */
#include "jit/jcache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t jit_cache_limit(void) {
  const char *e = getenv("SMEMU_JIT_CACHE_MAX");
  if (!e || !*e) return JIT_CACHE_DEFAULT_MAX;
  char *end;
  unsigned long long v = strtoull(e, &end, 10);
  if (end == e) return JIT_CACHE_DEFAULT_MAX;
  int shift = 0;
  switch (*end) {
  case 'k':
  case 'K':
    shift = 10;
    end++;
    break;
  case 'm':
  case 'M':
    shift = 20;
    end++;
    break;
  case 'g':
  case 'G':
    shift = 30;
    end++;
    break;
  default:
    break;
  }
  if (*end || v > (UINT64_MAX >> shift)) return JIT_CACHE_DEFAULT_MAX;
  return (uint64_t)v << shift;
}

/* 1 when name is a cache object's: 32 hex digits and ".o". */
static int object_name(const char *name) {
  for (int i = 0; i < 32; i++)
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return 0;
  return !strcmp(name + 32, ".o");
}

typedef struct entry {
  char name[40];
  struct timespec mtime;
  uint64_t size;
} entry;

static int older(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->mtime.tv_sec != y->mtime.tv_sec) return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
  if (x->mtime.tv_nsec != y->mtime.tv_nsec) return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

int jit_cache_trim(const char *dir, uint64_t limit) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return -1;
  }
  entry *e = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  int removed = 0;
  time_t now = time(NULL);
  uid_t me = geteuid();
  struct dirent *de;
  while ((de = readdir(d))) {
    struct stat st;
    int obj = object_name(de->d_name), tmp = !strncmp(de->d_name, ".tmp-", 5);
    if ((!obj && !tmp) || fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != me)
      continue;
    if (tmp) {
      /* a writer that died between mkstemp and rename */
      if (now - st.st_mtim.tv_sec > 3600 && !unlinkat(fd, de->d_name, 0)) removed++;
      continue;
    }
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 256;
      entry *ne = realloc(e, nc * sizeof *ne);
      if (!ne) break;
      e = ne;
      cap = nc;
    }
    memcpy(e[n].name, de->d_name, 35);
    e[n].mtime = st.st_mtim;
    e[n].size = (uint64_t)st.st_size;
    total += e[n].size;
    n++;
  }
  if (limit && total > limit) {
    qsort(e, n, sizeof *e, older);
    uint64_t goal = limit / 4 * 3;
    for (size_t i = 0; i < n && total > goal; i++)
      if (!unlinkat(fd, e[i].name, 0)) {
        total -= e[i].size;
        removed++;
      }
  }
  free(e);
  closedir(d);
  return removed;
}
