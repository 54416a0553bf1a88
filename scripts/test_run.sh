# test_run.sh: the counting part of scripts/test.sh, sourced by it (and by
# tests/test_sh.sh, which checks it): run NAME CMD... runs one test with
# its output in $B/test-NAME.log and counts it; summary prints the line
# and returns non-zero when a test failed. Needs B set. See test.sh for
# the rules (exit 77 = skip, "[  SKIPPED ] CASE" lines = skipped cases,
# SMEMU_CI_NO_SKIP=1 = every skip fails). SMEMU_TEST_OMIT="NAME..." leaves
# those tests out (not run, not counted; the summary says how many): what
# `make test-jit-ci` uses to keep the compiled-tier pass inside CI's time.
fail=0
omit=0
pass=0
skip=0
cskip=0
strict=0
case ${SMEMU_CI_NO_SKIP:-0} in 0 | "") ;; *) strict=1 ;; esac
SKIPS="$B/test-skips.txt"
: > "$SKIPS"

run() {
  name=$1; shift
  case " ${SMEMU_TEST_OMIT:-} " in *" $name "*) omit=$((omit + 1)); return 0 ;; esac
  log="$B/test-$name.log"
  "$@" >"$log" 2>&1
  rc=$?
  # the skipped cases (cmocka lists each twice: when run and in its summary)
  cases=$(sed -n 's/^\[  SKIPPED \] //p' "$log" | grep -v 'test(s), listed below' | sort -u)
  ncases=$(printf '%s' "$cases" | grep -c .)
  cases=$(printf '%s' "$cases" | tr '\n' ';' | sed 's/;/; /g')
  if [ "$rc" -eq 77 ]; then
    why=$(grep -i -m1 'skip' "$log" || tail -n 1 "$log")
    echo "$name: skipped: $why" >> "$SKIPS"
    if [ $strict = 1 ]; then
      fail=$((fail + 1)); echo "FAIL $name (skipped, and SMEMU_CI_NO_SKIP is set: $why)"
    else
      skip=$((skip + 1)); echo "SKIP $name ($why)"
    fi
  elif [ "$rc" -eq 0 ] && [ "$ncases" -eq 0 ]; then
    pass=$((pass + 1)); echo "PASS $name"
  elif [ "$rc" -eq 0 ]; then
    echo "$name: skipped cases: $cases" >> "$SKIPS"
    cskip=$((cskip + ncases))
    if [ $strict = 1 ]; then
      fail=$((fail + 1)); echo "FAIL $name (skipped cases, and SMEMU_CI_NO_SKIP is set: $cases)"
    else
      pass=$((pass + 1)); echo "PASS $name (skipped cases: $cases)"
    fi
  else
    fail=$((fail + 1)); echo "FAIL $name (exit $rc, log: $log)"; tail -n 30 "$log"
  fi
}
summary() {
  line="tests: $pass passed, $fail failed, $skip skipped"
  [ $cskip -gt 0 ] && line="$line (and $cskip skipped cases inside passing tests)"
  [ $omit -gt 0 ] && line="$line; $omit left out (SMEMU_TEST_OMIT)"
  { [ $skip -gt 0 ] || [ $cskip -gt 0 ]; } && line="$line; skips listed in $SKIPS"
  echo "$line"
  [ "$fail" -eq 0 ]
}
