#!/bin/sh
# record.sh OUTDIR: builds forms.cu for sm_90a and runs it on the GPU of this
# machine; OUTDIR/forms.out gets its lines (compared by test.sh),
# OUTDIR/gpu.txt says which GPU and driver gave them.
set -e
OUT=${1:-recorded}
HERE=$(dirname "$0")
mkdir -p "$OUT"
nvcc -gencode=arch=compute_90a,code=sm_90a -o "$OUT/forms" "$HERE/forms.cu"
"$OUT/forms" > "$OUT/forms.out"
rm -f "$OUT/forms"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
nvcc --version | tail -2 >> "$OUT/gpu.txt"
