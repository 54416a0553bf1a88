/* bytes.c: a whole file read into memory (bytes.h). */
#include "mem/bytes.h"

#include <stdio.h>
#include <stdlib.h>

char *file_read(const char *path, size_t *len, int *err) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    *err = FILE_NO_OPEN;
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += r;
    if (n == cap) {
      char *b = realloc(buf, (cap *= 2) + 1);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf) {
    *err = FILE_NO_MEMORY;
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  *err = bad ? FILE_NO_READ : FILE_OK;
  return buf;
}
