#!/bin/sh
# record2.sh: the follow-up recording of tests/hw/tma (after record.sh's
# first run): each tensor store case in its own process (the first run's
# store process ended at an illegal instruction), and the s64 reductions
# one operation at a time (add was illegal). About 30 s on an H100.
# Run from the scratch root:  sh tests/hw/tma/record2.sh OUTDIR
OUT=${1:?usage: record2.sh OUTDIR}
HERE=$(dirname "$0")
mkdir -p "$OUT"
NVCC=${NVCC:-nvcc}
$NVCC -gencode=arch=compute_90a,code=sm_90a -lineinfo -O3 -I"$HERE" -o "$OUT/tma" "$HERE/tma.cu" > "$OUT/tma.build.txt" 2>&1
T="$OUT/tma"
n=$(timeout 20 "$T" nstores)
i=0
: > "$OUT/store2.out"
while [ "$i" -lt "${n:-0}" ]; do
  timeout 20 "$T" store $i >> "$OUT/store2.out" 2>&1 || echo "store $i rc $?" >> "$OUT/store2.out"
  i=$((i + 1))
done
: > "$OUT/reduce_s64.out"
for op in 0 1 2 5 6 7; do
  timeout 20 "$T" reduce 6 $op >> "$OUT/reduce_s64.out" 2>&1 || echo "reduce s64 op $op rc $?" >> "$OUT/reduce_s64.out"
done
rm -f "$T"
echo done
