#!/bin/sh
# regen.sh: regenerates the checked-in PTX of the e2e corpus (and, with
# --examples, of examples/*.cu) with the project's one nvcc command line.
# Run from anywhere: sh tests/e2e/regen.sh [--examples] [NAME...]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "regen: $NVCC not found" >&2; exit 1; }
files=""
examples=0
for a in "$@"; do
  case $a in
    --examples) examples=1 ;;
    *.cu) files="$files $a" ;;
    *) if [ -f "tests/e2e/$a.cu" ]; then files="$files tests/e2e/$a.cu"
       elif [ -f "examples/$a.cu" ]; then files="$files examples/$a.cu"
       else echo "regen: no tests/e2e/$a.cu or examples/$a.cu" >&2; exit 1; fi ;;
  esac
done
if [ -z "$files" ]; then
  files=$(ls tests/e2e/*.cu)
  [ $examples = 1 ] && files="$files $(ls examples/*.cu)"
fi
for f in $files; do
  out=${f%.cu}.ptx
  echo "nvcc -arch=sm_90 -O3 -lineinfo -ptx $f -o $out"
  "$NVCC" -arch=sm_90 -O3 -lineinfo -ptx "$f" -o "$out"
done
