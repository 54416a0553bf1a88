#!/bin/sh
# Runs every test: the unit and end-to-end test programs, the examples, the
# command-line checks and the fuzz corpus replay. Exit status 0 when none
# failed. `scripts/test.sh --list [BUILD]` prints each test's name and
# command instead of running them.
#
# Tests are found, never listed here: every BUILD/tests/test_* program (from
# tests/unit/test_*.c), every BUILD/examples/* program, and one test per
# line of each file named `suites` under tests/ (a line is NAME CMD..., see
# tests/suites). Adding a suite means adding a line to the suites file of
# its folder. The slowest tests of the previous run (BUILD/test-times.txt)
# start first, so the parallel runner ends sooner.
#
# Skips are counted, never passed off as passes: a test that cannot run
# (a tool missing) exits 77 and is a SKIP; a test that ran but skipped some
# of its cases prints one "[  SKIPPED ] CASE" line per case (cmocka's
# skip() does) and is a PASS with those cases named. Every skip is listed
# in BUILD/test-skips.txt. With SMEMU_CI_NO_SKIP=1 (.ci/run sets it, on a
# machine where the build installs every tool) any skip is a failure.
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
B=${1:-build}
cd "$(dirname "$0")/.." || exit 1
# the suites that build whole programs for the shared runtime run once more
# with nvcc's default static runtime through this PATH (programs, qa and
# the SASS programs build both ways themselves; static-rt is static only)
static_path="$(pwd)/tests/hw/static_rt/nvcc_static:$PATH"

# every test as one line "NAME CMD...", CMD evaluated later with $B set
found() {
  for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    n=$(basename "$t")
    echo "$n \"\$B/tests/$n\""
  done
  # the CUDA examples also compare with the outputs an H200 gave
  for e in "$B"/examples/*; do
    [ -x "$e" ] || continue
    n=$(basename "$e")
    case $n in
      cl_*) echo "example-$n \"\$B/examples/$n\"" ;;
      *) echo "example-$n \"\$B/examples/$n\" --gpu tests/hw/examples" ;;
    esac
  done
  find tests -name suites -type f | LC_ALL=C sort | while read -r f; do
    grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$f"
  done
}
# slowest first by the previous run's seconds; unknown ones keep their order
ordered() {
  found | awk -v times="$B/test-times.txt" '
    BEGIN { while ((getline l < times) > 0) { split(l, w, " "); s[w[2]] = w[1] } }
    { split($0, w, " "); printf "%d\t%d\t%s\n", s[w[1]] + 0, NR, $0 }' |
    sort -t "$(printf '\t')" -k1,1nr -k2,2n | cut -f3-
}
if [ $list = 1 ]; then
  ordered
  exit 0
fi
TESTS=$(ordered)
. scripts/test_run.sh
while IFS= read -r line; do
  [ -n "$line" ] && eval "run $line"
done <<EOT
$TESTS
EOT
summary
