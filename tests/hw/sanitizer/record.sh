#!/bin/sh
# record.sh: records the sanitizer corpus on a real GPU (H100 or H200).
# Run from the repository root on the GPU machine:
#     sh tests/hw/sanitizer/record.sh OUTDIR
# Builds every *.cu of this directory as a whole program
# (nvcc -arch=sm_90 -lineinfo -cudart shared, as `smemu run` builds), then
# runs each row of runs.tsv (case, configuration) under `timeout 60`, a few
# at a time, carrying on past failures. Configurations:
#   plain               the program natively
#   initcheck           compute-sanitizer --tool initcheck
#   initcheck_exit      ... --tool initcheck --error-exitcode 9
#   initcheck_kernel    ... --tool initcheck --destroy-on-device-error kernel
#   initcheck_pl3       ... --tool initcheck --print-limit 3
#   memcheck            ... --tool memcheck
#   memcheck_kernel     ... --tool memcheck --destroy-on-device-error kernel
#   memcheck_pl5        ... --tool memcheck --print-limit 5
#   memcheck_pl5_kernel ... --print-limit 5 --destroy-on-device-error kernel
#   leak                ... --tool memcheck --leak-check full
#   leak_kernel         ... --leak-check full --destroy-on-device-error kernel
#   leak_exit           ... --leak-check full --error-exitcode 9
#   leak_pl2, leak_pl0  ... --leak-check full --print-limit 2 / 0
#   initcheck_pl0       ... --tool initcheck --print-limit 0
#   memcheck_padN[_kernel]  ... --tool memcheck --padding N [--destroy-on-device-error kernel]
#   racecheck           ... --tool racecheck
#   racecheck_hazard    ... --tool racecheck --racecheck-report hazard
#   synccheck           ... --tool synccheck
# Writes OUTDIR/raw/CASE.CONFIG.txt (stdout and stderr together),
# OUTDIR/raw/CASE.CONFIG.rc ("rc N seconds S"), OUTDIR/raw/sass/CASE.sass,
# OUTDIR/raw/versions.txt, OUTDIR/raw/build.txt, OUTDIR/raw/bin/CASE (the
# programs as built and run there), OUTDIR/sanitizer.tgz (all
# of raw/), and OUTDIR/summary.txt (each run's status and ERROR SUMMARY).
# Copy OUTDIR/raw to tests/hw/sanitizer/recorded/ to commit; parse.py reads it.
# Environment: SAN_JOBS (parallel runs, default 6), NVCC, SANITIZER;
# SAN_SRC, another folder of programs with its own runs.tsv (san.cuh stays
# this folder's); SAN_CASES, the cases to build and run (default: all).
set -u

# --one RAW BUILD CASE CONFIG: one run (used through xargs below).
if [ "${1:-}" = "--one" ]; then
  raw=$2 build=$3 case=$4 cfg=$5
  out="$raw/$case.$cfg.txt"
  cs="$SANITIZER"
  case $cfg in
    plain) set -- ;;
    initcheck) set -- $cs --tool initcheck ;;
    initcheck_exit) set -- $cs --tool initcheck --error-exitcode 9 ;;
    initcheck_kernel) set -- $cs --tool initcheck --destroy-on-device-error kernel ;;
    initcheck_pl3) set -- $cs --tool initcheck --print-limit 3 ;;
    memcheck) set -- $cs --tool memcheck ;;
    memcheck_kernel) set -- $cs --tool memcheck --destroy-on-device-error kernel ;;
    memcheck_pl5) set -- $cs --tool memcheck --print-limit 5 ;;
    memcheck_pl5_kernel) set -- $cs --tool memcheck --print-limit 5 --destroy-on-device-error kernel ;;
    leak) set -- $cs --tool memcheck --leak-check full ;;
    leak_kernel) set -- $cs --tool memcheck --leak-check full --destroy-on-device-error kernel ;;
    leak_exit) set -- $cs --tool memcheck --leak-check full --error-exitcode 9 ;;
    leak_pl2) set -- $cs --tool memcheck --leak-check full --print-limit 2 ;;
    leak_pl0) set -- $cs --tool memcheck --leak-check full --print-limit 0 ;;
    initcheck_pl0) set -- $cs --tool initcheck --print-limit 0 ;;
    memcheck_pad*_kernel) n=${cfg#memcheck_pad}; n=${n%_kernel}
      set -- $cs --tool memcheck --padding "$n" --destroy-on-device-error kernel ;;
    memcheck_pad*) set -- $cs --tool memcheck --padding "${cfg#memcheck_pad}" ;;
    racecheck) set -- $cs --tool racecheck ;;
    racecheck_hazard) set -- $cs --tool racecheck --racecheck-report hazard ;;
    synccheck) set -- $cs --tool synccheck ;;
    *) echo "unknown configuration $cfg" > "$out"; exit 0 ;;
  esac
  now=$(date +%s)
  timeout 60 "$@" "$build/$case" > "$out" 2>&1
  rc=$?
  end=$(date +%s)
  echo "rc $rc seconds $((end - now))" > "$raw/$case.$cfg.rc"
  exit 0
fi

OUT=${1:?usage: sh tests/hw/sanitizer/record.sh OUTDIR}
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
[ -d /usr/local/cuda/compute-sanitizer ] && PATH="$PATH:/usr/local/cuda/compute-sanitizer"
[ -d /usr/local/cuda/lib64 ] && LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH LD_LIBRARY_PATH
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "${SAN_SRC:-$HERE}" && pwd)
CASES=${SAN_CASES:-}
NVCC=${NVCC:-nvcc}
SANITIZER=${SANITIZER:-compute-sanitizer}
export SANITIZER
JOBS=${SAN_JOBS:-6}
RAW="$OUT/raw"
BUILD="$OUT/build"
rm -rf "$RAW" "$BUILD"
mkdir -p "$RAW/sass" "$BUILD"
start=$(date +%s)
{
  echo "date: $(date -u)"
  "$NVCC" --version 2>&1 | tail -2
  "$SANITIZER" --version 2>&1 | tail -2
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1
} > "$RAW/versions.txt"
cat "$RAW/versions.txt"
"$SANITIZER" --help > "$RAW/sanitizer_help.txt" 2>&1 || true

# Build in parallel; each program's SASS with line info.
wanted() { [ -z "$CASES" ] || case " $CASES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
for f in "$SRC"/*.cu; do wanted "$(basename "$f" .cu)" && echo "$f"; done | xargs -P 8 -I{} sh -c '
  f={}; s=$(basename "$f" .cu)
  timeout 120 "$0" -arch=sm_90 -lineinfo -cudart shared -I"$3" -o "$1/$s" "$f" > "$1/$s.build.txt" 2>&1 ||
    echo "record: build of $s failed" >> "$1/$s.build.txt"
  cuobjdump -sass "$1/$s" > "$2/sass/$s.sass" 2>&1 || true' "$NVCC" "$BUILD" "$RAW" "$HERE"
cat "$BUILD"/*.build.txt > "$RAW/build.txt" 2>/dev/null
grep failed "$RAW/build.txt"

grep -v '^#' "$SRC/runs.tsv" | while read -r c cfg; do
  [ -n "$c" ] && wanted "$c" && echo "$RAW $BUILD $c $cfg"
done > "$BUILD/jobs.txt"
echo "record: $(wc -l < "$BUILD/jobs.txt") runs, $JOBS at a time"
xargs -P "$JOBS" -L 1 sh "$HERE/record.sh" --one < "$BUILD/jobs.txt"

for f in "$RAW"/*.rc; do
  b=$(basename "$f" .rc)
  printf '%-36s %s  %s\n' "$b" "$(cat "$f")" \
    "$(grep -h 'ERROR SUMMARY\|LEAK SUMMARY' "$RAW/$b.txt" 2>/dev/null | tr '\n' ' ')"
done > "$OUT/summary.txt"
cat "$OUT/summary.txt"
cp "$SRC/runs.tsv" "$RAW/runs.tsv"
# the programs exactly as the GPU ran them (smemu runs the same files)
mkdir -p "$RAW/bin"
for f in "$SRC"/*.cu; do
  s=$(basename "$f" .cu)
  [ -x "$BUILD/$s" ] && cp "$BUILD/$s" "$RAW/bin/$s"
done
tar czf "$OUT/sanitizer.tgz" -C "$OUT" raw
end=$(date +%s)
echo "record.sh: done in $((end - start)) s; outputs under $OUT"
