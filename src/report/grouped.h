/* grouped.h: sizes and distances with their digits grouped in threes
 * ("1,024"), as compute-sanitizer prints them; shared by the library's
 * fault report and the runtime's sanitizer report. */
#ifndef SMEMU_REPORT_GROUPED_H
#define SMEMU_REPORT_GROUPED_H
#include <stddef.h>
#include <stdint.h>

/* Writes v into out (n bytes, digits dropped where it is too small) and
 * returns out. */
const char *report_grouped(char *out, size_t n, uint64_t v);

#endif
