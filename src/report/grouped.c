/* grouped.c: digits grouped in threes (grouped.h). */
#include "report/grouped.h"
#include <inttypes.h>
#include <stdio.h>

const char *report_grouped(char *out, size_t n, uint64_t v) {
  char d[32];
  int k = snprintf(d, sizeof d, "%" PRIu64, v), o = 0;
  for (int i = 0; i < k && (size_t)o + 2 < n; i++) {
    out[o++] = d[i];
    if ((k - i - 1) % 3 == 0 && i < k - 1) out[o++] = ',';
  }
  out[o] = 0;
  return out;
}
