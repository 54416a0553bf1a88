#!/bin/sh
# Runs every test: the unit and end-to-end test programs, the examples, the
# command-line checks and the fuzz corpus replay. Exit status 0 when all pass.
B=${1:-build}
fail=0
pass=0
run() {
  name=$1; shift
  if "$@" >"$B/test-$name.log" 2>&1; then
    pass=$((pass + 1)); echo "PASS $name"
  else
    fail=$((fail + 1)); echo "FAIL $name (log: $B/test-$name.log)"; tail -n 30 "$B/test-$name.log"
  fi
}
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  run "$(basename "$t")" "$t"
done
# the CUDA examples also compare with the outputs an H200 gave
for e in "$B"/examples/*; do
  [ -x "$e" ] || continue
  case $(basename "$e") in
    cl_*) run "example-$(basename "$e")" "$e" ;;
    *) run "example-$(basename "$e")" "$e" --gpu tests/hw/examples ;;
  esac
done
run cli sh tests/cli.sh "$B"
run banks-examples sh tests/banks_examples.sh "$B"
run sanitizer-hw sh -c 'command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }; exec python3 tests/hw/sanitizer/check.py "$0"' "$B"
run install sh tests/install/install_test.sh "$B"
run html sh tests/html/html_test.sh "$B"
run numba sh tests/numba/numba_test.sh "$B"
run readme python3 tests/readme/readme_test.py "$B"
run fuzz-replay "$B/fuzz_replay" tests/fuzz/corpus
run cli-harden sh tests/cli_harden.sh "$B"
run fuzz-rtapi "$B/fuzz_rtapi_replay" tests/fuzz/corpus_rtapi
run fuzz-fatbin "$B/fuzz_fatbin_replay" tests/fuzz/corpus_fatbin
run programs sh tests/programs/test.sh "$B"
run qa sh tests/qa/run.sh "$B"
echo "tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
