#!/bin/sh
# run.sh BUILD [NAME...]: the QA sweep (scripts/test.sh runs it). Each
# tests/qa/*.cu with a main() is built as a user would build it
# (nvcc -arch=sm_90 -cudart shared -lineinfo, plus the flags of its
# "// qa-flags:" line and the files of its "// qa-extra:" line) into
# BUILD/qa, rebuilding only what changed, and run under
# `BUILD/smemu run --check all` (and its "// qa-run-opts:"). A program passes when it exits 0, prints
# "QA NAME PASS" (its own comparison with a CPU reference), prints every
# "// qa-stdout:" line of its source, and smemu reports no finding: stderr
# holds nothing but the checks' all-zero summary and lines matching the
# "// qa-allow:" pattern. A program with a planted bug instead names what
# smemu must report on "// qa-expect:" lines (extended regexes, one per
# line; other findings are then allowed). Programs listed in
# known_failures.txt must fail
# (an open bug); one that passes is reported so the list is kept honest.
# With QA_RUNTIME=static the programs are built with nvcc's default static
# runtime instead (into BUILD/qa_static; same verdicts expected).
# Exits 77 without nvcc 13.
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd) || exit 2
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "qa: nvcc not found: programs not built, test skipped"; exit 77; }
"$NVCC" --version 2>/dev/null | grep -q "release 1[3-9]\." ||
  { echo "qa: $NVCC is not CUDA 13 or newer: test skipped"; exit 77; }
[ -x "$B/smemu" ] || { echo "qa: $B/smemu not built"; exit 1; }
rtflag="-cudart shared" sub=qa
[ "${QA_RUNTIME:-}" = static ] && rtflag="" sub=qa_static
mkdir -p "$B/$sub" || exit 2
out=$(cd "$B/$sub" && pwd)
smemu=$(cd "$B" && pwd)/smemu

directive() { sed -n "s|^// $1: *||p" "$2"; }

if [ $# -gt 0 ]; then progs="$*"; else
  progs=$(for f in "$here"/*.cu; do
    grep -Eq '^// qa-(part|manual)' "$f" || basename "$f" .cu
  done)
fi

# build what is missing or older than its sources, two at a time
for p in $progs; do
  srcs="$here/$p.cu $(directive qa-extra "$here/$p.cu" | sed "s|[^ ][^ ]*|$here/&|g")"
  stale=0
  [ -x "$out/$p" ] || stale=1
  for s in $srcs "$here/qa.h"; do [ "$s" -nt "$out/$p" ] && stale=1; done
  [ $stale -eq 1 ] && echo "$p"
done | xargs -r -P 2 -I P sh -c '
  p=P; f="$0/$p.cu"
  extra=$(sed -n "s|^// qa-extra: *||p" "$f" | sed "s|[^ ][^ ]*|$0/&|g")
  flags=$(sed -n "s|^// qa-flags: *||p" "$f")
  "$2" -arch=sm_90 $3 -lineinfo $flags -o "$1/$p" "$f" $extra > "$1/$p.log" 2>&1 ||
    { echo "qa: $p did not build:"; cat "$1/$p.log"; rm -f "$1/$p"; }' "$here" "$out" "$NVCC" "$rtflag"

known() { awk -v p="$1" '!/^#/ && $1 == p {found=1} END {exit !found}' "$here/known_failures.txt"; }

fail=0; pass=0; kfail=0
for p in $progs; do
  f="$here/$p.cu"
  why=""
  if [ ! -x "$out/$p" ]; then why="not built"; else
    opts=$(directive qa-run-opts "$f")
    (cd "$out" && timeout 120 "$smemu" run --check all $opts -- "./$p" > "$p.out" 2> "$p.err")
    rc=$?
    # qa-expect: findings smemu must report (a program with a planted bug)
    expect=$(directive qa-expect "$f")
    allow=$(directive qa-allow "$f" | paste -sd'|' -)
    [ -n "$expect" ] && allow='.'
    [ -n "$allow" ] || allow='^$'
    # the checks' summary is fine when every count in it (but launches) is 0
    # smemu's own lines on stdout (its summaries) and everything on stderr
    findings=$( (grep -E '^(== |smemu|Error|Warning|[A-Z]+ SUMMARY|=====)' "$out/$p.out"
                 grep -v '^$' "$out/$p.err") | grep -Ev "$allow" |
      grep -Ev '^== smemu checks: [0-9]+ launch(es)? checked(, 0 [a-z -]+)*$' |
      grep -Ev '^========= (COMPUTE-SANITIZER \(smemu\)|ERROR SUMMARY: 0 errors)$')
    if [ $rc -ne 0 ]; then why="exit status $rc"
    elif ! grep -q "^QA [A-Za-z_0-9]* PASS" "$out/$p.out"; then why="no PASS line"
    elif [ -n "$findings" ]; then why="smemu reported: $(echo "$findings" | head -3)"
    else
      missing=$(directive qa-stdout "$f" | while IFS= read -r l; do
        grep -qxF "$l" "$out/$p.out" || echo "$l"; done)
      [ -n "$missing" ] && why="stdout lacks: $missing"
      unseen=$(echo "$expect" | while IFS= read -r e; do
        [ -z "$e" ] || cat "$out/$p.out" "$out/$p.err" | grep -Eq "$e" || echo "$e"; done)
      [ -n "$unseen" ] && why="smemu did not report: $unseen"
    fi
  fi
  if known "$p"; then
    if [ -n "$why" ]; then kfail=$((kfail + 1)); echo "KNOWN $p ($(echo "$why" | tail -1 | cut -c1-150))"
    else fail=$((fail + 1)); echo "FIXED? $p passes but is in known_failures.txt: remove it there"; fi
  elif [ -n "$why" ]; then
    fail=$((fail + 1)); echo "FAIL $p: $why"
    sed 's/^/  | /' "$out/$p.out" 2>/dev/null | head -8; sed 's/^/  ! /' "$out/$p.err" 2>/dev/null | head -8
  else pass=$((pass + 1)); echo "PASS $p"; fi
done
# SMEMU_SCHEDULE reaches whole programs: a racy kernel's result changes
# with a random warp order, the same seed gives the same result
if [ $# -eq 0 ]; then
  p=schedule_order
  if [ ! -x "$out/$p" ] || [ "$here/$p.cu" -nt "$out/$p" ]; then
    "$NVCC" -arch=sm_90 $rtflag -lineinfo -o "$out/$p" "$here/$p.cu" > "$out/$p.log" 2>&1 || cat "$out/$p.log"
  fi
  sums=""
  for s in fixed random:1 random:1 random:2; do
    sums="$sums $(cd "$out" && SMEMU_SCHEDULE=$s "$smemu" run -- "./$p" 2>/dev/null | sed -n 's/^checksum //p')"
  done
  set -- $sums
  if [ $# -eq 4 ] && [ "$1" != "$2" ] && [ "$2" = "$3" ] && [ "$2" != "$4" ]; then
    pass=$((pass + 1)); echo "PASS schedule (fixed $1, random:1 $2 twice, random:2 $4)"
  else fail=$((fail + 1)); echo "FAIL schedule: checksums under fixed, random:1, random:1, random:2:$sums"; fi
fi
echo "qa: $pass passed, $kfail known failures, $fail failed"
[ $fail -eq 0 ]
