#!/bin/sh
# record.sh SRC OUT [NAME...]: records the corpus (or the programs named)
# on a real GPU (H100/H200, sm_90), from the sources stage.sh put in SRC. Each phase runs its commands
# in parallel under `timeout`, writes results as it goes and starts nothing
# new once DEADLINE (seconds since the start, default 900) has passed;
# PHASES (default: native ncu synccheck racecheck ncu2) picks the phases:
#   OUT/info.txt             versions, GPU, metrics, build line, timings
#   OUT/build/P.build.log    the compiler's messages of a program that failed to build
#   OUT/sass.md5             P, md5 of its .nv_fatbin section, of its
#                            `cuobjdump -sass`, and of that with the hashes
#                            in internal names masked (the comparison checks
#                            that its own build has the same device code)
#   OUT/native/P.out, P.err, P.rc   the program's stdout, stderr, exit status
#   OUT/ncu/P.csv            ncu --csv, the nine shared counters, first 10 launches
#   OUT/ncu2/P.csv           the same again, when time is left (the noise)
#   OUT/racecheck/P.txt      compute-sanitizer --tool racecheck (analysis report)
#   OUT/synccheck/P.txt      compute-sanitizer --tool synccheck
# (.rc beside each: the exit status, 124 when cut off by its timeout).
set -u
here=$(cd "$(dirname "$0")" && pwd)
SRC=${1:?usage: record.sh SRC OUT}
OUT=${2:?usage: record.sh SRC OUT [NAME...]}
shift 2
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
[ -d /usr/local/cuda/compute-sanitizer ] && PATH="$PATH:/usr/local/cuda/compute-sanitizer"
export PATH
mkdir -p "$OUT/native" "$OUT/ncu" "$OUT/ncu2" "$OUT/racecheck" "$OUT/synccheck"
OUT=$(cd "$OUT" && pwd)
BIN=${BIN:-$OUT/../corpus-bin}
mkdir -p "$BIN"
BIN=$(cd "$BIN" && pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
DEADLINE=${DEADLINE:-900}
start=$(date +%s)
export start DEADLINE BIN OUT
METRICS="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"
export METRICS
{
  echo "date: $(date -u)"
  nvcc --version 2>&1 | tail -2
  ncu --version 2>&1 | tail -1
  compute-sanitizer --version 2>&1 | tail -1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  echo "metrics: $METRICS"
  echo "build: nvcc -arch=sm_90 -O2 (see build.sh)"
} > "$OUT/info.txt"
stamp() { echo "$1 at $(($(date +%s) - start)) s" >> "$OUT/info.txt"; }

NVCC="timeout 400 nvcc" JOBS=$JOBS sh "$here/build.sh" "$SRC" "$BIN" "$@" 2>> "$OUT/info.txt"
stamp built
mkdir -p "$OUT/build"
for f in "$BIN"/*.build.log; do
  [ -f "$f" ] && [ ! -x "${f%.build.log}" ] && head -c 20000 "$f" > "$OUT/build/$(basename "$f")"
done
progs=$(grep -v '^#' "$here/programs" | while read -r n rest; do
  [ -n "$n" ] && [ -x "$BIN/$n" ] || continue
  [ $# -eq 0 ] || echo " $* " | grep -q " $n " && echo "$n"
done)
# the device code's fingerprint: the .nv_fatbin section (host code differs
# with the host compiler), the SASS text, and the SASS text with the
# path-dependent hashes of internal-linkage names masked
echo "$progs" | xargs -P "$JOBS" -I P sh -c '
  objcopy -O binary --only-section=.nv_fatbin "$BIN/P" "$BIN/P.fatbin" 2>/dev/null
  cuobjdump -sass "$BIN/P" > "$BIN/P.sass" 2>/dev/null
  echo "P $(md5sum < "$BIN/P.fatbin" | cut -c1-32) $(md5sum < "$BIN/P.sass" | cut -c1-32) $(sed "s/_INTERNAL_[0-9a-f]*_/_INTERNAL_/g; s/_GLOBAL__N__[0-9a-f]*_/_GLOBAL__N__/g" "$BIN/P.sass" | md5sum | cut -c1-32)" > "$BIN/P.md5"'
for p in $progs; do cat "$BIN/$p.md5"; done > "$OUT/sass.md5"
stamp fingerprinted

# run_phase TOOL PARALLEL TIMEOUT: every program under TOOL (native, ncu,
# racecheck, synccheck), PARALLEL at once
run_phase() {
  echo "$progs" | xargs -P "$2" -I P sh -c '
    p=P tool='"$1"' lim='"$3"'
    [ $(($(date +%s) - start)) -lt "$DEADLINE" ] || { echo skipped > "$OUT/$tool/$p.rc"; exit 0; }
    args=$(grep "^$p " "'"$here"'/programs" | cut -d" " -f3-)
    cd "$BIN"
    case $tool in
      native) timeout $lim ./$p $args > "$OUT/native/$p.out" 2> "$OUT/native/$p.err" ;;
      ncu|ncu2) timeout $lim ncu --clock-control none --cache-control none --csv --print-units base \
             --launch-count 10 --metrics "$METRICS" ./$p $args > "$OUT/$tool/$p.csv" 2> "$OUT/$tool/$p.err" ;;
      racecheck) timeout $lim compute-sanitizer --print-limit 200 --show-backtrace no --tool racecheck \
             --racecheck-report analysis ./$p $args > "$OUT/racecheck/$p.txt" 2>&1 ;;
      synccheck) timeout $lim compute-sanitizer --print-limit 200 --show-backtrace no --tool synccheck \
             ./$p $args > "$OUT/synccheck/$p.txt" 2>&1 ;;
    esac
    echo $? > "$OUT/$tool/$p.rc"
    # a sanitizer that reports on every launch writes megabytes: keep the head
    for f in "$OUT/$tool/$p.txt" "$OUT/$tool/$p.out" "$OUT/$tool/$p.err"; do [ -f "$f" ] && truncate -s "<100000" "$f"; done'
  stamp "$1"
}
for phase in ${PHASES:-native ncu synccheck racecheck ncu2}; do
  run_phase "$phase" 8 60
done
gzip -9 "$OUT"/ncu/*.err "$OUT"/ncu2/*.err 2>/dev/null
stamp done
