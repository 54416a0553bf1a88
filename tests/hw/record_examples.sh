#!/bin/sh
# record_examples.sh: builds tests/hw/gpu_examples.cu with nvcc and runs it on
# the GPU of this machine, writing every example and e2e output buffer into
# OUT_DIR. Usage (from anywhere): sh tests/hw/record_examples.sh OUT_DIR
set -e
if [ $# -lt 1 ]; then
  echo "usage: sh tests/hw/record_examples.sh OUT_DIR" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
NVCC=${NVCC:-nvcc}
bin=${BUILD:-build}/hw/gpu_examples
mkdir -p "$(dirname "$bin")"
echo "record: $NVCC -arch=sm_90 -O3 -lineinfo -o $bin tests/hw/gpu_examples.cu"
"$NVCC" --version | tail -1
"$NVCC" -arch=sm_90 -O3 -lineinfo -o "$bin" tests/hw/gpu_examples.cu
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$bin" "$out"
echo "record: done. To use the recordings:"
echo "  cp $out/e2e_*.bin tests/hw/e2e/          # compared by build/tests/test_e2e"
echo "  sh scripts/demo.sh build --gpu $out       # each example driver compares with the GPU"
