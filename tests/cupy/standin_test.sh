#!/bin/sh
# standin_test.sh BUILD: fatbinaries with SASS for the emulated GPU's
# architecture but PTX only for a newer one (CuPy's CUB, cuRAND): smemu
# runs the newer PTX in place of the SASS and says so once; where no SASS
# the emulated GPU would run is there, the program is refused, as a GPU
# refuses it. SASS runs on its own major architecture at the same or a
# higher minor version (sm_80's on sm_86), never on another major one.
B=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
. "$root/tests/common/nvcc_suite.sh"
suite_need_nvcc standin
suite_need_smemu standin "$B"
# the programs stay in the build folder, rebuilt on every run
T="$B/cupy-standin"
mkdir -p "$T" || exit 2
failures=0
fail() { echo "standin_test: FAIL: $*" && failures=$((failures + 1)); }
# build NAME SASS PTX: SASS for sm_SASS, PTX for compute_PTX alone
build() {
  "$NVCC" -cudart shared -o "$T/$1" -gencode "arch=compute_$2,code=sm_$2" \
    -gencode "arch=compute_$3,code=compute_$3" "$root/tests/cupy/standin.cu" >"$T/$1.log" 2>&1 ||
    { cat "$T/$1.log"; echo "standin_test: FAIL: nvcc $1"; exit 1; }
}
# runs NAME ARCH WANT: the program on ARCH prints WANT and says PTX stands in
runs() {
  out=$("$B/smemu" run --arch "$2" -- "$T/$1" 2>&1)
  echo "$out" | grep -q "^$3\$" || fail "$1 on $2: want '$3', got: $out"
  echo "$out" | grep -q "no PTX for $2 (only for sm_$4): a GPU runs its SASS for $2; smemu runs the sm_$4 PTX" ||
    fail "$1 on $2: no stand-in note: $out"
}
refused() { # NAME ARCH: a GPU of ARCH could not run it either
  out=$("$B/smemu" run --arch "$2" -- "$T/$1" 2>&1)
  echo "$out" | grep -q "launch: cudaErrorNoKernelImageForDevice" || fail "$1 on $2 ran: $out"
  echo "$out" | grep -q "newer than the emulated $2" || fail "$1 on $2: no reason given: $out"
}
build sass90_ptx100 90 100
build sass80_ptx90 80 90
runs sass90_ptx100 sm_90 "code for sm_100, ptxVersion 100, results ok" 100
refused sass90_ptx100 sm_80
runs sass80_ptx90 sm_86 "code for sm_90, ptxVersion 90, results ok" 90
runs sass80_ptx90 sm_80 "code for sm_90, ptxVersion 90, results ok" 90
refused sass80_ptx90 sm_75
[ $failures -eq 0 ] || exit 1
echo "standin_test: ok"
