#!/bin/sh
# regen.sh: rebuilds the race corpus' checked-in PTX from its .cu files
# (nvcc -arch=sm_90 -O3 -lineinfo -ptx, CUDA 13) and checks that every marked
# access kept its own source line (check_ptx.py). smemu runs these PTX files
# and record.sh assembles the GPU's code from the same files, so rerun
# record.sh on a GPU after regenerating.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
for cu in *.cu; do
  [ "$cu" = driver.cu ] && continue
  "$NVCC" -arch=sm_90 -O3 -lineinfo -ptx "$cu" -o "${cu%.cu}.ptx"
done
python3 check_ptx.py .
