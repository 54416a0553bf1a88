#!/bin/sh
# test.sh BUILD [--all | NAME...]: the nvidia-cutlass wheel's own examples
# (examples.txt: the `test` set, every one with --all, or the NAMEs given),
# built by build.sh from the pinned wheel (CUTLASS_WHEEL_VERSION, default
# 4.2.0.0; `latest` for PyPI's newest) and run under `smemu run` at small
# sizes. Each must exit as on the H200 and print the lines the H200 printed
# (recorded/NAME.out, by record.sh), less those that depend on timing
# (27 prints no verdict, only its error norms: they must match), and print
# nothing Failed. Skips (77) without nvcc or when pip cannot fetch the wheel.
B=${1:-build}
[ $# -gt 0 ] && shift
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
VER=${CUTLASS_WHEEL_VERSION:-4.2.0.0}
W=$(sh "$HERE/wheel.sh" "$B" "$VER") || { echo "the nvidia-cutlass wheel $VER could not be installed: skipped"; exit 77; }
S="$W/cutlass_library/source"
. "$HERE/../common/out_dir.sh"
BIN="$O/cutlass-examples/$(basename "$W")"
case "${1:-}" in
--all) sel=$(grep -v '^#' "$HERE/examples.txt" | awk 'NF >= 3 { print $1 }') ;;
"") sel=$(grep -v '^#' "$HERE/examples.txt" | awk 'NF >= 3 && $2 == "test" { print $1 }') ;;
*) sel="$*" ;;
esac
# shellcheck disable=SC2086
sh "$HERE/build.sh" "$S" "$BIN" $sel || exit 1
# the lines compared: no timing (runtimes, GFLOP/s, speedups, the CSV rows
# that carry them), no trailing blanks, not the recording's exit line
comparable() {
  grep -v -i -E 'runtime|gflop|speedup|timing|[0-9] ?ms\b|,.*,.*,.*,|^exit [0-9]+$|^smemu: ' "$1" | sed 's/[[:space:]]*$//'
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
for name in $sel; do
  args=$(awk -v n="$name" '$1 == n { for (i = 4; i <= NF; i++) printf "%s ", $i }' "$HERE/examples.txt")
  rec="$HERE/recorded/$name.out"
  t0=$(date +%s)
  # shellcheck disable=SC2086
  timeout 900 "$B/smemu" run "$BIN/$name" $args > "$T/$name.out" 2>&1
  rc=$?
  dt=$(($(date +%s) - t0))
  why=""
  if [ ! -f "$rec" ]; then
    why="no recording $rec"
  elif [ "$rc" != "$(sed -n 's/^exit \([0-9]*\)$/\1/p' "$rec")" ]; then
    why="exit $rc, the H200's: $(tail -1 "$rec")"
  elif grep -q -E 'Failed|Incorrect' "$T/$name.out" || { grep -q Passed "$rec" && ! grep -q Passed "$T/$name.out"; }; then
    why="its own check did not pass"
  else
    comparable "$rec" > "$T/want"
    comparable "$T/$name.out" > "$T/got"
    diff "$T/want" "$T/got" > "$T/diff" || why="its output differs from the H200's (< H200, > smemu):"
  fi
  n=$((n + 1))
  if [ -z "$why" ]; then
    echo "ok: $name ($dt s): $(grep -c Passed "$T/$name.out") Passed, $(wc -l < "$T/want") lines as on the H200"
  else
    fail=$((fail + 1))
    echo "FAIL: $name ($dt s): $why"
    [ -s "$T/diff" ] && head -20 "$T/diff"
    tail -15 "$T/$name.out" | cut -c1-300
  fi
done
echo "$((n - fail)) of $n CUTLASS examples pass under smemu run as on the H200"
[ $fail = 0 ]
