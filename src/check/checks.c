/* checks.c: the table of checks (checks.h): the order in which the hooks
 * run the enabled rows. A new check is a file defining its row and one
 * line here. */
#include "check/checks.h"

const check_row *const check_table[] = {
    &check_banks, &check_race, &check_cluster, &check_global, &check_ginit, &check_pipeline,
};
const uint32_t check_count = sizeof check_table / sizeof *check_table;

_Static_assert(sizeof check_table / sizeof *check_table <= CHECK_ROWS_MAX, "analysis.h: CHECK_ROWS_MAX");
_Static_assert(HEV_COUNT <= 32, "checks.h: check_row.events");
