#!/bin/sh
# record.sh: builds edge_main.cu for sm_90 and runs it on this machine's GPU;
# writes OUTDIR/edge.bin (copy it to tests/hw/arith_edges/edge.bin) and edge.txt.
set -eu
OUT=${1:?usage: record.sh OUTDIR}
mkdir -p "$OUT"
${NVCC:-nvcc} -arch=sm_90 -O3 -o "$OUT/edge" tests/hw/arith_edges/edge_main.cu
"$OUT/edge" "$OUT/edge.bin" > "$OUT/edge.txt"
