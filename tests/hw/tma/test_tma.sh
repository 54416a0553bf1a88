#!/bin/sh
# test_tma.sh BUILD: tma.cu (the TMA recording corpus) built for smemu
# (nvcc -cudart shared, compute_90a PTX) and run under `smemu run` in every
# mode record.sh ran on the H100; compare.py checks each case against
# recorded/. Skips (77) without nvcc or python3.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
command -v python3 > /dev/null 2>&1 || { echo "python3 not on the PATH: skipped"; exit 77; }
. "$HERE/../../common/out_dir.sh"
P="$O/tma_prog"
if [ ! -x "$P" ] || [ "$HERE/tma.cu" -nt "$P" ] || [ "$HERE/encode_cases.h" -nt "$P" ]; then
  nvcc -gencode=arch=compute_90a,code=compute_90a -lineinfo -O3 -cudart shared -I"$HERE" -o "$P" "$HERE/tma.cu" || exit 1
fi
SMEMU_THREADS=1 exec python3 "$HERE/compare.py" "$B/smemu" "$P"
