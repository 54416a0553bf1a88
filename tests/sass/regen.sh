#!/bin/sh
# regen.sh [OUTDIR]: builds cases.ptx and cases.nvdisasm from cases.cu
# (nvcc -arch=sm_90 -lineinfo; nvdisasm -c -gi of the cubin, NOP lines
# and trailing blanks dropped, the source's directory removed from the
# file names) into OUTDIR, by default this directory (the checked-in
# copies test_sass_cases uses without nvcc), and cases.noli.nvdisasm: the
# same PTX without its .loc lines through ptxas without -lineinfo. Needs nvcc and nvdisasm
# ($NVDISASM, the PATH, /usr/local/cuda/bin or build/pydeps).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
NVCC=${NVCC:-nvcc}
ND=${NVDISASM:-$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$here"/../../build/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)}
[ -n "$ND" ] || { echo "regen: no nvdisasm" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/cases.cu" "$tmp/cases.cu"
(cd "$tmp" && "$NVCC" -arch=sm_90 -lineinfo -ptx -o cases.ptx cases.cu && "$NVCC" -arch=sm_90 -lineinfo -cubin -o cases.cubin cases.cu)
"$ND" -c -gi "$tmp/cases.cubin" > "$tmp/cases.txt"
# a program built without -lineinfo: PTX without .loc, a cubin without lines
grep -v '^[[:space:]]*\.loc[[:space:]]' "$tmp/cases.ptx" > "$tmp/cases.noli.ptx"
"${PTXAS:-ptxas}" -arch=sm_90 -o "$tmp/cases.noli.cubin" "$tmp/cases.noli.ptx"
"$ND" -c -gi "$tmp/cases.noli.cubin" | grep -v '^[[:space:]]*/\*[0-9a-f]*\*/[[:space:]]*NOP *;[[:space:]]*$' |
  sed -e 's/[[:space:]]*$//' > "$out/cases.noli.nvdisasm"
sed "s|$tmp/||g" "$tmp/cases.ptx" > "$out/cases.ptx"
grep -v '^[[:space:]]*/\*[0-9a-f]*\*/[[:space:]]*NOP *;[[:space:]]*$' "$tmp/cases.txt" |
  sed -e 's/[[:space:]]*$//' -e "s|$tmp/||g" > "$out/cases.nvdisasm"
