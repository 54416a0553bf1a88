#!/bin/sh
# test.sh BUILD: the host programs of tests/hw/sparse built with nvcc
# (cached in BUILD/sparse) and run under BUILD/smemu on both tiers, their
# output compared line for line with the H200's (recorded/):
#   b128.cu    .b128 loads, stores, mov, atom.cas/exch.b128
#   texref.cu  module-scope .texref/.surfref bound through the driver's
#              legacy cuModuleGetTexRef/cuTexRefSet*/cuSurfRefSetArray,
#              sampled (point, linear), fetched, queried, loaded, stored
#              (texref.ptx), their queries (texref_q.ptx)
#   sured.cu   sured.p and sured.b; tex.2d.v2.f16x2
#   misc.cu    lop3 with a predicate, fma.oob, cvt.pack.sat
# (the matrix instructions: tests/unit/test_sparse_mma.c). Exits 77 (skip)
# without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc sparse
suite_need_smemu sparse "$B"
mkdir -p "$B/sparse" || exit 2
rm -f "$B/sparse/fail"
out=$(cd "$B/sparse" && pwd)
BABS=$(cd "$B" && pwd)
fail=0
# NAME PROGRAM STATUS [ARGUMENT]: recorded/NAME.out is PROGRAM's output,
# STATUS its exit status on the GPU (texref_q: the driver refuses the
# module, CUDA_ERROR_NOT_SUPPORTED, and the program stops there)
cases="b128 b128 0
texref texref 0 texref.ptx
texref_q texref 1 texref_q.ptx
sured sured 0
misc misc 0"
echo "$cases" | while read -r name p want arg; do
  [ -f "$here/recorded/$name.out" ] || { echo "FAIL: no recording of $name"; echo 1 > "$out/fail"; continue; }
  if [ ! -x "$out/$p" ] || [ "$here/$p.cu" -nt "$out/$p" ]; then
    lib=
    [ $p = texref ] && lib=-lcuda
    "$NVCC" -arch=sm_90a -O3 -cudart shared -o "$out/$p" "$here/$p.cu" $lib > "$out/$p.log" 2>&1 ||
      { echo "sparse: $p.cu did not build:"; cat "$out/$p.log"; echo 1 > "$out/fail"; continue; }
  fi
  for tier in interp jit; do
    # shellcheck disable=SC2086
    (cd "$here" && SMEMU_TIER=$tier "$BABS/smemu" run "$out/$p" $arg) > "$out/$name.$tier.out" 2> "$out/$name.$tier.err"
    rc=$?
    [ $rc = "$want" ] ||
      { echo "sparse: $name ($tier) exited with status $rc, not $want"; tail -5 "$out/$name.$tier.err"; echo 1 > "$out/fail"; }
    if ! diff "$here/recorded/$name.out" "$out/$name.$tier.out" > "$out/$name.$tier.diff"; then
      echo "FAIL: $name ($tier) differs from the GPU's output:"
      head -20 "$out/$name.$tier.diff"
      echo 1 > "$out/fail"
    else
      echo "$name ($tier): $(wc -l < "$here/recorded/$name.out") lines as the GPU printed them"
    fi
  done
done
[ -f "$out/fail" ] && fail=1
rm -f "$out/fail"
exit $fail
