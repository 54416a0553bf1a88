/* testdata.c: see testdata.h. */
#include "testdata.h"

#include <stdio.h>
#include <stdlib.h>

char *testdata_read(const char *const *dirs, int n, const char *name, size_t *len) {
  for (int i = 0; i < n; i++) {
    char p[1024];
    if (!dirs[i] || !*dirs[i]) continue;
    snprintf(p, sizeof p, "%s/%s", dirs[i], name);
    FILE *f = fopen(p, "rb");
    if (!f) continue;
    char *b = NULL;
    long k = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (k >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)k + 1)) &&
        fread(b, 1, (size_t)k, f) == (size_t)k) {
      b[k] = 0;
      *len = (size_t)k;
    } else {
      free(b);
      b = NULL;
    }
    fclose(f);
    return b;
  }
  return NULL;
}
