#!/bin/sh
# programs.sh BUILD: the whole-program benchmarks of bench/programs (SDK-style
# programs at their customary sizes), each built with nvcc -cudart shared and
# run under `smemu run` with the bank model on. The host code is built
# with -O2 as a release build would be (the device PTX is the same: nvcc's
# -O is for the host compiler), so the programs' CPU checks of their
# results do not weigh in the time. Prints one row per program:
# its own verdict, wall seconds, thread instructions over all launches and
# the rate, the tiers and compile seconds, against the target of 15 s each. Needs nvcc (exit 77
# without it). Asserts nothing about speed (a miss prints MISSED).
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v nvcc >/dev/null 2>&1 || { echo "programs.sh: nvcc not found: whole-program benchmarks not built"; exit 77; }
out="$root/$B/bench/programs"
mkdir -p "$out"
for f in "$root"/bench/programs/*.cu; do
  n=$(basename "$f" .cu)
  [ "$out/$n" -nt "$f" ] && [ "$out/$n" -nt "$root/bench/programs/common.cuh" ] &&
    [ "$out/$n" -nt "$root/bench/programs.sh" ] && continue
  echo "$n"
done | xargs -r -P "$(nproc)" -I{} nvcc -O2 -arch=sm_90 -cudart shared -lineinfo \
    -Xcompiler -Wno-deprecated-declarations -o "$out/{}" "$root/bench/programs/{}.cu" || exit 1
python3 "$root/bench/row.py" --header 15
for f in "$root"/bench/programs/*.cu; do
  n=$(basename "$f" .cu)
  t0=$(date +%s.%N)
  res=$("$root/$B/smemu" run --check banks --quiet --json "$out/$n.json" -- "$out/$n" 2>&1)
  rc=$?
  t1=$(date +%s.%N)
  ok=$([ $rc -eq 0 ] && echo pass || echo FAIL)
  python3 "$root/bench/row.py" "$out/$n.json" "$t0" "$t1" "$n" "$ok" 15
  [ $rc -eq 0 ] || echo "$res" | tail -5
done
