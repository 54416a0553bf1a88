#!/bin/sh
# record.sh OUTDIR: builds memory_edges.cu as tests/runtime builds its
# programs (nvcc -arch=sm_90 -cudart shared -lineinfo) and runs it on the
# GPU: OUTDIR/memory_edges.out (stdout), .err (stderr), .rc (exit status),
# versions.txt. Copy .out and .rc to tests/runtime/expected/. Run from the
# repository root: sh tests/hw/rtapi/record.sh OUTDIR
OUT=${1:?usage: sh tests/hw/rtapi/record.sh OUTDIR}
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$OUT"
{ date -u; nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/versions.txt" 2>&1
timeout 120 nvcc -arch=sm_90 -cudart shared -lineinfo -o "$OUT/memory_edges" tests/hw/rtapi/memory_edges.cu > "$OUT/build.txt" 2>&1 || cat "$OUT/build.txt"
timeout 60 "$OUT/memory_edges" > "$OUT/memory_edges.out" 2> "$OUT/memory_edges.err"
echo $? > "$OUT/memory_edges.rc"
cat "$OUT/memory_edges.out"
rm -f "$OUT/memory_edges"
