#!/bin/sh
# regload_regen.sh [OUTDIR]: the SASS of regload.ptx (ptxas -arch=sm_90,
# nvdisasm -c, NOP lines and trailing blanks dropped) as
# OUTDIR/regload.nvdisasm, by default this directory (the checked-in copy
# test_sass_regload uses without the tools). Needs ptxas and nvdisasm
# ($PTXAS, $NVDISASM, the PATH, /usr/local/cuda/bin or build/pydeps).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
PTXAS=${PTXAS:-$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null | head -1)}
ND=${NVDISASM:-$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$here"/../../build/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)}
[ -n "$PTXAS" ] && [ -n "$ND" ] || { echo "regload_regen: no ptxas or nvdisasm" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PTXAS" -arch=sm_90 -o "$tmp/regload.cubin" "$here/regload.ptx"
"$ND" -c "$tmp/regload.cubin" | grep -v '^[[:space:]]*/\*[0-9a-f]*\*/[[:space:]]*NOP *;[[:space:]]*$' |
  sed -e 's/[[:space:]]*$//' > "$out/regload.nvdisasm"
