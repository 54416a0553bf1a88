#!/bin/sh
# test.sh BUILD: the corpus test (scripts/test.sh runs it). Builds every
# program of programs.tsv with nvcc as a user would (-arch=sm_90 -cudart
# shared -lineinfo) into BUILD/programs, rebuilding only what changed, then
# compare.py runs each under BUILD/smemu and compares it with the GPU
# recording in tests/programs/recorded. Exits 77 (skip) without nvcc 13 or
# python3, or before the recording exists.
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd) || exit 2
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "programs: nvcc not found: corpus not built, test skipped"; exit 77; }
"$NVCC" --version 2>/dev/null | grep -q "release 1[3-9]\." ||
  { echo "programs: $NVCC is not CUDA 13 or newer (smemu's runtime is CUDA 13's): test skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "programs: python3 not found: test skipped"; exit 77; }
[ -f "$here/recorded/native/reduce_tree.out" ] || { echo "programs: no GPU recording in $here/recorded: test skipped"; exit 77; }
[ -x "$B/smemu" ] || { echo "programs: $B/smemu not built"; exit 1; }
mkdir -p "$B/programs" || exit 2
out=$(cd "$B/programs" && pwd)
progs=$(awk '!/^#/ && NF {print $1}' "$here/programs.tsv")
# build what is missing or older than its source (or prog.h), two at a time
for p in $progs; do
  if [ ! -x "$out/$p" ] || [ "$here/$p.cu" -nt "$out/$p" ] || [ "$here/prog.h" -nt "$out/$p" ]; then echo "$p"; fi
done | xargs -r -P 2 -I P sh -c \
  "'$NVCC' -arch=sm_90 -cudart shared -lineinfo -o '$out/P' '$here/P.cu' > '$out/P.log' 2>&1 || { echo 'programs: P did not build:'; cat '$out/P.log'; }"
exec python3 "$here/compare.py" --smemu "$B/smemu" --bins "$out" "$@"
