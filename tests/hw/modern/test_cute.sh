#!/bin/sh
# test_cute.sh BUILD: the CuTe tutorials sgemm_sm80 and hopper/wgmma_sm90 (nvidia-cutlass wheel from
# PyPI, unmodified) under `smemu run`, its half-precision TN GEMM checked
# against a CPU reference by cute_sgemm_sm80_check.cu, with the bank report
# (its swizzled ldmatrix loads are conflict-free). Skips (77) without nvcc
# or when the wheel cannot be installed.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
W="$B/cutlass-wheel"
# (both CuTe suites install the wheel here: one at a time, the other waits)
flock "$B/cutlass.lock" sh -c '[ -d "$1/cutlass_library/source/include/cute" ] ||
  python3 -m pip install --quiet --no-deps --target "$1" nvidia-cutlass==4.2.0.0 > "$2" 2>&1' sh "$W" "$B/cutlass-pip.log" ||
  { echo "pip could not install nvidia-cutlass (log: $B/cutlass-pip.log): skipped"; exit 77; }
. "$HERE/../../common/out_dir.sh"
S="$W/cutlass_library/source"
# build PROGRAM: BUILD/PROGRAM from HERE/PROGRAM.cu, unless it is newer than
# the source (the compiled-tier pass of CI reuses the first pass's build)
build() {
  [ -x "$O/$1" ] && [ ! "$HERE/$1.cu" -nt "$O/$1" ] && return 0
  nvcc -std=c++17 -cudart shared -O2 -gencode=arch=compute_90a,code=compute_90a -I"$S/include" \
    -I"$S/tools/util/include" -I"$S/examples/cute/tutorial" -o "$O/$1" "$HERE/$1.cu"
}
build cute_sgemm_sm80_check || exit 1
out=$("$B/smemu" run --report banks "$O/cute_sgemm_sm80_check" 128 128 64 2>&1)
rc=$?
echo "$out" | grep -v "^  *|" | cut -c1-200
[ $rc = 0 ] || exit 1
echo "$out" | grep -q "0 of 16384 results off the reference" || exit 1
# the tutorial swizzles its shared tiles (Swizzle<3,3,3>) so that its
# ldmatrix loads ("LDSM") are free of bank conflicts
echo "$out" | grep -q "^  loads .* 0 bank conflicts" || { echo "the swizzled ldmatrix loads have bank conflicts"; exit 1; }
# hopper/wgmma_sm90 (unmodified, main renamed by cute_wgmma_sm90_check.cu):
# cp.async into a 3-stage pipeline, wgmma.mma_async from 128-byte swizzled
# descriptors, MN-major (NT) and K-major (TN), checked against a CPU GEMM;
# with the race and barrier checks on, which must find nothing
build cute_wgmma_sm90_check || exit 1
out=$("$B/smemu" run --check races,sync -- "$O/cute_wgmma_sm90_check" 128 128 128 2>&1)
rc=$?
echo "$out" | cut -c1-200
[ $rc = 0 ] || exit 1
echo "$out" | grep -q "wgmma_sm90 NT 128x128x128: 0 of 16384 results off the reference" || exit 1
echo "$out" | grep -q "wgmma_sm90 TN 128x128x128: 0 of 16384 results off the reference" || exit 1
echo "$out" | grep -q "2 launches checked, 0 hazards, 0 barrier errors" || { echo "wgmma_sm90: hazards or barrier errors"; exit 1; }
