#!/bin/sh
# test.sh BUILD: the corpus test (scripts/test.sh runs it). Builds every
# program of programs.tsv with nvcc as a user would, both ways: with
# -cudart shared into BUILD/programs and with nvcc's default static runtime
# into BUILD/programs_static (-arch=sm_90 -lineinfo, rebuilding only what
# changed); compare.py runs each build under BUILD/smemu and compares it
# with the GPU recording in tests/programs/recorded, and same_reports.py
# checks that both builds get the same reports. Exits 77 (skip) without
# nvcc 13 or python3, or before the recording exists.
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
mkdir -p "$B/programs" "$B/programs_static" || exit 2
out=$(cd "$B/programs" && pwd)
sout=$(cd "$B/programs_static" && pwd)
progs=$(awk '!/^#/ && NF {print $1}' "$here/programs.tsv")
# build what is missing or older than its source (or prog.h), two at a time:
# DIR|RUNTIME FLAGS|NAME
for p in $progs; do
  for v in "$out|-cudart shared" "$sout|"; do
    d=${v%%|*}
    if [ ! -x "$d/$p" ] || [ "$here/$p.cu" -nt "$d/$p" ] || [ "$here/prog.h" -nt "$d/$p" ]; then echo "$v|$p"; fi
  done
done | while IFS='|' read -r d rtf p; do
  echo "'$NVCC' -arch=sm_90 $rtf -lineinfo -o '$d/$p' '$here/$p.cu' > '$d/$p.log' 2>&1 || { echo 'programs: $d/$p did not build:'; cat '$d/$p.log'; }"
done | xargs -r -P 2 -I CMD sh -c CMD
echo "== -cudart shared"
python3 "$here/compare.py" --smemu "$B/smemu" --bins "$out" "$@"
rc=$?
echo "== the static runtime (nvcc's default)"
python3 "$here/compare.py" --smemu "$B/smemu" --bins "$sout" "$@"
rc2=$?
only=
for a in "$@"; do [ "$prev" = --only ] && only="--only $a"; prev=$a; done
# shellcheck disable=SC2086
python3 "$here/same_reports.py" "$out" "$sout" $only
rc3=$?
[ $rc = 0 ] && [ $rc2 = 0 ] && [ $rc3 = 0 ]
