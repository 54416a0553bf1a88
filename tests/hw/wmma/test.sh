#!/bin/sh
# test.sh BUILD: wmma under smemu. Builds the recording program (wmma.cu
# from gen_wmma.py: fragment dumps, stores, mma of every sm_90 shape and
# type) and wmma_api.cu (nvcuda::wmma GEMMs with a CPU reference) with nvcc,
# each with -cudart shared and with the static runtime, runs them under
# BUILD/smemu, and compares the first with the H200 recording bit for bit
# (compare.py). Exits 77 (skip) without nvcc 13 or python3.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc wmma
suite_need_python3 wmma
suite_need_smemu wmma "$B"
out="$B/wmma"
mkdir -p "$out" || exit 2
python3 "$here/gen_wmma.py" "$out/wmma.cu.new" || exit 2
cmp -s "$out/wmma.cu.new" "$out/wmma.cu" 2>/dev/null && rm "$out/wmma.cu.new" || mv "$out/wmma.cu.new" "$out/wmma.cu"
rc=0
# NAME SOURCE RUNTIME-FLAGS
for v in "wmma|$out/wmma.cu|-cudart shared" "wmma_static|$out/wmma.cu|" \
         "wmma_api|$here/wmma_api.cu|-cudart shared" "wmma_api_static|$here/wmma_api.cu|"; do
  n=${v%%|*} rest=${v#*|}
  src=${rest%%|*} rtf=${rest#*|}
  if [ ! -x "$out/$n" ] || [ "$src" -nt "$out/$n" ]; then
    # shellcheck disable=SC2086
    "$NVCC" -arch=sm_90a $rtf -O1 -o "$out/$n" "$src" > "$out/$n.log" 2>&1 || { echo "wmma: $n did not build:"; cat "$out/$n.log"; rc=1; continue; }
  fi
  if [ "${n#wmma_api}" != "$n" ]; then
    "$B/smemu" run "$out/$n" || { echo "wmma: $n failed under smemu"; rc=1; }
  else
    "$B/smemu" run "$out/$n" > "$out/$n.out" || { echo "wmma: $n failed under smemu"; rc=1; }
    python3 "$here/compare.py" "$out/$n.out" "$here/recorded/wmma.out" || rc=1
  fi
done
exit $rc
