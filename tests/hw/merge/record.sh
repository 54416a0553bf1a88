#!/bin/sh
# record.sh OUTDIR: what ptxas makes of merge.ptx. Run from the repository
# root: sh tests/hw/merge/record.sh OUTDIR. Needs ptxas and cuobjdump (or
# nvdisasm) of CUDA 13, no GPU. Writes OUTDIR/merge.sass (the SASS),
# OUTDIR/versions.txt and OUTDIR/sass_counts.tsv: per kernel the number of
# shared loads (LDS*) and stores (STS*) and their opcodes in order. Copy
# merge.sass and sass_counts.tsv to tests/hw/merge/.
OUT=${1:?usage: sh tests/hw/merge/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
{ date -u; ptxas --version | tail -1; } > "$OUT/versions.txt" 2>&1
timeout 60 ptxas -arch=sm_90 -O3 "$HERE/merge.ptx" -o "$OUT/merge.cubin" > "$OUT/build.txt" 2>&1 || cat "$OUT/build.txt"
timeout 60 cuobjdump -sass "$OUT/merge.cubin" > "$OUT/merge.sass" 2>&1 ||
  timeout 60 nvdisasm -c "$OUT/merge.cubin" > "$OUT/merge.sass" 2>&1
sh "$HERE/sass_counts.sh" "$OUT/merge.sass" > "$OUT/sass_counts.tsv"
cat "$OUT/sass_counts.tsv"
rm -f "$OUT/merge.cubin"
