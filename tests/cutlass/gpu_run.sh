#!/bin/bash
# gpu_run.sh: the GPU batch's run.sh (copied to .dev/cutlass/run.sh with
# bin/, the binaries smemu runs, src.tgz, this branch's tests/cutlass, and
# wheel.tgz, the wheel's cutlass_library/source). Run as
#   cd .dev/cutlass && RES=DIR bash run.sh
# Records forms.out and the examples' outputs (tests/cutlass/record.sh).
set -u
: "${RES:?RES must name the results folder}"
HERE=$(pwd)
W=$(mktemp -d)
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$RES" "$W/src" && tar xzf src.tgz -C "$W/src" && tar xzf wheel.tgz -C "$W" || exit 1
LD_LIBRARY_PATH=/usr/local/cuda/lib64 timeout 30 ./bin/forms > "$RES/forms.out" 2>&1
echo "exit $?" >> "$RES/forms.out"
sh "$W/src/tests/cutlass/record.sh" "$HERE/bin" "$W/source" "$RES" "${CUTLASS_LIMIT:-110}"
rm -rf "$W"
