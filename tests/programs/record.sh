#!/bin/sh
# record.sh: records the program corpus on a real GPU (H100/H200, sm_90).
# Run from the directory that holds tests/programs (the repository root):
#     sh tests/programs/record.sh OUTDIR
# It only reads files of tests/programs and tests/hw/{common,corpus}.sh. It
# builds every *.cu here as a user does (nvcc -arch=sm_90 -cudart shared
# -lineinfo, in parallel), and writes
#   OUTDIR/info.txt            versions, GPU, metric names, timings
#   OUTDIR/sass/P.sass         cuobjdump -sass of each program
#   OUTDIR/ptx/P.ptx           cuobjdump -ptx (the PTX smemu runs)
#   OUTDIR/native/P.out, P.rc  the program's stdout+stderr and exit status
#   OUTDIR/native/P.out2       a second run (the output must not vary)
#   OUTDIR/racecheck/P.txt,.rc compute-sanitizer --tool racecheck
#                              --racecheck-report analysis
#   OUTDIR/synccheck/P.txt,.rc compute-sanitizer --tool synccheck
#   OUTDIR/hazard/P.txt,.rc    racecheck --racecheck-report hazard, for the
#                              programs with races (race_*, any_flag)
#   OUTDIR/ncu/all.csv         ncu --csv of every launch of every program
#                              (one ncu session over run_all.sh; the
#                              "Process Name" column names the program)
#   OUTDIR/ncu/P.csv           only when the one-session run failed: per
#                              program instead
# Every command runs under `timeout`, failures are recorded and skipped.
# The sanitizer runs go first (in parallel); ncu runs alone afterwards so
# no other process's kernels share the GPU while counters are collected.
# Environment: NVCC, NCU, SANITIZER, CUOBJDUMP, JOBS (default: cores).
set -u
OUT=${1:?usage: sh tests/programs/record.sh OUTDIR}
. "$(dirname "$0")/../hw/common.sh"
. "$(dirname "$0")/../hw/corpus.sh"
corpus_start ptx hazard ncu
corpus_build ptx
corpus_native
corpus_sanitize "$(echo "$progs" | sed 's/$/ racecheck/; p; s/ racecheck$/ synccheck/'
  echo "$progs" | grep -E '^(race_|any_flag)' | sed 's/$/ hazard/')"

# ncu: one session over all programs; per program when that fails
NCUFLAGS="--clock-control none --cache-control none --csv --print-units base --metrics $METRICS"
cd "$BIN" || exit 2
timeout 120 "$NCU" $NCUFLAGS --target-processes all sh "$HERE/run_all.sh" "$BIN" $progs \
  > "$OUT/ncu/all.csv" 2> "$OUT/ncu/all.err"
rc=$?
echo "ncu all: rc $rc" >> "$OUT/info.txt"
if [ $rc -ne 0 ] || ! grep -q '"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"' "$OUT/ncu/all.csv"; then
  for p in $progs; do
    [ -x "$BIN/$p" ] || continue
    # the whole script is meant to stay under 150 s
    [ $(($(date +%s) - start)) -gt 140 ] && { echo "ncu $p: skipped (deadline)" >> "$OUT/info.txt"; continue; }
    timeout 60 "$NCU" $NCUFLAGS "./$p" > "$OUT/ncu/$p.csv" 2> "$OUT/ncu/$p.err"
    echo "ncu $p: rc $?" >> "$OUT/info.txt"
  done
fi
t4=$(date +%s)
echo "ncu in $((t4 - t3)) s" >> "$OUT/info.txt"
rm -f "$BIN"/*.o
echo "record.sh: done in $((t4 - start)) s ($(echo $progs | wc -w) programs)" | tee -a "$OUT/info.txt"
