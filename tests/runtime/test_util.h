/* test_util.h: helpers of the runtime's cmocka tests
 * (tests/unit/test_runtime_*.c): where the build and the repository are,
 * reading files, running a program with its output captured. */
#ifndef SMEMU_TEST_UTIL_H
#define SMEMU_TEST_UTIL_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mem/bytes.h"

extern char **environ;

/* The build folder: the test binary is BUILD/tests/NAME. */
static inline const char *tu_build_dir(void) {
  static char dir[PATH_MAX];
  if (dir[0]) return dir;
  ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
  if (n <= 0) return strcpy(dir, "build");
  dir[n] = 0;
  for (int k = 0; k < 2; k++) {
    char *s = strrchr(dir, '/');
    if (s) *s = 0;
  }
  return dir;
}

/* The build's libcudart.so.13, opened with its symbols kept local; NULL,
 * with the reason on stderr, when it cannot be. */
static inline void *tu_open_cudart(void) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) fprintf(stderr, "cannot open %s: %s\n", path, dlerror());
  return h;
}

/* A malloc'd, NUL-terminated copy of a file, or NULL. */
static inline char *tu_read_file(const char *path, size_t *len) {
  size_t n;
  int err;
  char *b = file_read(path, &n, &err);
  if (b && len) *len = n;
  return b;
}

/* Result of a program run. */
typedef struct tu_run {
  int rc;        /* exit status, 128+signal, or -1 */
  char *out;     /* stdout (malloc'd) */
  char *err;     /* stderr (malloc'd) */
} tu_run;

/* Run argv with extra environment entries ("NAME=VALUE", NULL-terminated),
 * stdout and stderr captured; returns 0 when the program could be started. */
static inline int tu_spawn(char *const argv[], char *const extra_env[], tu_run *r) {
  char outp[] = "/tmp/smemu-test-out-XXXXXX", errp[] = "/tmp/smemu-test-err-XXXXXX";
  int fo = mkstemp(outp), fe = mkstemp(errp);
  memset(r, 0, sizeof *r);
  r->rc = -1;
  if (fo < 0 || fe < 0) return -1;
  size_t ne = 0, nx = 0;
  while (environ[ne]) ne++;
  while (extra_env && extra_env[nx]) nx++;
  char **env = calloc(ne + nx + 1, sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < nx; i++) env[k++] = extra_env[i];
  for (size_t i = 0; i < ne; i++) {
    /* an extra entry replaces the inherited one of the same name */
    size_t len = strcspn(environ[i], "=");
    int dup = 0;
    for (size_t j = 0; j < nx; j++)
      if (!strncmp(extra_env[j], environ[i], len + 1)) dup = 1;
    if (!dup) env[k++] = environ[i];
  }
  env[k] = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fo, 1);
  posix_spawn_file_actions_adddup2(&fa, fe, 2);
  pid_t pid;
  int s = posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  free(env);
  if (s == 0) {
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    r->rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  close(fo);
  close(fe);
  r->out = tu_read_file(outp, NULL);
  r->err = tu_read_file(errp, NULL);
  unlink(outp);
  unlink(errp);
  if (!r->out) r->out = strdup("");
  if (!r->err) r->err = strdup("");
  return s == 0 ? 0 : -1;
}

static inline void tu_run_free(tu_run *r) {
  free(r->out);
  free(r->err);
}

#endif
