#!/bin/sh
# record.sh: records the sass_cub corpus (cub block, warp and device
# primitives of the toolkit's CCCL) on a real GPU (sm_90). From a root that
# holds tests/hw/sass_cub:   sh tests/hw/sass_cub/record.sh OUTDIR
# It reads only files of tests/hw/sass_cub, tests/hw/{common,corpus}.sh and
# tests/programs/{prog.h,run_all.sh}. It builds every *.cu here as a user
# does (nvcc -arch=sm_90 -cudart shared -lineinfo, in parallel) and writes,
# in the layout of tests/programs/recorded (compare.py reads it):
#   OUTDIR/info.txt            versions, GPU, metric names, timings
#   OUTDIR/sass/P.sass         cuobjdump -sass of each program
#   OUTDIR/native/P.out, P.rc  the program's output and exit status
#   OUTDIR/ncu/all.csv         ncu --csv, the nine shared counters, every launch
#   OUTDIR/ncu2/all.csv        the same again (a second session: the counters' noise)
# No sanitizers: the corpus measures the counters (the SASS mapping).
set -u
OUT=${1:?usage: sh tests/hw/sass_cub/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
. "$(dirname "$0")/../corpus.sh"
corpus_start ncu ncu2
corpus_build
corpus_native
t3=$(date +%s)
NCUFLAGS="--clock-control none --cache-control none --csv --print-units base"
cd "$BIN" || exit 2
for s in ncu ncu2; do
  # the second session only while the first left time (a 90 s budget)
  [ $s = ncu2 ] && [ $(($(date +%s) - start)) -gt 50 ] && { echo "ncu2 skipped: no time" >> "$OUT/info.txt"; break; }
  timeout 35 "$NCU" $NCUFLAGS --metrics "$METRICS" --target-processes all sh "$HERE/../../programs/run_all.sh" "$BIN" $progs \
    > "$OUT/$s/all.csv" 2> "$OUT/$s/all.err"
  echo "$s all: rc $?" >> "$OUT/info.txt"
  t4=$(date +%s)
  echo "$s in $((t4 - t3)) s" >> "$OUT/info.txt"
  t3=$t4
done
echo "record.sh: done in $(($(date +%s) - start)) s ($(echo $progs | wc -w) programs)" >> "$OUT/info.txt"
