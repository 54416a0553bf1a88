#!/bin/sh
# record.sh: records the sass_programs corpus (sample-style programs for
# SASS-informed counting) on a real GPU (H100/H200, sm_90). From a root
# that holds tests/hw/sass_programs:   sh tests/hw/sass_programs/record.sh OUTDIR
# It reads only files of tests/hw/sass_programs, tests/hw/{common,corpus}.sh
# and tests/programs/{prog.h,run_all.sh}. It builds every *.cu here as a user
# does (nvcc -arch=sm_90 -cudart shared -lineinfo, in parallel) and writes,
# in the layout of tests/programs/recorded (compare.py reads it):
#   OUTDIR/info.txt            versions, GPU, metric names, timings
#   OUTDIR/sass/P.sass         cuobjdump -sass of each program
#   OUTDIR/native/P.out, P.rc  the program's output and exit status (P.out2: a second run)
#   OUTDIR/racecheck/P.txt     compute-sanitizer --tool racecheck (analysis)
#   OUTDIR/synccheck/P.txt     compute-sanitizer --tool synccheck
#   OUTDIR/ncu/all.csv         ncu --csv, the nine shared counters, every launch
#   OUTDIR/ncu2/all.csv        the same again (a second session: the counters' noise)
#   OUTDIR/extra/P.csv         generic_ptr and ldsm_tile with extra metrics
#                              (generic ld/st/atom instructions, all shared
#                              wavefronts, ldsm/stsm), those the ncu here has
# Every command runs under `timeout`; failures are recorded and skipped.
set -u
OUT=${1:?usage: sh tests/hw/sass_programs/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
. "$(dirname "$0")/../corpus.sh"
corpus_start ncu ncu2 extra
corpus_build
corpus_native
corpus_sanitize "$(echo "$progs" | sed 's/$/ racecheck/; p; s/ racecheck$/ synccheck/')"

NCUFLAGS="--clock-control none --cache-control none --csv --print-units base"
cd "$BIN" || exit 2
timeout 150 "$NCU" $NCUFLAGS --metrics "$METRICS" --target-processes all sh "$HERE/../../programs/run_all.sh" "$BIN" $progs \
  > "$OUT/ncu/all.csv" 2> "$OUT/ncu/all.err"
echo "ncu all: rc $?" >> "$OUT/info.txt"
t4=$(date +%s)
echo "ncu in $((t4 - t3)) s" >> "$OUT/info.txt"

# generic and ldmatrix programs with the extra metrics this ncu knows
timeout 60 "$NCU" --query-metrics > "$OUT/extra/query-metrics.txt" 2>&1
X="$METRICS"
for m in smsp__sass_inst_executed_op_generic_ld smsp__sass_inst_executed_op_generic_st \
         smsp__sass_inst_executed_op_generic_atom smsp__sass_inst_executed_op_ld smsp__sass_inst_executed_op_st \
         smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_stsm \
         smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm \
         l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_bank_conflicts_pipe_lsu_mem_shared \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm \
         l1tex__t_requests_pipe_lsu_mem_shared_op_ld l1tex__t_requests_pipe_lsu_mem_shared_op_st \
         l1tex__t_requests_pipe_lsu_mem_shared_op_atom l1tex__t_requests_pipe_lsu_mem_global_op_ld \
         l1tex__t_requests_pipe_lsu_mem_global_op_atom; do
  grep -q "^$m[[:space:]]" "$OUT/extra/query-metrics.txt" && X="$X,$m.sum"
done
echo "extra metrics: $X" >> "$OUT/info.txt"
gzip -9 "$OUT/extra/query-metrics.txt"
for p in generic_ptr ldsm_tile; do
  [ -x "$BIN/$p" ] || continue
  timeout 60 "$NCU" $NCUFLAGS --metrics "$X" "./$p" > "$OUT/extra/$p.csv" 2> "$OUT/extra/$p.err"
  echo "ncu extra $p: rc $?" >> "$OUT/info.txt"
done
t5=$(date +%s)
echo "extra in $((t5 - t4)) s" >> "$OUT/info.txt"

# a second session over the corpus, for the counters' noise, if time allows
if [ $((t5 - start)) -lt 300 ]; then
  timeout 150 "$NCU" $NCUFLAGS --metrics "$METRICS" --target-processes all sh "$HERE/../../programs/run_all.sh" "$BIN" $progs \
    > "$OUT/ncu2/all.csv" 2> "$OUT/ncu2/all.err"
  echo "ncu2 all: rc $?" >> "$OUT/info.txt"
fi
t6=$(date +%s)
rm -rf "$BIN"
echo "record.sh: done in $((t6 - start)) s ($(echo $progs | wc -w) programs)" | tee -a "$OUT/info.txt"
