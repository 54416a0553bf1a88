/* testdata.h: reading a test's input file from the first of several
 * folders that has it (the build's regenerated copy, then the checked-in
 * one from wherever the test runs). No cmocka here. */
#ifndef TESTDATA_H
#define TESTDATA_H

#include <stddef.h>

/* The NUL-terminated bytes of dirs[i]/name for the first i (of n; NULL or
 * empty entries skipped) where it opens, *len its length; NULL when none
 * does or memory runs out. */
char *testdata_read(const char *const *dirs, int n, const char *name, size_t *len);

#endif
