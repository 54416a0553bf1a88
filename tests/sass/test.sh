#!/bin/sh
# test.sh BUILD: runs test_sass_cases on cases.ptx/cases.nvdisasm built
# now from cases.cu by nvcc and nvdisasm (regen.sh into BUILD/sass_cases),
# so the mapping is checked against the compiler at hand; the checked-in
# copies are tested by BUILD/tests/test_sass_cases itself. Exits 77 (skip)
# without nvcc or nvdisasm.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
command -v "${NVCC:-nvcc}" >/dev/null 2>&1 || { echo "sass-cases: nvcc not found: skipped"; exit 77; }
ND=${NVDISASM:-$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$B"/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)}
[ -n "$ND" ] || { echo "sass-cases: nvdisasm not found: skipped"; exit 77; }
NVDISASM=$ND sh "$here/regen.sh" "$B/sass_cases" || exit 1
SMEMU_SASS_CASES="$B/sass_cases" exec "$B/tests/test_sass_cases"
