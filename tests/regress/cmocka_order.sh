#!/bin/sh
# cmocka_order.sh: every unit test includes <stdarg.h>, <stddef.h> and
# <setjmp.h> before <cmocka.h>, as cmocka requires: with a newer glibc
# (the GPU host's) nothing else brings va_list in, and a test that
# leaned on an older glibc's headers failed to build there.
cd "$(dirname "$0")/../.." || exit 2
bad=0
for f in tests/unit/*.c; do
  awk '/#include <(stdarg|stddef|setjmp)\.h>/ { seen[$2] = 1 }
       /#include <cmocka\.h>/ { exit !(seen["<stdarg.h>"] && seen["<stddef.h>"] && seen["<setjmp.h>"]) }' "$f" ||
    { echo "$f: <cmocka.h> before <stdarg.h>, <stddef.h> or <setjmp.h>"; bad=$((bad + 1)); }
done
[ $bad -eq 0 ] || { echo "FAIL: $bad unit tests"; exit 1; }
echo "cmocka_order: $(ls tests/unit/*.c | wc -l) unit tests include what cmocka needs first"
