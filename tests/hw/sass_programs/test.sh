#!/bin/sh
# test.sh BUILD: the sass2 corpus test (scripts/test.sh runs it). Builds
# every program of programs.tsv as a user would (nvcc -arch=sm_90 -cudart
# shared -lineinfo) into BUILD/sass2, rebuilding what changed, then
# tests/programs/compare.py --dir here runs each under BUILD/smemu and
# compares output, racecheck/synccheck findings and the ncu counters with
# the H100 recording in recorded/ (known differences: known_differences.txt).
# The same programs built with nvcc's default static runtime
# (BUILD/sass2_static) must report the same (tests/programs/same_reports.py).
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
mkdir -p "$B/sass2" "$B/sass2_static" || exit 2
out=$(cd "$B/sass2" && pwd)
sout=$(cd "$B/sass2_static" && pwd)
progs=$(awk '!/^#/ && NF {print $1}' "$here/programs.tsv")
# DIR|RUNTIME FLAGS|NAME of what is missing or older than its source
for p in $progs; do
  for v in "$out|-cudart shared" "$sout|"; do
    d=${v%%|*}
    if [ ! -x "$d/$p" ] || [ "$here/$p.cu" -nt "$d/$p" ] || [ "$here/prog.h" -nt "$d/$p" ]; then echo "$v|$p"; fi
  done
done | while IFS='|' read -r d rtf p; do
  echo "'$NVCC' -arch=sm_90 $rtf -lineinfo -o '$d/$p' '$here/$p.cu' > '$d/$p.log' 2>&1 || { echo 'sass2: $d/$p did not build:'; cat '$d/$p.log'; }"
done | xargs -r -P 2 -I CMD sh -c CMD
python3 "$here/../../programs/compare.py" --dir "$here" --smemu "$B/smemu" --bins "$out" "$@"
rc=$?
echo "== the static runtime (nvcc's default)"
python3 "$here/../../programs/compare.py" --dir "$here" --smemu "$B/smemu" --bins "$sout" "$@" > "$sout/compare.log" 2>&1
only=
for a in "$@"; do [ "$prev" = --only ] && only="--only $a"; prev=$a; done
# shellcheck disable=SC2086
python3 "$here/../../programs/same_reports.py" "$out" "$sout" --dir "$here" $only
rc2=$?
[ $rc = 0 ] && [ $rc2 = 0 ]
