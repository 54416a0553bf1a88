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
# CCCL instantiated there, tests/hw/sass_programs/*.cu,
# tests/programs/*.cu, and the Debian thrust examples when installed.
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
if [ $# -eq 0 ]; then
  set -- "$here"/corpus/*.cu "$root"/tests/hw/sass_programs/*.cu "$root"/tests/programs/*.cu
  for f in /usr/share/doc/libthrust-dev/examples/*.cu; do [ -f "$f" ] && set -- "$@" "$f"; done
fi
li=""
noli=""
for src in "$@"; do
  name=$(basename "$src" .cu)
  h=$(cat "$src" | sha1sum | cut -c1-12)
  base="$out/$name.$h"
  if [ ! -s "$base.ptx" ]; then
    inc="-I$(dirname "$src")"
    if ! nice "$NVCC" -arch=sm_90 -O2 -lineinfo --extended-lambda --expt-relaxed-constexpr $inc -ptx \
      -o "$base.ptx.tmp" "$src" >"$base.log" 2>&1; then
      echo "corpus: $src does not compile (see $base.log)" >&2
      continue
    fi
    mv "$base.ptx.tmp" "$base.ptx"
  fi
  if [ ! -s "$base.li.sass" ]; then
    nice "$PTXAS" -arch=sm_90 -lineinfo -o "$base.li.cubin" "$base.ptx"
    "$ND" -c -gi "$base.li.cubin" >"$base.li.sass"
  fi
  if [ ! -s "$base.noli.sass" ]; then
    grep -v '^[[:space:]]*\.loc[[:space:]]' "$base.ptx" >"$base.noli.ptx"
    nice "$PTXAS" -arch=sm_90 -o "$base.noli.cubin" "$base.noli.ptx"
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
