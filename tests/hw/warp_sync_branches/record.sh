#!/bin/sh
# record.sh OUTDIR: .sync warp operations reached from two branches
# (branches.cu), on an H100/H200 (sm_90, CUDA 13): each case plainly and
# under compute-sanitizer --tool synccheck, under timeout; with the SASS.
# Run from the repository root: sh tests/hw/warp_sync_branches/record.sh OUTDIR
# (about 20 seconds).
set -u
OUT=${1:?usage: sh tests/hw/warp_sync_branches/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt"
timeout 120 nvcc -arch=sm_90 -lineinfo -cudart shared -o "$OUT/branches" "$HERE/branches.cu" > "$OUT/build.txt" 2>&1
timeout 60 nvcc -arch=sm_90 -lineinfo -ptx -o "$OUT/branches.ptx" "$HERE/branches.cu" >> "$OUT/build.txt" 2>&1
timeout 60 cuobjdump -sass "$OUT/branches" > "$OUT/branches.sass" 2>&1
for op in ballot shfl redux match syncwarp; do echo "$op plain"; echo "$op synccheck"; done |
  xargs -P 6 -L 1 sh -c '
    if [ "$2" = plain ]; then set -- "$0" "$1" "$2"; else set -- "$0" "$1" "$2" compute-sanitizer --tool synccheck; fi
    b=$1 op=$2 tool=$3; shift 3
    timeout 20 "$@" "$b" "$op" > "$(dirname "$b")/$op.$tool.txt" 2>&1; echo "rc $?" >> "$(dirname "$b")/$op.$tool.txt"' "$OUT/branches"
rm -f "$OUT/branches"
