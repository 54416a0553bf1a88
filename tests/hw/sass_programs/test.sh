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
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc sass2 "corpus not built, "
suite_need_python3 sass2
suite_need_smemu sass2 "$B"
[ -f "$here/recorded/ncu/all.csv" ] || { echo "sass2: no GPU recording in $here/recorded"; exit 1; }
mkdir -p "$B/sass2" "$B/sass2_static" || exit 2
out=$(cd "$B/sass2" && pwd)
sout=$(cd "$B/sass2_static" && pwd)
suite_build_both sass2 "$here" "$out" "$sout"
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
