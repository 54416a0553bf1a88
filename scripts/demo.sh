#!/bin/sh
# demo.sh: runs every example driver BUILD/examples/* from the repository
# root (`sh scripts/demo.sh build`, what `make demo` does), prints a summary
# line and exits non-zero when any driver failed. Extra arguments go to each driver.
build=${1:-build}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
case $build in /*) ;; *) build="$root/$build" ;; esac

pass=0
fail=0
failed=""
found=0
for drv in "$build"/examples/*; do
  [ -f "$drv" ] && [ -x "$drv" ] || continue
  found=1
  name=$(basename "$drv")
  echo "== $name"
  if "$drv" "$@"; then
    pass=$((pass + 1))
  else
    rc=$?
    [ $rc = 77 ] && continue # skipped: a tool is missing (the driver said which)
    fail=$((fail + 1))
    failed="$failed $name(exit $rc)"
  fi
done
# the whole CUDA programs (built by nvcc where it is present), unchanged,
# on the drop-in runtime
for prog in reverse dot matmul; do
  exe="$build/runtime/progs/$prog"
  [ -x "$exe" ] || continue
  echo "== smemu run -- $prog"
  if "$build/smemu" run --check races,sync -- "$exe"; then
    pass=$((pass + 1))
  else
    rc=$?
    fail=$((fail + 1))
    failed="$failed run-$prog(exit $rc)"
  fi
done
if [ $found = 0 ]; then
  echo "demo: no drivers in $build/examples (run make first)" >&2
  exit 1
fi
if [ $fail = 0 ]; then
  echo "demo: all $pass examples passed"
else
  echo "demo: $fail of $((pass + fail)) examples FAILED:$failed"
  exit 1
fi
