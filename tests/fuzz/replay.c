/* replay.c: runs the fuzz target (fuzz_ptx.c) over saved inputs without
 * libFuzzer, so the test suite replays the corpus and past crashers:
 * `fuzz_replay FILE|DIR...` reads every file (directories recursively) and
 * prints how many it replayed. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* A target may define this: nonzero when it cannot run in this build (the
 * replay then exits 77, a skip). */
int fuzz_replay_skip(void) __attribute__((weak));

/* Replays one file; returns 0, or -1 if it cannot be read. */
static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (!buf) break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *bigger = realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    return -1;
  }
  /* an exact-size copy, so reading past the end is caught by ASan */
  uint8_t *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  memcpy(exact, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  return 0;
}

/* Replays a file or every file under a directory; adds to *count. */
static int replay_path(const char *path, int depth, long *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: cannot stat %s\n", path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    if (replay_file(path) != 0) {
      fprintf(stderr, "replay: cannot read %s\n", path);
      return -1;
    }
    ++*count;
    return 0;
  }
  if (depth > 16) return 0;
  DIR *d = opendir(path);
  if (!d) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return -1;
  }
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ., .. and hidden files */
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    char *child = malloc(len);
    if (!child) {
      rc = -1;
      break;
    }
    snprintf(child, len, "%s/%s", path, e->d_name);
    if (replay_path(child, depth + 1, count) != 0) rc = -1;
    free(child);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  if (fuzz_replay_skip && fuzz_replay_skip()) {
    printf("SKIP: this target cannot run in this build\n");
    return 77;
  }
  long count = 0;
  int rc = 0;
  for (int i = 1; i < argc; i++)
    if (replay_path(argv[i], 0, &count) != 0) rc = 1;
  printf("replayed %ld inputs\n", count);
  return rc;
}
