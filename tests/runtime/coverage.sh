#!/bin/sh
# coverage.sh BUILD: every function CUDA's cuda_runtime_api.h and cuda.h
# declare is listed in runtime/entries.def and exported by
# BUILD/runtime/libcudart.so.13 / libcuda.so.1 (nm -D), and README.md's
# table of the API's coverage is the table's. A function a new CUDA header
# adds fails here until it has its line in runtime/entries.def.
B=${1:-build}
inc=${CUDA_INC:-/usr/local/cuda/include}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
command -v nm >/dev/null || { echo "SKIP: no nm"; exit 77; }
[ -f "$inc/cuda_runtime_api.h" ] && [ -f "$inc/cuda.h" ] || { echo "SKIP: no CUDA headers in $inc"; exit 77; }
for lib in libcudart.so.13 libcuda.so.1; do
  [ -f "$B/runtime/$lib" ] || { echo "FAIL: $B/runtime/$lib not built"; exit 1; }
done
CUDA_INC=$inc exec python3 scripts/gen_entries.py check "$B"
