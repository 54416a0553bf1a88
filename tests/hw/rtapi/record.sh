#!/bin/sh
# record.sh OUTDIR: builds memory_edges.cu and small_api.cu as tests/runtime
# builds its programs (nvcc -arch=sm_90 -cudart shared -lineinfo) and runs
# them on the GPU: OUTDIR/NAME.out (stdout), .err (stderr), .rc (exit
# status), versions.txt. Copy .out and .rc to tests/runtime/expected/ (and
# small_api.out here). Run from the repository root:
#   sh tests/hw/rtapi/record.sh OUTDIR
OUT=${1:?usage: sh tests/hw/rtapi/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt"
for name in memory_edges small_api; do
  timeout 120 nvcc -arch=sm_90 -cudart shared -lineinfo -o "$OUT/$name" "tests/hw/rtapi/$name.cu" > "$OUT/$name.build.txt" 2>&1 ||
    cat "$OUT/$name.build.txt"
  timeout 60 "$OUT/$name" > "$OUT/$name.out" 2> "$OUT/$name.err"
  echo $? > "$OUT/$name.rc"
  cat "$OUT/$name.out"
  rm -f "$OUT/$name"
done
