/* html_report.c: `smemu run --html FILE` (SMEMU_HTML): every finished
 * launch is noted in an HTML collector (src/report/html.c) while the
 * context still holds its figures, and the page is written at exit. */
#include "report/html.h"
#include "rt.h"
#include <stdio.h>
#include <string.h>

static smemu_html *page;

/* The program's command line, for the page's heading. */
static void command_line(char *out, size_t n) {
  FILE *f = fopen("/proc/self/cmdline", "r");
  size_t k = f ? fread(out, 1, n - 1, f) : 0;
  if (f) fclose(f);
  out[k] = 0;
  for (size_t i = 0; i + 1 < k; i++)
    if (!out[i]) out[i] = ' ';
  if (!k) snprintf(out, n, "a CUDA program");
}

void rt_html_launch(smemu_status s) {
  if (!page) {
    char title[1024];
    command_line(title, sizeof title);
    page = smemu_html_new(title);
  }
  if (page && rt.ctx) smemu_html_add(page, rt.ctx, s);
}

void rt_html_finish(void) {
  if (!page) page = smemu_html_new("a CUDA program (no launches)");
  if (!page || smemu_html_write(page, rt.html_file) != 0) rt_msg("cannot write %s", rt.html_file);
  smemu_html_free(page);
  page = NULL;
}
