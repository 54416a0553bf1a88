#!/bin/sh
# test_cute_tma.sh BUILD: the CuTe tutorial hopper/wgmma_tma_sm90 (nvidia-cutlass
# wheel from PyPI, unmodified) under `smemu run`, its NT half GEMM checked
# against a CPU reference by cute_wgmma_tma_check.cu (TMA, mbarriers,
# clusters, wgmma, and inline asm blocks whose labels are local to their
# { } scopes). Skips (77) without nvcc or when the wheel cannot be installed.
# The size: M a multiple of 256, since the tutorial launches clusters of 2
# blocks along M and rounds the grid up to them, and its epilogue does not
# predicate: at M = 128 the second block writes C out of bounds (smemu
# reports it, as it would on the GPU); K = 256 is 4 k-tiles on 3 stages, so
# the pipeline wraps and the barrier phases flip.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
W="$B/cutlass-wheel"
# (both CuTe suites install the wheel here: one at a time, the other waits)
flock "$B/cutlass.lock" sh -c '[ -d "$1/cutlass_library/source/include/cute" ] ||
  python3 -m pip install --quiet --no-deps --target "$1" nvidia-cutlass==4.2.0.0 > "$2" 2>&1' sh "$W" "$B/cutlass-pip.log" ||
  { echo "pip could not install nvidia-cutlass (log: $B/cutlass-pip.log): skipped"; exit 77; }
S="$W/cutlass_library/source"
. "$HERE/../../common/out_dir.sh"
P="$O/cute_wgmma_tma_check"
if [ ! -x "$P" ] || [ "$HERE/cute_wgmma_tma_check.cu" -nt "$P" ]; then
  nvcc -std=c++17 -cudart shared -O2 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=compute_90a \
    -I"$S/include" -I"$S/tools/util/include" -I"$S/examples/cute/tutorial" -o "$P" "$HERE/cute_wgmma_tma_check.cu" || exit 1
fi
out=$("$B/smemu" run --report pipeline -- "$P" 256 128 256 2>&1)
rc=$?
echo "$out" | cut -c1-200
[ $rc = 0 ] || exit 1
echo "$out" | grep -q "0 of 32768 results off the reference" || exit 1
# TMA loads of A and B tiles (128 x 64 halves, 16 KB each): per block 3 in
# the prologue and one per main-loop trip, which runs while k_tile_count
# (4 - 3 = 1) > -3: 4 trips, 7 tile pairs; 2 blocks: 14 x 32 KB = 458752 bytes
echo "$out" | grep -q "tensor loads (TMA) .* 458752 bytes" || { echo "not 458752 bytes of TMA loads in the pipeline report"; exit 1; }
