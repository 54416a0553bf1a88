#!/bin/sh
# test.sh BUILD: the sass-cub corpus test (scripts/test.sh runs it). Builds
# every program of programs.tsv as a user would (nvcc -arch=sm_90 -cudart
# shared -lineinfo) into BUILD/sass_cub, and again as a release build
# without -lineinfo (no .loc in the PTX, no line table in the cubin) into
# BUILD/sass_cub_noli, rebuilding what changed; tests/programs/compare.py
# --dir here runs each under BUILD/smemu and compares outputs and the ncu
# counters with the GPU recording in recorded/, both builds against the
# same recording (-lineinfo does not change the SASS). Exits 77 (skip)
# without nvcc 13 or python3.
B=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../../common/nvcc_suite.sh"
suite_need_nvcc sass-cub "corpus not built, "
suite_need_python3 sass-cub
suite_need_smemu sass-cub "$B"
[ -f "$here/recorded/ncu/all.csv" ] || { echo "sass-cub: no GPU recording in $here/recorded"; exit 1; }
mkdir -p "$B/sass_cub" "$B/sass_cub_noli" || exit 2
out=$(cd "$B/sass_cub" && pwd)
nout=$(cd "$B/sass_cub_noli" && pwd)
for p in $(awk '!/^#/ && NF {print $1}' "$here/programs.tsv"); do
  for v in "$out|-lineinfo" "$nout|"; do
    d=${v%%|*}
    if [ ! -x "$d/$p" ] || [ "$here/$p.cu" -nt "$d/$p" ]; then echo "$v|$p"; fi
  done
done | while IFS='|' read -r d f p; do
  echo "'$NVCC' -arch=sm_90 -cudart shared $f -o '$d/$p' '$here/$p.cu' > '$d/$p.log' 2>&1 || { echo 'sass-cub: $d/$p did not build:'; cat '$d/$p.log'; }"
done | xargs -r -P 2 -I CMD sh -c CMD
python3 "$here/../../programs/compare.py" --dir "$here" --smemu "$B/smemu" --bins "$out" "$@"
rc=$?
echo "== built without -lineinfo"
python3 "$here/../../programs/compare.py" --dir "$here" --smemu "$B/smemu" --bins "$nout" "$@"
rc2=$?
[ $rc = 0 ] && [ $rc2 = 0 ]
