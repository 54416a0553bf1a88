#!/bin/sh
# record.sh OUTDIR: builds bounds.cu and runs it on the GPU: the error each
# runtime and driver entry point returns for copies and fills outside
# their allocation (tests/unit/test_runtime_bounds.c compares smemu's).
out=${1:?usage: record.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cd "$out" || exit 1
timeout 120 nvcc -arch=sm_90 -cudart shared -lineinfo -o bounds "$here/bounds.cu" -lcuda > build.log 2>&1
echo "nvcc: $?" >> build.log
timeout 30 ./bounds > bounds.out 2> bounds.err
echo "exit: $?" >> bounds.err
timeout 30 cuobjdump -sass bounds > bounds.sass 2>&1
nvidia-smi > nvidia-smi.txt 2>&1
exit 0
