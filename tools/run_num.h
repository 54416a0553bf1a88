/* run_num.h: strict parsing of the numbers on smemu's command line
 * (run_num.c; smemu exec and smemu run): the whole text must be the number, in range; nothing is
 * silently read as 0 or cut to fit. */
#ifndef SMEMU_RUN_NUM_H
#define SMEMU_RUN_NUM_H
#include <stdint.h>

/* An unsigned integer, decimal or 0x hexadecimal, at most max. 0 or -1. */
int cli_u64(const char *s, uint64_t max, uint64_t *out);
/* A signed integer (optional '-'), decimal or 0x hexadecimal, in [min, max]. */
int cli_s64(const char *s, int64_t min, int64_t max, int64_t *out);
/* A floating-point number (strtod's syntax, inf and nan included); an
 * overflowing literal such as 1e999 is an error. */
int cli_double(const char *s, double *out);

#endif
