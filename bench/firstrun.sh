#!/bin/sh
# firstrun.sh BUILD PROGRAM...: a program's first run against its second
# under `smemu run` (default tier: auto), each program with a cache
# directory of its own that starts empty ($SMEMU_CACHE: the compiled-code
# cache and smemu run's), so the first run compiles its hot kernels and the
# second finds their code on disk. One row per program: wall seconds of
# both runs, their ratio against the target of 1.5, and the compile seconds
# the first run's launches report (--json jit_seconds). PROGRAM is a CUDA
# program built with nvcc -cudart shared (bench/programs.sh and
# bench/samples.sh build some into BUILD/bench). SMEMU_RUN_FLAGS adds flags
# to `smemu run` ("--check banks": the bank model, whose first run also
# disassembles each module's cubin with nvdisasm).
B=${1:?usage: firstrun.sh BUILD PROGRAM...}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
printf '%-22s %9s %9s %7s %10s %s\n' program 'first s' 'second s' ratio 'compile s' 'target <= 1.5'
for p in "$@"; do
  n=$(basename "$p")
  p=$(cd "$(dirname "$p")" && pwd)/$n
  c="$tmp/$n.cache"
  mkdir -m 700 "$c" || exit 2
  for run in 1 2; do
    t0=$(date +%s.%N)
    (cd "$(dirname "$p")" && SMEMU_CACHE="$c" "$root/$B/smemu" run ${SMEMU_RUN_FLAGS:-} --quiet --json "$tmp/$n.$run.json" -- "$p" > "$tmp/$n.$run.log" 2>&1) ||
      { echo "$n: run $run failed:"; tail -3 "$tmp/$n.$run.log"; }
    t1=$(date +%s.%N)
    echo "$t0 $t1" > "$tmp/$n.$run.t"
  done
  python3 - "$n" "$tmp/$n.1.t" "$tmp/$n.2.t" "$tmp/$n.1.json" <<'PY'
import json, sys
name, t1, t2, js = sys.argv[1:]
def secs(p):
    a, b = open(p).read().split()
    return float(b) - float(a)
f, s = secs(t1), secs(t2)
try:
    comp = sum(l.get("jit_seconds", 0) for l in json.load(open(js))["launches"])
except Exception:
    comp = 0
r = f / s if s else 0
print("%-22s %9.2f %9.2f %7.2f %10.3f %s" % (name, f, s, r, comp, "met" if r <= 1.5 else "MISSED"))
PY
done
