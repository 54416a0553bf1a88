#!/bin/sh
# record.sh [OUT]: run pools.cu on a real GPU (nvcc on the PATH or
# CUDA_HOME) and write what it prints to OUT (default
# tests/runtime/pools/pools.expected) and its exit status beside it.
# The recording in the repository came from an H100 (CUDA 13.0 driver).
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/pools.expected}
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
nvcc=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
"$nvcc" -arch=sm_90 -cudart shared -o "$T/pools" "$here/pools.cu" || exit 2
"$T/pools" >"$out"
echo $? >"${out%.expected}.rc"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"${out%.expected}.gpu" 2>/dev/null
cat "$out"
