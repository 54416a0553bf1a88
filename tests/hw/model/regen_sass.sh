#!/bin/sh
# regen_sass.sh: rebuilds tests/hw/model/model.nvdisasm, the disassembly of
# model.ptx that the SASS-counting tests use when ptxas or nvdisasm is
# missing: ptxas -arch=sm_90 -lineinfo (the CUDA toolkit), nvdisasm -c -gi
# (PyPI: pip install nvidia-cuda-nvdisasm), NOP lines and trailing blanks
# dropped. Run from anywhere: sh tests/hw/model/regen_sass.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PTXAS=${PTXAS:-ptxas}
NVDISASM=${NVDISASM:-nvdisasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PTXAS" -arch=sm_90 -lineinfo -o "$tmp/model.cubin" "$here/model.ptx"
"$NVDISASM" -c -gi "$tmp/model.cubin" > "$tmp/model.txt"
grep -v '^[[:space:]]*/\*[0-9a-f]*\*/[[:space:]]*NOP *;[[:space:]]*$' "$tmp/model.txt" |
  sed 's/[[:space:]]*$//' > "$here/model.nvdisasm"
echo "regen_sass: $(grep -c '^\.text\.' "$here/model.nvdisasm") functions in model.nvdisasm"
