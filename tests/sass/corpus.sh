#!/bin/sh
# corpus.sh BUILD [SOURCES...]: measures the SASS mapping's coverage
# (src/sass/map.c) on third-party-style code: each CUDA source is compiled
# once to PTX (nvcc -arch=sm_90 -O2 -lineinfo) and the PTX by ptxas twice,
# with line info (what `smemu run FILE.cu` and -lineinfo builds give) and
# without (a program built without -lineinfo: its PTX has no .loc and its
# cubin no line table, as a release build's fatbinary); nvdisasm -c -gi of
# each. Everything is cached in BUILD/sass_corpus keyed on the source's
# hash. Then BUILD/tests/test_sass_corpus prints the mapped fraction of
# both sets. Default sources: tests/sass/corpus/*.cu, the toolkit's own
# CCCL instantiated there, tests/hw/sass_programs/*.cu, tests/hw/sass_cub/*.cu,
# tests/programs/*.cu, CuTe kernels (tests/hw/modern/cute_*.cu) when the
# nvidia-cutlass wheel is in BUILD/cutlass-wheel, and the Debian thrust
# examples when installed.
set -eu
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "corpus: nvcc not found: skipped"; exit 77; }
ND=${NVDISASM:-$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$B"/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)}
[ -n "$ND" ] || { echo "corpus: nvdisasm not found: skipped"; exit 77; }
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
out="$B/sass_corpus"
mkdir -p "$out"
# CuTe/CUTLASS from the nvidia-cutlass wheel the CuTe suites install
S="$B/cutlass-wheel/cutlass_library/source"
cute=""
[ -d "$S/include/cute" ] && cute="-std=c++17 -I$S/include -I$S/tools/util/include -I$S/examples/cute/tutorial"
if [ $# -eq 0 ]; then
  set -- "$here"/corpus/*.cu "$root"/tests/hw/sass_programs/*.cu "$root"/tests/hw/sass_cub/*.cu "$root"/tests/programs/*.cu
  [ -n "$cute" ] && set -- "$@" "$root"/tests/hw/modern/cute_*.cu
  for f in /usr/share/doc/libthrust-dev/examples/*.cu; do [ -f "$f" ] && set -- "$@" "$f"; done
fi
# sm_90a for code that needs it (wgmma, TMA), else sm_90
arch_of() { if grep -q 'wgmma\|SM90_TMA\|tma' "$1"; then echo sm_90a; else echo sm_90; fi; }
li=""
noli=""
for src in "$@"; do
  name=$(basename "$src" .cu)
  h=$(cat "$src" | sha1sum | cut -c1-12)
  base="$out/$name.$h"
  if [ ! -s "$base.ptx" ]; then
    inc="-I$(dirname "$src")"
    case $name in cute_*) inc="$inc $cute" ;; esac
    if ! nice "$NVCC" -arch=$(arch_of "$src") -O2 -lineinfo --extended-lambda --expt-relaxed-constexpr $inc -ptx \
      -o "$base.ptx.tmp" "$src" >"$base.log" 2>&1; then
      echo "corpus: $src does not compile (see $base.log)" >&2
      continue
    fi
    mv "$base.ptx.tmp" "$base.ptx"
  fi
  if [ ! -s "$base.li.sass" ]; then
    nice "$PTXAS" -arch=$(arch_of "$src") -lineinfo -o "$base.li.cubin" "$base.ptx"
    "$ND" -c -gi "$base.li.cubin" >"$base.li.sass"
  fi
  if [ ! -s "$base.noli.sass" ]; then
    grep -v '^[[:space:]]*\.loc[[:space:]]' "$base.ptx" >"$base.noli.ptx"
    nice "$PTXAS" -arch=$(arch_of "$src") -o "$base.noli.cubin" "$base.noli.ptx"
    "$ND" -c -gi "$base.noli.cubin" >"$base.noli.sass"
  fi
  li="$li $base.ptx $base.li.sass"
  noli="$noli $base.noli.ptx $base.noli.sass"
done
V=${SMEMU_CORPUS_VERBOSE:-}
echo "== with line info"
# shellcheck disable=SC2086
"$B/tests/test_sass_corpus" $V $li
echo "== without line info"
# shellcheck disable=SC2086
"$B/tests/test_sass_corpus" $V $noli
