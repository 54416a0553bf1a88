/* json_string.c: the one JSON string writer the reports, the CLI and the
 * runtime share (smemu.h); a leaf the report writers call. */
#include "smemu.h"
#include <stdio.h>

void smemu_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}
