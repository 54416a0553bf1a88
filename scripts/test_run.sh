# test_run.sh: the counting part of scripts/test.sh, sourced by it (and by
# tests/test_sh.sh, which checks it): run NAME CMD... runs one test with
# its output in $B/test-NAME.log and counts it; summary prints the line
# and returns non-zero when a test failed. Needs B set. See test.sh for
# the rules (exit 77 = skip, "[  SKIPPED ] CASE" lines = skipped cases,
# SMEMU_CI_NO_SKIP=1 = every skip fails). SMEMU_TEST_OMIT="NAME..." leaves
# those tests out (not run, not counted; the summary says how many): what
# `make test-jit-ci` uses to keep the compiled-tier pass inside CI's time;
# SMEMU_TEST_ONLY="PATTERN..." runs only the tests whose names match one
# of the shell patterns (the others are left out likewise). Tests run in
# parallel, SMEMU_TEST_JOBS at a time (default: one per core).
fail=0
omit=0
pass=0
skip=0
cskip=0
strict=0
case ${SMEMU_CI_NO_SKIP:-0} in 0 | "") ;; *) strict=1 ;; esac
SKIPS="$B/test-skips.txt"
: > "$SKIPS"
# each test's wall seconds, slowest first once the summary has run
TIMES="$B/test-times.txt"
: > "$TIMES"
# Tests run SMEMU_TEST_JOBS at a time (default: one per core); a FIFO holds
# a token per free slot. Results are judged and printed in the order the
# tests were given, once all have ended.
jobs=${SMEMU_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
RCDIR="$B/test-rc"
rm -rf "$RCDIR" && mkdir -p "$RCDIR"
mkfifo "$RCDIR/slots" && exec 9<>"$RCDIR/slots" && rm -f "$RCDIR/slots"
i=0
while [ $i -lt "$jobs" ]; do echo >&9; i=$((i + 1)); done
QUEUE=""

run() {
  name=$1; shift
  case " ${SMEMU_TEST_OMIT:-} " in *" $name "*) omit=$((omit + 1)); return 0 ;; esac
  if [ -n "${SMEMU_TEST_ONLY:-}" ]; then
    keep=0
    for pat in $SMEMU_TEST_ONLY; do
      # shellcheck disable=SC2254
      case $name in $pat) keep=1 ;; esac
    done
    [ $keep = 1 ] || { omit=$((omit + 1)); return 0; }
  fi
  read -r _ <&9
  (
    t0=$(date +%s)
    "$@" >"$B/test-$name.log" 2>&1 9>&-
    rc=$?
    echo "$(($(date +%s) - t0)) $name" >> "$TIMES"
    echo $rc > "$RCDIR/$name"
    echo >&9
  ) &
  QUEUE="$QUEUE $name"
}
judge() { # NAME: counts and prints one ended test
  name=$1
  log="$B/test-$name.log"
  rc=$(cat "$RCDIR/$name" 2>/dev/null || echo 1)
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
  wait
  for n in $QUEUE; do judge "$n"; done
  exec 9>&-
  sort -rn -o "$TIMES" "$TIMES"
  line="tests: $pass passed, $fail failed, $skip skipped"
  [ $cskip -gt 0 ] && line="$line (and $cskip skipped cases inside passing tests)"
  [ $omit -gt 0 ] && line="$line; $omit left out (SMEMU_TEST_OMIT, SMEMU_TEST_ONLY)"
  { [ $skip -gt 0 ] || [ $cskip -gt 0 ]; } && line="$line; skips listed in $SKIPS"
  echo "$line"
  [ "$fail" -eq 0 ]
}
