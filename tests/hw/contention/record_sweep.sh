#!/bin/sh
# record_sweep.sh OUTDIR: records sweep.cu on a GPU (run from anywhere):
#   sh tests/hw/contention/record_sweep.sh OUTDIR
# Builds sweep.cu for sm_90, saves its SASS, runs it twice without a
# profiler (OUTDIR/sweep_plain1.txt, sweep_plain2.txt: 5 launches of each
# configuration, the kernels' own round counts), then under Nsight Compute
# in groups, most wanted first, each under its own time limit
# (OUTDIR/sweep_ncu_GROUP.csv, the program's lines in sweep_ncu_GROUP.txt).
# Copy OUTDIR's text files to tests/hw/contention/recorded/.
OUT=${1:?usage: sh tests/hw/contention/record_sweep.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/sweep_versions.txt" 2>&1
mkdir -p "$OUT/build"
timeout 90 "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$OUT/build/sweep" "$HERE/sweep.cu" > "$OUT/sweep_build.txt" 2>&1 || {
  cat "$OUT/sweep_build.txt"
  exit 1
}
timeout 30 "$CUOBJDUMP" -sass "$OUT/build/sweep" > "$OUT/sweep.sass" 2>&1
for r in 1 2; do
  timeout 20 "$OUT/build/sweep" 5 > "$OUT/sweep_plain$r.txt" 2>&1
  echo "rc $?" >> "$OUT/sweep_plain$r.txt"
done
for grp in "nf:5:nf_all:40" "reload:3:reload_cas:25" "chain:3:flag_chain:25" "cas:3:cas_fadd:25" \
  "nfx:3:nf_part8,nf_words4:40"; do
  name=${grp%%:*} rest=${grp#*:}
  reps=${rest%%:*} rest=${rest#*:}
  only=${rest%%:*} limit=${rest#*:}
  timeout "$limit" "$NCU" --clock-control none --csv --print-units base --metrics "$SHARED_METRICS" \
    --log-file "$OUT/sweep_ncu_$name.csv" "$OUT/build/sweep" "$reps" "$only" > "$OUT/sweep_ncu_$name.txt" 2>&1
  echo "rc $?" >> "$OUT/sweep_ncu_$name.txt"
done
rm -rf "$OUT/build"
