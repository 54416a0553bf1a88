#!/bin/sh
# test.sh BUILD: the sass2 corpus test (scripts/test.sh runs it). Builds
# every program of programs.tsv as a user would (nvcc -arch=sm_90 -cudart
# shared -lineinfo) into BUILD/sass2, rebuilding what changed, then
# tests/programs/compare.py --dir here runs each under BUILD/smemu and
# compares output, racecheck/synccheck findings and the ncu counters with
# the H100 recording in recorded/ (known differences: known_differences.txt).
# Exits 77 (skip) without nvcc 13 or python3.
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd) || exit 2
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "sass2: nvcc not found: corpus not built, test skipped"; exit 77; }
"$NVCC" --version 2>/dev/null | grep -q "release 1[3-9]\." ||
  { echo "sass2: $NVCC is not CUDA 13 or newer: test skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "sass2: python3 not found: test skipped"; exit 77; }
[ -x "$B/smemu" ] || { echo "sass2: $B/smemu not built"; exit 1; }
[ -f "$here/recorded/ncu/all.csv" ] || { echo "sass2: no GPU recording in $here/recorded"; exit 1; }
mkdir -p "$B/sass2" || exit 2
out=$(cd "$B/sass2" && pwd)
progs=$(awk '!/^#/ && NF {print $1}' "$here/programs.tsv")
for p in $progs; do
  if [ ! -x "$out/$p" ] || [ "$here/$p.cu" -nt "$out/$p" ] || [ "$here/prog.h" -nt "$out/$p" ]; then echo "$p"; fi
done | xargs -r -P 2 -I P sh -c \
  "'$NVCC' -arch=sm_90 -cudart shared -lineinfo -o '$out/P' '$here/P.cu' > '$out/P.log' 2>&1 || { echo 'sass2: P did not build:'; cat '$out/P.log'; }"
exec python3 "$here/../../programs/compare.py" --dir "$here" --smemu "$B/smemu" --bins "$out" "$@"
