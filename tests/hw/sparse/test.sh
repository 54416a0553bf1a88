#!/bin/sh
# test.sh BUILD: the host programs of tests/hw/sparse built with nvcc
# (cached in BUILD/sparse) and run under BUILD/smemu on both tiers, their
# output compared line for line with the H200's (recorded/):
#   b128.cu    .b128 loads, stores, mov, atom.cas/exch.b128
#   texref.cu  module-scope .texref/.surfref bound through the driver's
#              legacy cuModuleGetTexRef/cuTexRefSet*/cuSurfRefSetArray,
#              sampled (point, linear), fetched, queried, loaded, stored
# (the matrix instructions: tests/unit/test_sparse_mma.c). Exits 77 (skip)
# without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc sparse
suite_need_smemu sparse "$B"
mkdir -p "$B/sparse" || exit 2
out=$(cd "$B/sparse" && pwd)
BABS=$(cd "$B" && pwd)
fail=0
for p in b128 texref sured; do
  [ -f "$here/recorded/$p.out" ] || { echo "sparse: no recording of $p"; fail=1; continue; }
  if [ ! -x "$out/$p" ] || [ "$here/$p.cu" -nt "$out/$p" ]; then
    lib=
    [ $p = texref ] && lib=-lcuda
    "$NVCC" -arch=sm_90a -O3 -cudart shared -o "$out/$p" "$here/$p.cu" $lib \
      > "$out/$p.log" 2>&1 || { echo "sparse: $p.cu did not build:"; cat "$out/$p.log"; fail=1; continue; }
  fi
  for tier in interp jit; do
    (cd "$here" && SMEMU_TIER=$tier "$BABS/smemu" run "$out/$p" texref.ptx) > "$out/$p.$tier.out" 2> "$out/$p.$tier.err" ||
      { echo "sparse: $p ($tier) exited with status $?"; tail -5 "$out/$p.$tier.err"; fail=1; }
    if ! diff "$here/recorded/$p.out" "$out/$p.$tier.out" > "$out/$p.$tier.diff"; then
      echo "FAIL: $p ($tier) differs from the GPU's output:"
      head -20 "$out/$p.$tier.diff"
      fail=1
    else
      echo "$p ($tier): $(wc -l < "$here/recorded/$p.out") lines as the GPU printed them"
    fi
  done
done
exit $fail
