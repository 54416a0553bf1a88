#!/bin/sh
# test_cute_tma.sh BUILD: the CuTe tutorial hopper/wgmma_tma_sm90 (nvidia-cutlass
# wheel from PyPI, unmodified) under `smemu run`, its NT half GEMM checked
# against a CPU reference by cute_wgmma_tma_check.cu. It needs TMA (this
# branch), barrier.cluster (the cluster branch) and wgmma (the wgmma branch):
# not in `make test` until all three are merged. Skips (77) without nvcc or
# when the wheel cannot be installed.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
W="$B/cutlass-wheel"
if [ ! -d "$W/cutlass_library/source/include/cute" ]; then
  python3 -m pip install --quiet --no-deps --target "$W" nvidia-cutlass==4.2.0.0 > "$B/cutlass-pip.log" 2>&1 ||
    { echo "pip could not install nvidia-cutlass (log: $B/cutlass-pip.log): skipped"; exit 77; }
fi
S="$W/cutlass_library/source"
P="$B/cute_wgmma_tma_check"
if [ ! -x "$P" ] || [ "$HERE/cute_wgmma_tma_check.cu" -nt "$P" ]; then
  nvcc -std=c++17 -cudart shared -O2 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=compute_90a \
    -I"$S/include" -I"$S/tools/util/include" -I"$S/examples/cute/tutorial" -o "$P" "$HERE/cute_wgmma_tma_check.cu" || exit 1
fi
out=$("$B/smemu" run --report pipeline -- "$P" 128 128 128 2>&1)
rc=$?
echo "$out" | cut -c1-200
[ $rc = 0 ] || exit 1
echo "$out" | grep -q "0 of 16384 results off the reference" || exit 1
# TMA loads of A and B tiles (128 x 64 halves, 16 KB) on the 3 stages
echo "$out" | grep -q "tensor loads (TMA) " || { echo "no TMA loads in the pipeline report"; exit 1; }
