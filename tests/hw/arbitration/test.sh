#!/bin/sh
# test.sh BUILD: arbit.cu through `smemu run --check banks` against the
# H200's recording (compare.py says what is checked). The program is built
# with nvcc into BUILD/hw-arbitration once per change of arbit.cu.
B=${1:?usage: test.sh BUILD}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
. "$ROOT/tests/common/nvcc_suite.sh"
suite_need_all arbitration "$B"
O="$B/hw-arbitration"
mkdir -p "$O" || exit 1
suite_build_cu arbitration "$HERE/arbit.cu" "$O/arbit"
"$B/smemu" run --check banks --json "$O/arbit.json" -- "$O/arbit" 1 > "$O/arbit.txt" 2> "$O/arbit.err" ||
  { echo "arbitration: smemu run failed"; cat "$O/arbit.err"; exit 1; }
exec python3 "$HERE/compare.py" "$HERE/recorded" "$O/arbit.txt" "$O/arbit.json"
