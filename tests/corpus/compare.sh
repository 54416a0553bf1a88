#!/bin/sh
# compare.sh BUILD [NAME...]: the corpus comparison (compare.py) of the
# programs named, or of all of them (`make corpus`): stages the third-party
# sources (stage.sh) into BUILD/corpus/src, builds what is missing into
# BUILD/corpus/bin (build.sh, cached), runs each under BUILD/smemu and
# prints the table. Skips (77) when nvcc, the Debian packages or the
# recording are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=${1:?usage: compare.sh BUILD [NAME...]}
shift
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || { echo "nvcc missing: skipped"; exit 77; }
command -v nvcc >/dev/null 2>&1 || PATH="/usr/local/cuda/bin:$PATH"
[ -f "$here/recorded/sass.md5" ] || { echo "no GPU recording in $here/recorded: skipped"; exit 77; }
cutlass=""
# the cutlass examples need the nvidia-cutlass wheel (as tests/hw/modern/test_cute.sh fetches it)
if [ $# -eq 0 ] || echo " $* " | grep -q " cutlass_"; then
  W="$B/cutlass-wheel"
  mkdir -p "$B"
  flock "$B/cutlass.lock" sh -c '[ -d "$1/cutlass_library/source/include/cute" ] ||
    python3 -m pip install --quiet --no-deps --target "$1" nvidia-cutlass==4.2.0.0 > "$2" 2>&1' sh "$W" \
    "$B/cutlass-pip.log" || echo "pip could not install nvidia-cutlass: the cutlass programs are skipped"
  cutlass="$W/cutlass_library/source"
fi
sh "$here/stage.sh" "$B/corpus/src" "$cutlass" || exit $?
JOBS=${JOBS:-2} sh "$here/build.sh" "$B/corpus/src" "$B/corpus/bin" "$@"
only=$(echo "$*" | tr ' ' ,)
exec python3 "$here/compare.py" --smemu "$B/smemu" --bins "$B/corpus/bin" --res "$B/corpus/res" \
  ${only:+--only "$only"} --jobs "${JOBS:-2}" ${CORPUS_VERBOSE:+-v}
