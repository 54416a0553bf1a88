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
exec python3 "$HERE/compare.py" "$HERE/recorded" "$O/interp.txt" "$O/interp.json" "$O/jit.json"
