#!/bin/sh
# test.sh BUILD: cooperative launches (cudaLaunchCooperativeKernel,
# cudaLaunchKernelEx's cooperative attribute) and cooperative groups'
# grid.sync() under `smemu run`, built both ways (-cudart shared and nvcc's
# default static runtime). grid_sync and plain_sync must print what they
# printed on an H100/H200 (recorded/NAME.gpu, re-recorded by record.sh);
# uneven_sync never finishes on a GPU (one block waits at a grid barrier
# the others never reach), so smemu must end it with a hang report naming
# the line. Exits 77 (skip) without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_nvcc coop
suite_need_smemu coop "$B"
mkdir -p "$B/coop/shared" "$B/coop/static" || exit 2
out=$(cd "$B/coop/shared" && pwd)
sout=$(cd "$B/coop/static" && pwd)
smemu=$(cd "$B" && pwd)/smemu
suite_build_both coop "$here" "$out" "$sout"
fail=0
for d in "$out" "$sout"; do
  for p in grid_sync plain_sync; do
    [ -x "$d/$p" ] || { echo "FAIL $p: not built"; fail=1; continue; }
    if "$smemu" run "$d/$p" 2>"$d/$p.err" | diff -u "$here/recorded/$p.gpu" - >"$d/$p.diff"; then
      echo "ok $d/$p"
    else
      echo "FAIL $d/$p: differs from the GPU's output:"
      cat "$d/$p.diff" "$d/$p.err"
      fail=1
    fi
  done
  p=uneven_sync
  "$smemu" run "$d/$p" >"$d/$p.out" 2>"$d/$p.err"
  if grep -q "uneven grid.sync(): cudaErrorLaunchTimeout" "$d/$p.out" &&
    grep -q "hang: no warp can make progress" "$d/$p.err" && grep -q "uneven_sync.cu:8" "$d/$p.err"; then
    echo "ok $d/$p (hang reported)"
  else
    echo "FAIL $d/$p: no hang report naming uneven_sync.cu:8"
    cat "$d/$p.out" "$d/$p.err"
    fail=1
  fi
done
exit $fail
