#!/bin/sh
# record.sh: records the program corpus on a real GPU (H100/H200, sm_90).
# Run from the directory that holds tests/programs (the repository root):
#     sh tests/programs/record.sh OUTDIR
# It only reads files of tests/programs. It builds every *.cu here as a user
# does (nvcc -arch=sm_90 -cudart shared -lineinfo, in parallel), and writes
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
mkdir -p "$BIN" "$OUT/sass" "$OUT/ptx" "$OUT/hazard" "$OUT/native" "$OUT/racecheck" "$OUT/synccheck" "$OUT/ncu"
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

# build (in parallel), then the SASS
echo "$progs" | xargs -P "$JOBS" -I P sh -c \
  "timeout 120 '$NVCC' -arch=sm_90 -cudart shared -lineinfo -o '$BIN/P' '$HERE/P.cu' > '$BIN/P.build.log' 2>&1 || echo 'build failed: P'"
for p in $progs; do
  [ -x "$BIN/$p" ] || continue
  "$CUOBJDUMP" -sass "$BIN/$p" > "$OUT/sass/$p.sass" 2>&1
  "$CUOBJDUMP" -ptx "$BIN/$p" > "$OUT/ptx/$p.ptx" 2>&1
done
t1=$(date +%s)
echo "built in $((t1 - start)) s" >> "$OUT/info.txt"

# native runs, then the sanitizers, a few at a time
echo "$progs" | xargs -P "$JOBS" -I P sh -c \
  "[ -x '$BIN/P' ] || exit 0; cd '$BIN' && timeout 30 ./P > '$OUT/native/P.out' 2>&1; echo \$? > '$OUT/native/P.rc'; timeout 30 ./P > '$OUT/native/P.out2' 2>&1"
t2=$(date +%s)
echo "native in $((t2 - t1)) s" >> "$OUT/info.txt"
cs="$SANITIZER --print-limit 10000 --show-backtrace no"
{ echo "$progs" | sed 's/$/ racecheck/; p; s/ racecheck$/ synccheck/'
  echo "$progs" | grep -E '^(race_|any_flag)' | sed 's/$/ hazard/'; } | xargs -P 8 -n 2 sh -c '
  p=$1 tool=$2
  [ -x "'"$BIN"'/$p" ] || exit 0
  case $tool in
    racecheck) extra="--tool racecheck --racecheck-report analysis" ;;
    synccheck) extra="--tool synccheck" ;;
    hazard) extra="--tool racecheck --racecheck-report hazard" ;;
  esac
  cd "'"$BIN"'" && timeout 60 '"$cs"' $extra ./$p > "'"$OUT"'/$tool/$p.txt" 2>&1
  echo $? > "'"$OUT"'/$tool/$p.rc"' sh
t3=$(date +%s)
echo "sanitizers in $((t3 - t2)) s" >> "$OUT/info.txt"

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
