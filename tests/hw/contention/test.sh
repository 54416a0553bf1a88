#!/bin/sh
# test.sh BUILD: contend.cu through `smemu run` on both tiers, against the
# H200's recording (compare.py says what is checked). The program is built
# with nvcc into BUILD/hw-contention once per change of contend.cu.
B=${1:?usage: test.sh BUILD}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
. "$ROOT/tests/common/nvcc_suite.sh"
suite_need_smemu contention "$B"
suite_need_nvcc contention
suite_need_python3 contention
O="$B/hw-contention"
mkdir -p "$O" || exit 1
if [ ! -x "$O/contend" ] || [ "$HERE/contend.cu" -nt "$O/contend" ]; then
  nice "$NVCC" -arch=sm_90 -O3 -lineinfo -cudart shared -o "$O/contend" "$HERE/contend.cu" > "$O/build.txt" 2>&1 ||
    { cat "$O/build.txt"; exit 1; }
fi
for t in interp jit; do
  "$B/smemu" run --tier $t --check banks --json "$O/$t.json" -- "$O/contend" 1 > "$O/$t.txt" 2> "$O/$t.err" ||
    { echo "contention: smemu run ($t) failed"; cat "$O/$t.err"; exit 1; }
done
# the CAST.SPIN loop's rounds come from the set of warps in it, not from the
# order smemu runs them in: a random schedule gives the same counters
SMEMU_SCHEDULE=random:7 "$B/smemu" run --check banks --json "$O/random.json" -- "$O/contend" 1 native_fadd \
  > "$O/random.txt" 2> "$O/random.err" || { echo "contention: smemu run (random schedule) failed"; cat "$O/random.err"; exit 1; }
python3 "$HERE/compare.py" "$HERE/recorded" "$O/interp.txt" "$O/interp.json" "$O/jit.json" || exit 1
exec python3 "$HERE/same_counts.py" native_fadd "$O/interp.txt" "$O/interp.json" "$O/random.txt" "$O/random.json"
