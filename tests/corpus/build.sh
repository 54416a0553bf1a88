#!/bin/sh
# build.sh SRC OUT [NAME...]: builds the corpus programs (all, or those named)
# from the staged sources in SRC (stage.sh) into OUT, as a user builds them:
#   nvcc -arch=sm_90 -O2 [-I...] -o OUT/NAME SOURCES
# (cutlass examples get the include folders their CMake files add; Thrust's
# get compat/thrust_compat.h force-included: the two base classes CCCL 3
# removed), from inside SRC with relative paths, so that the device code
# (which may carry file names) is the same wherever SRC is. A binary newer
# than its sources is kept; JOBS builds run at once (default 2). A failed
# build leaves OUT/NAME.build.log and no binary.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:?usage: build.sh SRC OUT [NAME...]}" && pwd)
out=${2:?usage: build.sh SRC OUT [NAME...]}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
NVCC=${NVCC:-nvcc}
grep -v '^#' "$here/programs" | while read -r name files args; do
  [ -n "$name" ] || continue
  if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then continue; fi
  echo "$name $files"
done | xargs -P "${JOBS:-2}" -L 1 sh -c '
  name=$0 files=$1 src='"$src"' out='"$out"'
  set -- $(echo "$files" | tr , " ")
  paths="" flags="" deps=""
  for f; do paths="$paths $f"; done
  case $1 in
    cutlass/*) flags="-std=c++17 -Icutlass/include -Icutlass/tools/util/include -Icutlass/examples/common" ;;
    thrust/*) flags="-include compat/thrust_compat.h" deps=compat/thrust_compat.h ;;
  esac
  bin=$out/$name
  if [ -x "$bin" ]; then
    newer=0
    for p in $paths $deps; do [ "$src/$p" -nt "$bin" ] && newer=1; done
    [ $newer = 0 ] && exit 0
  fi
  cd "$src" || exit 1
  if nice '"$NVCC"' -arch=sm_90 -O2 $flags -o "$bin.tmp" $paths > "$out/$name.build.log" 2>&1; then
    mv "$bin.tmp" "$bin"
  else
    rm -f "$bin.tmp"; echo "build failed: $name (see $out/$name.build.log)" >&2
  fi'
