/* progress.c: the status line of a long launch (smemu_progress_print, a
 * smemu_options.progress callback): rewritten in place with a carriage
 * return, erased when the launch ends. Callers install it only when the
 * stream is a terminal. */
#include "api/demangle.h"
#include "smemu.h"
#include <stdio.h>

void smemu_progress_print(const smemu_progress *p, void *user) {
  FILE *f = user ? user : stderr;
  if (p->done) {
    fputs("\r\033[K", f);
    fflush(f);
    return;
  }
  char name[512];
  demangle(p->kernel, name, sizeof name);
  double rate = p->seconds > 0 ? (double)p->thread_instructions / p->seconds : 0;
  fprintf(f, "\r\033[Ksmemu: %.60s: %llu/%llu blocks, %.1f M thread instructions/s, %.1f s", name,
          (unsigned long long)p->blocks_done, (unsigned long long)p->blocks_total, rate * 1e-6, p->seconds);
  fflush(f);
}
