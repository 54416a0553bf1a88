#!/bin/sh
# regload.sh BUILD: runs test_sass_regload on the SASS the toolchain at
# hand makes of regload.ptx now (regload_regen.sh into BUILD/sass_regload),
# so the rules of src/sass/regload.c are checked against this ptxas; the
# checked-in regload.nvdisasm is tested by BUILD/tests/test_sass_regload
# itself. Exits 77 (skip) without ptxas or nvdisasm.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "$B" && pwd)
NVDISASM=${NVDISASM:-$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$B"/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)} \
  sh "$here/regload_regen.sh" "$B/sass_regload"
rc=$?
[ $rc = 77 ] && { echo "sass-regload: ptxas or nvdisasm not found: skipped"; exit 77; }
[ $rc = 0 ] || exit 1
SMEMU_SASS_REGLOAD="$B/sass_regload" exec "$B/tests/test_sass_regload"
