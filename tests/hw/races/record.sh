#!/bin/sh
# record.sh: records the race/barrier corpus on a real GPU (H100 or H200).
# Run from the repository root on the GPU machine:
#     sh tests/hw/races/record.sh OUTDIR
# It builds driver.cu (nvcc -arch=sm_90 -lineinfo), assembles every kernel's
# checked-in PTX into a cubin (ptxas -arch=sm_90 -lineinfo, so the GPU runs
# the PTX smemu runs), then runs every case of manifest.tsv plainly and under
#   compute-sanitizer --tool racecheck --racecheck-report analysis
#   compute-sanitizer --tool racecheck --racecheck-report hazard
#   compute-sanitizer --tool synccheck
#   compute-sanitizer --tool initcheck
# each under `timeout 60`, a few at a time, carrying on past failures, and
# writes
#   OUTDIR/races.tgz     every raw output (raw/CASE.TOOL.txt, its exit status
#                        and seconds in raw/CASE.TOOL.rc), the versions, SASS
#                        with line info, and the PTX regenerated here vs the
#                        checked-in PTX
#   OUTDIR/vectors.json  parse.py's vectors (hazards, sync errors, summaries,
#                        raw outputs)
#   OUTDIR/vectors.tsv   the same vectors as the TSV that test_races_hw reads
#   OUTDIR/summary.txt   one line per case (also printed)
# Copy vectors.json, vectors.tsv and races.tgz to tests/hw/races/ to commit.
# Environment: RACES_JOBS (parallel builds and runs, default 12),
# RACES_DEADLINE (seconds after which remaining runs are skipped, default
# 120), RACES_KERNEL_TIMEOUT (driver gives up on a hung kernel, default 8 s), RACES_CASES (a
# grep -E regex of case names to run), NVCC, PTXAS, SANITIZER, PYTHON.
set -u

# --build STEM: assemble one kernel's PTX (used through xargs below).
if [ "${1:-}" = "--build" ]; then
  stem=$2 ptx="$HERE/$2.ptx" log="$BUILD/$2.build.txt" diff="$BUILD/$2.diff.txt"
  if "$PTXAS" -arch=sm_90 -O3 -lineinfo "$ptx" -o "$BUILD/cubin/$stem.cubin" >> "$log" 2>&1; then
    nvdisasm -g -c "$BUILD/cubin/$stem.cubin" > "$RAW/sass/$stem.sass" 2>&1 ||
      cuobjdump -sass "$BUILD/cubin/$stem.cubin" > "$RAW/sass/$stem.sass" 2>&1 || true
  else
    echo "record: ptxas failed on $ptx (the driver will JIT it)" | tee -a "$log"
  fi
  if "$NVCC" -arch=sm_90 -O3 -lineinfo -ptx "$HERE/$stem.cu" -o "$RAW/ptx/$stem.ptx" >> "$log" 2>&1; then
    grep -v '^//' "$ptx" | grep -v '\.file' > "$BUILD/$stem.a.ptx"
    grep -v '^//' "$RAW/ptx/$stem.ptx" | grep -v '\.file' > "$BUILD/$stem.b.ptx"
    if cmp -s "$BUILD/$stem.a.ptx" "$BUILD/$stem.b.ptx"; then
      echo "$stem: same PTX" > "$diff"
      rm -f "$RAW/ptx/$stem.ptx"
    else
      echo "$stem: DIFFERENT PTX (raw/ptx/$stem.ptx)" > "$diff"
    fi
  fi
  exit 0
fi

# --one RAW CASE TOOL: one run (used through xargs below).
if [ "${1:-}" = "--one" ]; then
  raw=$2 case=$3 tool=$4
  out="$raw/$case.$tool.txt"
  now=$(date +%s)
  if [ $((now - RACES_START)) -gt "$RACES_DEADLINE" ]; then
    echo "skipped: deadline" > "$out"
    echo "rc skipped seconds 0" > "$raw/$case.$tool.rc"
    exit 0
  fi
  cs="$SANITIZER --print-limit 100000"
  case $tool in
    plain) set -- ;;
    analysis) set -- $cs --tool racecheck --racecheck-report analysis ;;
    hazard) set -- $cs --tool racecheck --racecheck-report hazard ;;
    synccheck) set -- $cs --tool synccheck ;;
    initcheck) set -- $cs --tool initcheck ;;
  esac
  timeout 40 "$@" "$RACES_DRIVER" "$RACES_DIR" "$case" > "$out" 2>&1
  rc=$?
  end=$(date +%s)
  echo "rc $rc seconds $((end - now))" > "$raw/$case.$tool.rc"
  [ "$rc" -ne 0 ] && echo "  $case $tool: exit status $rc after $((end - now)) s"
  exit 0
fi

OUT=${1:?usage: sh tests/hw/races/record.sh OUTDIR}
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
[ -d /usr/local/cuda/compute-sanitizer ] && PATH="$PATH:/usr/local/cuda/compute-sanitizer"
export PATH
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
HERE=tests/hw/races
NVCC=${NVCC:-nvcc}
PTXAS=${PTXAS:-ptxas}
PY=${PYTHON:-python3}
SANITIZER=${SANITIZER:-compute-sanitizer}
JOBS=${RACES_JOBS:-12}
RAW="$OUT/raw"
BUILD="$OUT/build"
rm -rf "$RAW" "$BUILD"
mkdir -p "$RAW/sass" "$RAW/ptx" "$BUILD/cubin"
RACES_START=$(date +%s)
export RACES_START
export RACES_DEADLINE=${RACES_DEADLINE:-120}
export RACES_KERNEL_TIMEOUT=${RACES_KERNEL_TIMEOUT:-8}
export SANITIZER NVCC PTXAS HERE RAW BUILD

{
  echo "date: $(date -u)"
  "$NVCC" --version 2>&1 | tail -2
  "$PTXAS" --version 2>&1 | tail -1
  "$SANITIZER" --version 2>&1 | tail -2
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1
} > "$RAW/versions.txt"
cat "$RAW/versions.txt"
"$SANITIZER" --help > "$RAW/sanitizer_help.txt" 2>&1 || true

# The driver (host code only; kernels come from the cubins).
"$NVCC" -arch=sm_90 -lineinfo -o "$BUILD/driver" "$HERE/driver.cu" -lcuda \
  > "$RAW/build.txt" 2>&1 || { cat "$RAW/build.txt"; echo "record: driver build failed"; }
export RACES_DRIVER="$BUILD/driver"
export RACES_DIR="$HERE"
export RACES_CUBIN_DIR="$BUILD/cubin"

# Cubins from the checked-in PTX, their SASS with line info, and the PTX
# this machine's nvcc makes from the .cu files (to show toolchain drift),
# several kernels at a time (record.sh --build STEM).
for ptx in "$HERE"/*.ptx; do basename "$ptx" .ptx; done |
  xargs -P "$JOBS" -I{} sh "$root/$HERE/record.sh" --build {}
cat "$BUILD"/*.build.txt >> "$RAW/build.txt" 2>/dev/null
cat "$BUILD"/*.diff.txt > "$RAW/ptx_diff.txt" 2>/dev/null
grep -c "same PTX" "$RAW/ptx_diff.txt" 2>/dev/null | sed 's/$/ kernels: same PTX as checked in/'
grep "DIFFERENT" "$RAW/ptx_diff.txt" 2>/dev/null

# Every run, a few at a time: tool by tool (plain runs first), and within
# a tool the barrier-misuse cases (which may hang or fault) last.
cases=$(grep -v '^#' "$HERE/manifest.tsv" | cut -f1 | grep -E "${RACES_CASES:-.}")
risky=$(echo "$cases" | grep '^sync_')
safe=$(echo "$cases" | grep -v '^sync_')
# (initcheck, which checks global memory only, just for the ok_ and
# uninit_ cases: the rest would only spend the time budget)
for t in plain analysis synccheck hazard initcheck; do
  for c in $safe $risky; do
    if [ "$t" = initcheck ]; then
      case $c in ok_*|uninit_*) ;; *) continue ;; esac
    fi
    echo "$RAW $c $t"
  done
done > "$BUILD/jobs.txt"
echo "record: $(wc -l < "$BUILD/jobs.txt") runs, $JOBS at a time"
xargs -P "$JOBS" -L 1 sh "$root/$HERE/record.sh" --one < "$BUILD/jobs.txt"

cp "$HERE/manifest.tsv" "$RAW/manifest.tsv"
tar czf "$OUT/races.tgz" -C "$OUT" raw
"$PY" "$HERE/parse.py" "$OUT/races.tgz" --manifest "$HERE/manifest.tsv" \
  -o "$OUT/vectors.json" --tsv "$OUT/vectors.tsv" --summary "$OUT/summary.txt"
cat "$OUT/summary.txt"
end=$(date +%s)
echo "record.sh: done in $((end - RACES_START)) s; files: $OUT/races.tgz $OUT/vectors.json $OUT/vectors.tsv $OUT/summary.txt"
