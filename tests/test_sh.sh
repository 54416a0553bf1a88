#!/bin/sh
# test_sh.sh: checks scripts/test_run.sh, the counting in `make test`: a
# test exiting 77 is a SKIP (not a PASS), "[  SKIPPED ] CASE" lines name
# skipped cases of a passing test, every skip lands in the skip list, and
# SMEMU_CI_NO_SKIP=1 turns each skip into a failure, SMEMU_TEST_OMIT leaves
# tests out and says so.
here=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/smemu-test-sh.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
bad=0
check() { # NAME WANT GOT
  if [ "$2" != "$3" ]; then echo "test_sh: $1: want '$2', got '$3'"; bad=1; fi
}
cat > "$T/cases.sh" <<'EOS'
pass_() { echo ok; }
fail_() { echo broken; return 1; }
skip_() { echo "x: SKIP (no frobnicator)"; return 77; }
partial() { printf "[ RUN      ] a\n[  SKIPPED ] a\n[       OK ] b\n[  SKIPPED ] 2 test(s), listed below:\n[  SKIPPED ] a\n[  SKIPPED ] c (why)\n"; }
B=$1
. "$2/scripts/test_run.sh"
run p pass_
run f fail_
run s skip_
run c partial
summary
echo "rc $?"
EOS
out=$(env -u SMEMU_CI_NO_SKIP sh "$T/cases.sh" "$T" "$here")  # CI sets it: the plain counting first
check "summary" "tests: 2 passed, 1 failed, 1 skipped (and 2 skipped cases inside passing tests); skips listed in $T/test-skips.txt" \
  "$(echo "$out" | grep '^tests:')"
check "exit" "rc 1" "$(echo "$out" | tail -n 1)"
check "skip line" "SKIP s (x: SKIP (no frobnicator))" "$(echo "$out" | grep '^SKIP')"
check "partial line" "PASS c (skipped cases: a; c (why))" "$(echo "$out" | grep '^PASS c')"
check "skip list" "2" "$(wc -l < "$T/test-skips.txt" | tr -d ' ')"
out=$(SMEMU_CI_NO_SKIP=1 sh "$T/cases.sh" "$T" "$here")
check "strict summary" "tests: 1 passed, 3 failed, 0 skipped (and 2 skipped cases inside passing tests); skips listed in $T/test-skips.txt" \
  "$(echo "$out" | grep '^tests:')"
check "strict skip" "1" "$(echo "$out" | grep -c '^FAIL s (skipped, and SMEMU_CI_NO_SKIP is set')"
out=$(env -u SMEMU_CI_NO_SKIP SMEMU_TEST_OMIT="f s" sh "$T/cases.sh" "$T" "$here")
check "omit summary" "tests: 2 passed, 0 failed, 0 skipped (and 2 skipped cases inside passing tests); 2 left out (SMEMU_TEST_OMIT, SMEMU_TEST_ONLY); skips listed in $T/test-skips.txt" \
  "$(echo "$out" | grep '^tests:')"
check "omit exit" "rc 0" "$(echo "$out" | tail -n 1)"
out=$(env -u SMEMU_CI_NO_SKIP SMEMU_TEST_ONLY="p c*" sh "$T/cases.sh" "$T" "$here")
check "only summary" "tests: 2 passed, 0 failed, 0 skipped (and 2 skipped cases inside passing tests); 2 left out (SMEMU_TEST_OMIT, SMEMU_TEST_ONLY); skips listed in $T/test-skips.txt" \
  "$(echo "$out" | grep '^tests:')"
# in parallel the results still come in the order the tests were given,
# each judged on its own exit status, a slow first test included
cat > "$T/par.sh" <<'EOS'
slow() { sleep 1; echo "slow $1"; return "$1"; }
B=$1
. "$2/scripts/test_run.sh"
run a slow 1
run b slow 0
run c slow 77
run d slow 0
summary
EOS
t0=$(date +%s)
out=$(env -u SMEMU_CI_NO_SKIP SMEMU_TEST_JOBS=4 sh "$T/par.sh" "$T" "$here")
t=$(($(date +%s) - t0))
check "parallel order" "FAIL a;PASS b;SKIP c;PASS d" "$(echo "$out" | grep -E '^(PASS|FAIL|SKIP)' | cut -d' ' -f1,2 | tr '\n' ';' | sed 's/;$//')"
check "parallel summary" "tests: 2 passed, 1 failed, 1 skipped; skips listed in $T/test-skips.txt" "$(echo "$out" | grep '^tests:')"
[ $t -le 3 ] || { echo "test_sh: 4 jobs of 1 s took $t s (not in parallel)"; bad=1; }
[ $bad = 0 ] && echo "test_sh: ok"
exit $bad
