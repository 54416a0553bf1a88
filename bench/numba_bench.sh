#!/bin/sh
# numba_bench.sh BUILD [SCRIPT ARGS]: one Numba CUDA script run two ways,
# `smemu run -- python3 SCRIPT` and Numba's own simulator
# (NUMBA_ENABLE_CUDASIM=1, no smemu), printing both wall times (the whole
# script: import, compile, run, check) and their ratio, and the part of
# smemu's time spent emulating the kernels (its --json figures). Default: the tiled
# matrix product of tests/numba/matmul.py at n = 128. Needs what
# tests/numba/numba_test.sh installs (run `make test` once).
B=$(cd "${1:-build}" && pwd) || exit 2
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
script=${1:-$root/tests/numba/matmul.py}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 128
# the pinned numba-cuda environment of tests/numba/numba_test.sh
PY="$B/py/venv-pinned/bin/python"
[ -x "$PY" ] || { echo "numba_bench: numba-cuda is not installed in $B/py/venv-pinned (make test installs it)"; exit 77; }
home=${CUDA_HOME:-/usr/local/cuda}
export PYTHONWARNINGS=ignore
now() { python3 -c 'import time; print(time.monotonic())'; }
t0=$(now)
J=$(mktemp) || exit 2
trap 'rm -f "$J"' EXIT
CUDA_HOME="$home" "$B/smemu" run --json "$J" -- "$PY" "$script" "$@" || { echo "numba_bench: smemu run failed"; exit 1; }
t1=$(now)
NUMBA_ENABLE_CUDASIM=1 "$PY" "$script" "$@" || { echo "numba_bench: the simulator failed"; exit 1; }
t2=$(now)
python3 - "$t0" "$t1" "$t2" "$(basename "$script") $*" "$J" <<'PY'
import json, sys
t0, t1, t2 = map(float, sys.argv[1:4])
s, c = t1 - t0, t2 - t1
k = sum(x["seconds"] for x in json.load(open(sys.argv[5]))["kernels"])
print("numba bench (%s): smemu run %.2f s (of which emulating the kernels %.3f s), "
      "NUMBA_ENABLE_CUDASIM %.2f s, simulator / smemu = %.1fx" % (sys.argv[4], s, k, c, c / s))
PY
