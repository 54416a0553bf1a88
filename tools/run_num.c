/* run_num.c: strict number parsing for the command line (see run_num.h).
 * strtoull alone accepts "-1" (as 2^64-1), leading blanks, "abc" (as 0
 * with end == s) and a leading 0 as octal; these wrappers accept none. */
#include "run_num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digits(const char *s, uint64_t *out) {
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (!*s || !isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s))) return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, base);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

int cli_u64(const char *s, uint64_t max, uint64_t *out) {
  uint64_t v;
  if (!s || digits(s, &v) < 0 || v > max) return -1;
  *out = v;
  return 0;
}

int cli_s64(const char *s, int64_t min, int64_t max, int64_t *out) {
  uint64_t v;
  if (!s) return -1;
  int neg = s[0] == '-';
  if (digits(s + neg, &v) < 0) return -1;
  if (neg) {
    if (v > (uint64_t)INT64_MAX + 1) return -1;
    int64_t x = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    if (x < min) return -1;
    *out = x;
  } else {
    if (v > (uint64_t)INT64_MAX || (int64_t)v > max) return -1;
    *out = (int64_t)v;
  }
  return 0;
}

int cli_double(const char *s, double *out) {
  if (!s || !*s || isspace((unsigned char)*s)) return -1;
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (*end || end == s) return -1;
  /* ERANGE: overflow to infinity, or underflow (a denormal result is fine) */
  if (errno == ERANGE && isinf(d)) return -1;
  *out = d;
  return 0;
}
