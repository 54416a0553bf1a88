#!/bin/sh
# record.sh: records the sass_programs corpus (sample-style programs for
# SASS-informed counting) on a real GPU (H100/H200, sm_90). From a root
# that holds tests/hw/sass_programs:   sh tests/hw/sass_programs/record.sh OUTDIR
# It only reads files of tests/hw/sass_programs. It builds every *.cu here as a
# user does (nvcc -arch=sm_90 -cudart shared -lineinfo, in parallel) and
# writes, in the layout of tests/programs/recorded (compare.py reads it):
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
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
[ -d /usr/local/cuda/compute-sanitizer ] && PATH="$PATH:/usr/local/cuda/compute-sanitizer"
export PATH
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
SANITIZER=${SANITIZER:-compute-sanitizer}
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
BIN="$OUT/bin"
mkdir -p "$BIN" "$OUT/sass" "$OUT/native" "$OUT/racecheck" "$OUT/synccheck" "$OUT/ncu" "$OUT/ncu2" "$OUT/extra"
start=$(date +%s)
progs=$(cd "$HERE" && ls *.cu | sed 's/\.cu$//')
echo "$progs" > "$OUT/programs.txt"

METRICS="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"
{
  echo "date: $(date -u)"
  "$NVCC" --version 2>&1 | tail -2
  "$NCU" --version 2>&1 | tail -1
  "$SANITIZER" --version 2>&1 | tail -1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  echo "metrics: $METRICS"
  echo "build: $NVCC -arch=sm_90 -cudart shared -lineinfo -o P P.cu"
} > "$OUT/info.txt"

echo "$progs" | xargs -P "$JOBS" -I P sh -c \
  "timeout 120 '$NVCC' -arch=sm_90 -cudart shared -lineinfo -o '$BIN/P' '$HERE/P.cu' > '$BIN/P.build.log' 2>&1 || echo 'build failed: P' >> '$OUT/info.txt'"
for p in $progs; do
  [ -x "$BIN/$p" ] || continue
  timeout 30 "$CUOBJDUMP" -sass "$BIN/$p" > "$OUT/sass/$p.sass" 2>&1
done
t1=$(date +%s)
echo "built in $((t1 - start)) s" >> "$OUT/info.txt"

echo "$progs" | xargs -P "$JOBS" -I P sh -c \
  "[ -x '$BIN/P' ] || exit 0; cd '$BIN' && timeout 30 ./P > '$OUT/native/P.out' 2>&1; echo \$? > '$OUT/native/P.rc'; timeout 30 ./P > '$OUT/native/P.out2' 2>&1"
t2=$(date +%s)
echo "native in $((t2 - t1)) s" >> "$OUT/info.txt"
cs="$SANITIZER --print-limit 10000 --show-backtrace no"
echo "$progs" | sed 's/$/ racecheck/; p; s/ racecheck$/ synccheck/' | xargs -P 8 -n 2 sh -c '
  p=$1 tool=$2
  [ -x "'"$BIN"'/$p" ] || exit 0
  case $tool in
    racecheck) extra="--tool racecheck --racecheck-report analysis" ;;
    synccheck) extra="--tool synccheck" ;;
  esac
  cd "'"$BIN"'" && timeout 60 '"$cs"' $extra ./$p > "'"$OUT"'/$tool/$p.txt" 2>&1
  echo $? > "'"$OUT"'/$tool/$p.rc"' sh
t3=$(date +%s)
echo "sanitizers in $((t3 - t2)) s" >> "$OUT/info.txt"

NCUFLAGS="--clock-control none --cache-control none --csv --print-units base"
cd "$BIN" || exit 2
timeout 150 "$NCU" $NCUFLAGS --metrics "$METRICS" --target-processes all sh "$HERE/run_all.sh" "$BIN" $progs \
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
  timeout 150 "$NCU" $NCUFLAGS --metrics "$METRICS" --target-processes all sh "$HERE/run_all.sh" "$BIN" $progs \
    > "$OUT/ncu2/all.csv" 2> "$OUT/ncu2/all.err"
  echo "ncu2 all: rc $?" >> "$OUT/info.txt"
fi
t6=$(date +%s)
rm -rf "$BIN"
echo "record.sh: done in $((t6 - start)) s ($(echo $progs | wc -w) programs)" | tee -a "$OUT/info.txt"
