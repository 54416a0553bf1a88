#!/bin/sh
# test.sh BUILD: the corpus test (scripts/test.sh runs it). Builds every
# program of programs.tsv with nvcc as a user would, both ways: with
# -cudart shared into BUILD/programs and with nvcc's default static runtime
# into BUILD/programs_static (-arch=sm_90 -lineinfo, rebuilding only what
# changed); compare.py runs each build under BUILD/smemu and compares it
# with the GPU recording in tests/programs/recorded, and same_reports.py
# checks that both builds get the same reports. Exits 77 (skip) without
# nvcc 13 or python3, or before the recording exists.
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_nvcc programs "corpus not built, "
suite_need_python3 programs
[ -f "$here/recorded/native/reduce_tree.out" ] || { echo "programs: no GPU recording in $here/recorded: test skipped"; exit 77; }
suite_need_smemu programs "$B"
mkdir -p "$B/programs" "$B/programs_static" || exit 2
out=$(cd "$B/programs" && pwd)
sout=$(cd "$B/programs_static" && pwd)
suite_build_both programs "$here" "$out" "$sout"
echo "== -cudart shared"
python3 "$here/compare.py" --smemu "$B/smemu" --bins "$out" "$@"
rc=$?
echo "== the static runtime (nvcc's default)"
python3 "$here/compare.py" --smemu "$B/smemu" --bins "$sout" "$@"
rc2=$?
only=
for a in "$@"; do [ "$prev" = --only ] && only="--only $a"; prev=$a; done
# shellcheck disable=SC2086
python3 "$here/same_reports.py" "$out" "$sout" $only
rc3=$?
[ $rc = 0 ] && [ $rc2 = 0 ] && [ $rc3 = 0 ]
