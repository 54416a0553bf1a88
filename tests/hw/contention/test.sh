#!/bin/sh
# test.sh BUILD: contend.cu and sweep.cu through `smemu run` on both tiers,
# against the H200's recordings (compare.py says what is checked). The
# programs are built with nvcc into BUILD/hw-contention once per change.
B=${1:?usage: test.sh BUILD}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
. "$ROOT/tests/common/nvcc_suite.sh"
suite_need_smemu contention "$B"
suite_need_nvcc contention
suite_need_python3 contention
O="$B/hw-contention"
mkdir -p "$O" || exit 1
for p in contend sweep; do
  if [ ! -x "$O/$p" ] || [ "$HERE/$p.cu" -nt "$O/$p" ]; then
    nice "$NVCC" -arch=sm_90 -O3 -lineinfo -cudart shared -o "$O/$p" "$HERE/$p.cu" > "$O/build.txt" 2>&1 ||
      { cat "$O/build.txt"; exit 1; }
  fi
  for t in interp jit; do
    "$B/smemu" run --tier $t --check banks --json "$O/${p}_$t.json" -- "$O/$p" 1 > "$O/${p}_$t.txt" 2> "$O/${p}_$t.err" ||
      { echo "contention: smemu run of $p ($t) failed"; cat "$O/${p}_$t.err"; exit 1; }
  done
done
# the CAST.SPIN loop's rounds come from the set of warps in it, not from the
# order smemu runs them in: a random schedule gives the same counters
SMEMU_SCHEDULE=random:7 "$B/smemu" run --check banks --json "$O/random.json" -- "$O/contend" 1 native_fadd \
  > "$O/random.txt" 2> "$O/random.err" || { echo "contention: smemu run (random schedule) failed"; cat "$O/random.err"; exit 1; }
python3 "$HERE/compare.py" "$HERE/recorded" "$O/contend_interp.txt" "$O/contend_interp.json" "$O/contend_jit.json" || exit 1
python3 "$HERE/compare.py" --sweep "$HERE/recorded" "$O/sweep_interp.txt" "$O/sweep_interp.json" "$O/sweep_jit.json" || exit 1
exec python3 "$HERE/same_counts.py" native_fadd "$O/contend_interp.txt" "$O/contend_interp.json" "$O/random.txt" "$O/random.json"
