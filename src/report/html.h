/* html.h: the HTML report (`smemu exec --html FILE`, `smemu run --html FILE`).
 * A collector notes each finished launch (its figures, the bank model's
 * per-line counters and worst instances, the checkers' hazards and barrier
 * errors, a fault's message) while the context still holds them, and writes
 * one self-contained page (inline style, no network) at the end. */
#ifndef SMEMU_REPORT_HTML_H
#define SMEMU_REPORT_HTML_H
#include "smemu.h"

typedef struct smemu_html smemu_html;

/* A collector; `title` heads the page (the command line, say). */
smemu_html *smemu_html_new(const char *title);
/* Note the last launch on ctx, whose smemu_launch returned s. */
void smemu_html_add(smemu_html *h, const smemu_ctx *ctx, smemu_status s);
/* Write the page; 0 on success, -1 when the file cannot be written. */
int smemu_html_write(const smemu_html *h, const char *path);
void smemu_html_free(smemu_html *h);

#endif
