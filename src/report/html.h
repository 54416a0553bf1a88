/* html.h: the HTML report's API is public (smemu.h: smemu_html_new, _add,
 * _write, _free); this header only forwards to it. */
#ifndef SMEMU_REPORT_HTML_H
#define SMEMU_REPORT_HTML_H
#include "smemu.h"

#endif
