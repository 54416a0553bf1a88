/* kernel_name.c: matching a user's kernel name against mangled names (see
 * kernel_name.h). Users copy names from their source (`reduce<256>`,
 * `ns::k`) or from smemu's own reports, which print the demangled
 * signature, so each of those forms is accepted, strongest first. */
#include "api/kernel_name.h"

#include <stdio.h>
#include <string.h>

#include "api/demangle.h"

/* The qualified name inside a demangled signature: the text before the
 * top-level '(' less a template's return type (`void reduce<256>(int*)` ->
 * `reduce<256>`). Written to out; 0 when there is no top-level '('. */
static int qualified(const char *dem, char *out, size_t n) {
  int depth = 0;
  const char *open = NULL;
  for (const char *p = dem; *p; p++) {
    if (*p == '<')
      depth++;
    else if (*p == '>' && depth > 0)
      depth--;
    else if (*p == '(' && depth == 0) {
      open = p;
      break;
    }
  }
  if (!open) return 0;
  const char *start = dem;
  depth = 0;
  for (const char *p = open; p > dem; p--) {
    char c = p[-1];
    if (c == '>')
      depth++;
    else if (c == '<' && depth > 0)
      depth--;
    else if (c == ' ' && depth == 0) {
      start = p;
      break;
    }
  }
  size_t len = (size_t)(open - start);
  if (len == 0 || len >= n) return 0;
  memcpy(out, start, len);
  out[len] = 0;
  return 1;
}

/* The bare name: the last `::` component at template depth 0, without its
 * template arguments (`ns::reduce<256>` -> `reduce`). In place. */
static void bare(char *q) {
  int depth = 0;
  char *last = q;
  for (char *p = q; *p; p++) {
    if (*p == '<') {
      if (depth == 0) {
        *p = 0;
        break;
      }
      depth++;
    } else if (*p == '>' && depth > 0)
      depth--;
    else if (depth == 0 && p[0] == ':' && p[1] == ':')
      last = p + 2;
  }
  memmove(q, last, strlen(last) + 1);
}

int kernel_name_match(const char *mangled, const char *name) {
  if (!mangled || !name || !*name) return 0;
  if (!strcmp(mangled, name)) return 4;
  char dem[1024], q[1024];
  if (!demangle(mangled, dem, sizeof dem)) return 0; /* extern "C": only the exact name */
  if (!strcmp(dem, name)) return 3;
  if (!qualified(dem, q, sizeof q)) return 0;
  /* the signature without the return type: `reduce<256>(int*)` */
  const char *sig = strstr(dem, q);
  if (sig && !strcmp(sig, name)) return 3;
  if (!strcmp(q, name)) return 2;
  bare(q);
  return !strcmp(q, name) ? 1 : 0;
}

void kernel_name_describe(const char *mangled, char *out, size_t n) {
  char dem[512];
  if (demangle(mangled, dem, sizeof dem))
    snprintf(out, n, "%s (%s)", mangled, dem);
  else
    snprintf(out, n, "%s", mangled);
}
