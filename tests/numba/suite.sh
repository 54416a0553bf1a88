#!/bin/sh
# suite.sh BUILD [MODULE...]: numba-cuda's whole test suite
# (numba.cuda.tests.cudapy, or the given modules) under `smemu run`, on the
# environments numba_test.sh installs (BUILD/py/venv-pinned and
# venv-latest; run it first). Writes BUILD/numba-suite-VARIANT.txt (per
# module: tests, passed, failed, errors, skipped, seconds) and .failures
# (each failing test and its reason), and prints the totals. Slow: tens of
# minutes on a few cores (SUITE_TIMEOUT: seconds per module, default 900).
B=$(cd "${1:-build}" && pwd) || exit 2
shift
here=$(cd "$(dirname "$0")" && pwd)
home=${CUDA_HOME:-}
if [ -z "$home" ]; then
  nv=$(command -v nvcc 2>/dev/null) && home=$(cd "$(dirname "$nv")/.." && pwd)
fi
[ -n "$home" ] || home=/usr/local/cuda
status=0 ran=0
for v in ${SUITE_VARIANTS:-pinned latest}; do
  py="$B/py/venv-$v/bin/python"
  [ -x "$py" ] || { echo "suite: no $B/py/venv-$v: run tests/numba/numba_test.sh first"; continue; }
  ran=1
  echo "== numba-cuda suite, $v: $("$py" -m pip list --disable-pip-version-check 2>/dev/null |
    awk '$1 ~ /^(numba-cuda|cuda-core|cuda-bindings)$/ {printf "%s %s  ", $1, $2}')"
  T=$(mktemp -d) || exit 2
  (cd "$T" && CUDA_HOME="$home" python3 "$here/suite.py" "$B/smemu" "$py" "$B/numba-suite-$v.txt" "$@") || status=1
  rm -rf "$T"
done
[ $ran = 1 ] || exit 77
exit $status
