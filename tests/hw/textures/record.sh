#!/bin/sh
# record.sh OUTDIR: builds textures.cu as test.sh builds it (nvcc -arch=sm_90
# -cudart shared) and runs it on the GPU: OUTDIR/textures.out (stdout),
# .err (stderr), .rc (exit status), versions.txt; then queries.cu:
# OUTDIR/queries.out. Copy textures.out, queries.out and versions.txt to
# tests/hw/textures/recorded/. Run from the repository root
# (or any folder holding textures.cu): sh record.sh OUTDIR
OUT=${1:?usage: sh record.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt"
timeout 180 nvcc -arch=sm_90 -cudart shared -o "$OUT/textures" "$here/textures.cu" "$here/textures_sustp.cu" "$here/textures_query.cu" > "$OUT/build.txt" 2>&1 || cat "$OUT/build.txt"
timeout 60 "$OUT/textures" > "$OUT/textures.out" 2> "$OUT/textures.err"
echo $? > "$OUT/textures.rc"
tail -3 "$OUT/textures.out"; grep FAIL "$OUT/textures.out"
# each txq/suq/istypep form alone, through the driver's PTX JIT
timeout 180 nvcc -arch=sm_90 -cudart shared -o "$OUT/queries" "$here/queries.cu" -lcuda > "$OUT/build_q.txt" 2>&1 ||
  cat "$OUT/build_q.txt"
timeout 60 "$OUT/queries" > "$OUT/queries.out" 2>&1
rm -f "$OUT/queries"
rm -f "$OUT/textures"
