#!/bin/sh
# test.sh BUILD: separate compilation (nvcc -rdc=true). Builds main.cu +
# lib.cu (extern __device__ functions and a variable across translation
# units, a private function name used in both) with -cudart shared and with
# nvcc's default static runtime into BUILD/rdc, runs both under BUILD/smemu
# and checks each prints "rdc ok" (main.cu compares with its CPU formula)
# and exits 0; then the same with CMake's CUDA_SEPARABLE_COMPILATION
# (CMakeLists.txt), both runtimes, when cmake is there. Exits 77 (skip)
# without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_smemu rdc "$B"
suite_need_nvcc rdc
rc=0
# check PROGRAM WHAT: PROGRAM prints "rdc ok" and exits 0 under smemu
check() {
  got=$("$B/smemu" run "$1" 2>&1)
  st=$?
  if [ $st = 0 ] && [ "$got" = "rdc ok" ]; then
    echo "rdc: $2: ok"
  else
    echo "rdc: $2: exit $st, output:"
    echo "$got"
    rc=1
  fi
}
out=$B/rdc
mkdir -p "$out" || exit 2
for v in "shared|-cudart shared" "static|-cudart static"; do
  name=${v%%|*}
  flags=${v#*|}
  # shellcheck disable=SC2086
  if ! "$NVCC" -rdc=true -arch=sm_90 -lineinfo $flags -o "$out/rdc_$name" "$here/main.cu" "$here/lib.cu" "$here/host.cu" \
    >"$out/rdc_$name.log" 2>&1; then
    echo "rdc: the $name build failed:"
    cat "$out/rdc_$name.log"
    rc=1
    continue
  fi
  check "$out/rdc_$name" "nvcc, $name runtime"
done
# CMake's CUDA_SEPARABLE_COMPILATION (its own -dc / -dlink steps)
if command -v cmake >/dev/null 2>&1; then
  for rt in Shared Static; do
    d=$out/cmake_$rt
    if cmake -S "$here" -B "$d" -DRDC_RUNTIME=$rt -DCMAKE_CUDA_COMPILER="$(command -v "$NVCC")" >"$d.log" 2>&1 &&
      cmake --build "$d" >>"$d.log" 2>&1; then
      check "$d/rdc_cmake" "CMake, $rt runtime"
    else
      echo "rdc: the CMake $rt build failed:"
      cat "$d.log"
      rc=1
    fi
  done
else
  echo "rdc: cmake not found: the CMake builds are not tested"
fi
exit $rc
