#!/bin/sh
# stage.sh DEST [CUTLASS_SOURCE]: copies the corpus's third-party sources into
# DEST, in the layout that `programs` names: DEST/thrust (libthrust-dev's
# examples), DEST/cub/examples and DEST/cub/test/test_util.h (libcub-dev's
# examples and our replacement for CUB's test header, which Debian does not
# ship), DEST/cutlass (the nvidia-cutlass wheel's examples, include and
# tools/util/include; CUTLASS_SOURCE is its cutlass_library/source, skipped
# when absent) and DEST/compat (our thrust_compat.h, see build.sh). Gzipped files are unpacked. Nothing is ever copied into the
# repository: DEST is under build/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: stage.sh DEST [CUTLASS_SOURCE]}
cutlass=${2:-}
thrust=/usr/share/doc/libthrust-dev/examples
cub=/usr/share/doc/libcub-dev/examples
mkdir -p "$dest"
# where dpkg leaves out /usr/share/doc (slim images), the packages' own
# files, unpacked beside DEST
if [ ! -d "$thrust" ] || [ ! -d "$cub" ]; then
  root=$(cd "$dest/.." && pwd)/debs
  if [ ! -d "$root/usr/share/doc/libcub-dev/examples" ]; then
    mkdir -p "$root" && (cd "$root" && apt-get download libthrust-dev libcub-dev >/dev/null 2>&1) &&
      for d in "$root"/*.deb; do dpkg-deb -x "$d" "$root"; done
  fi
  thrust=$root/usr/share/doc/libthrust-dev/examples
  cub=$root/usr/share/doc/libcub-dev/examples
fi
[ -d "$thrust" ] && [ -d "$cub" ] || {
  echo "stage.sh: libthrust-dev and libcub-dev are needed (scripts/deps.sh installs them)" >&2
  exit 77
}
# copy_tree SRC DST: every file of SRC into DST, .gz files unpacked
copy_tree() {
  (cd "$1" && find . -type f) | while read -r f; do
    mkdir -p "$2/$(dirname "$f")"
    case $f in
      *.gz) t="$2/${f%.gz}"; [ -f "$t" ] || zcat "$1/$f" > "$t" ;;
      *) t="$2/$f"; [ -f "$t" ] || cp "$1/$f" "$t" ;;
    esac
  done
}
copy_tree "$thrust" "$dest/thrust"
copy_tree "$cub" "$dest/cub/examples"
mkdir -p "$dest/cub/test" "$dest/compat"
# (copied only when changed: a newer header rebuilds every Thrust program)
cmp -s "$here/compat/thrust_compat.h" "$dest/compat/thrust_compat.h" ||
  cp "$here/compat/thrust_compat.h" "$dest/compat/thrust_compat.h"
cmp -s "$here/cub_util/test_util.h" "$dest/cub/test/test_util.h" ||
  cp "$here/cub_util/test_util.h" "$dest/cub/test/test_util.h"
if [ -n "$cutlass" ] && [ -d "$cutlass/include/cutlass" ]; then
  mkdir -p "$dest/cutlass/examples" "$dest/cutlass/tools/util"
  for d in $(grep -o 'cutlass/examples/[^/]*' "$here/programs" | sort -u); do
    [ -d "$dest/$d" ] || cp -r "$cutlass/${d#cutlass/}" "$dest/$d"
  done
  [ -d "$dest/cutlass/examples/common" ] || cp -r "$cutlass/examples/common" "$dest/cutlass/examples/common"
  [ -d "$dest/cutlass/include" ] || cp -r "$cutlass/include" "$dest/cutlass/include"
  [ -d "$dest/cutlass/tools/util/include" ] || cp -r "$cutlass/tools/util/include" "$dest/cutlass/tools/util/include"
fi
exit 0
