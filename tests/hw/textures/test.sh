#!/bin/sh
# test.sh BUILD: textures.cu (arrays, texture and surface objects) built
# with nvcc as users build it (-arch=sm_90 -cudart shared), run under
# BUILD/smemu, and compared section by section with the H200's recording
# (recorded/textures.out; known_differences.txt lists what differs and
# why). Exits 77 (skip) without nvcc 13 or python3.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc textures
suite_need_python3 textures
suite_need_smemu textures "$B"
mkdir -p "$B/textures" || exit 2
out=$(cd "$B/textures" && pwd)
src="$here/textures.cu $here/textures_sustp.cu $here/textures_query.cu"
stale=0
for f in $src; do [ "$f" -nt "$out/textures" ] && stale=1; done
if [ ! -x "$out/textures" ] || [ $stale = 1 ]; then
  # shellcheck disable=SC2086
  "$NVCC" -arch=sm_90 -cudart shared -o "$out/textures" $src > "$out/build.log" 2>&1 ||
    { echo "textures: textures.cu did not build:"; cat "$out/build.log"; exit 1; }
fi
"$B/smemu" run "$out/textures" > "$out/textures.out" 2> "$out/textures.err"
rc=$?
[ $rc = 0 ] || { echo "textures: exit status $rc under smemu"; tail -20 "$out/textures.err"; exit 1; }
exec python3 "$here/compare.py" "$here/recorded/textures.out" "$out/textures.out" "$here/known_differences.txt"
