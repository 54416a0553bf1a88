#!/bin/sh
# test.sh BUILD: separate compilation (nvcc -rdc=true). Builds main.cu +
# lib.cu (extern __device__ functions and a variable across translation
# units, a private function name used in both) with -cudart shared and with
# nvcc's default static runtime into BUILD/rdc, runs both under BUILD/smemu
# and checks each prints "rdc ok" (main.cu compares with its CPU formula)
# and exits 0. Exits 77 (skip) without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_smemu rdc "$B"
suite_need_nvcc rdc
rc=0
out=$B/rdc
mkdir -p "$out" || exit 2
for v in "shared|-cudart shared" "static|-cudart static"; do
  name=${v%%|*}
  flags=${v#*|}
  # shellcheck disable=SC2086
  if ! "$NVCC" -rdc=true -arch=sm_90 -lineinfo $flags -o "$out/rdc_$name" "$here/main.cu" "$here/lib.cu" \
    >"$out/rdc_$name.log" 2>&1; then
    echo "rdc: the $name build failed:"
    cat "$out/rdc_$name.log"
    rc=1
    continue
  fi
  got=$("$B/smemu" run "$out/rdc_$name" 2>&1)
  st=$?
  if [ $st = 0 ] && [ "$got" = "rdc ok" ]; then
    echo "rdc: $name runtime: ok"
  else
    echo "rdc: $name runtime: exit $st, output:"
    echo "$got"
    rc=1
  fi
done
exit $rc
