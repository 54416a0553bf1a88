/* hooks_seam.c: where the executor's hooks (exec/hooks.h) find the
 * analyses. The executor owns the pointer; the analyses' floor fills the
 * table and the API installs it (check/install.c, checks_install). */
#include "exec/hooks.h"

const exec_hooks *exec_hooks_on;
