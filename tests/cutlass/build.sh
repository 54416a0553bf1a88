#!/bin/sh
# build.sh SOURCE OUTDIR [NAME...]: builds the wheel's examples listed in
# examples.txt (all, or the NAMEs given) from SOURCE (the wheel's
# cutlass_library/source) into OUTDIR, as CUTLASS's CMake builds them for
# sm_90a (its NVCC flags and defines, Release). CUTLASS_GENCODE picks the
# code: PTX only (compute_90a, the default: smemu runs PTX; ptxas would add
# about a tenth: 48 took 20 s here without it, 22 s with sm_90a SASS) or the
# GPU's sm_90a SASS. A binary is rebuilt only when the key (nvcc version,
# flags, the example's source) changes (test.sh keeps one OUTDIR per wheel
# version): its key
# sits beside it in NAME.key. Builds run CUTLASS_JOBS at a time (default 2);
# NAME.build.txt holds nvcc's output and NAME.time its wall time in seconds.
S=${1:?usage: build.sh SOURCE OUTDIR [NAME...]}
OUT=${2:?usage: build.sh SOURCE OUTDIR [NAME...]}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
GENCODE=${CUTLASS_GENCODE:--gencode=arch=compute_90a,code=compute_90a}
JOBS=${CUTLASS_JOBS:-2}
# CUTLASS's CMakeLists: CUTLASS_NVCC_FLAGS, the Release flags, and the
# examples' include folders; -lcuda as cutlass_example_add_executable links it
FLAGS="-std=c++17 -O3 -DNDEBUG -DCUTLASS_ENABLE_TENSOR_CORE_MMA=1 -DCUTLASS_TEST_LEVEL=0
 -DCUTLASS_TEST_ENABLE_CACHED_RESULTS=1 -DCUTLASS_CONV_UNIT_TEST_RIGOROUS_SIZE_ENABLED=1
 -DCUTLASS_DEBUG_TRACE_LEVEL=0 --expt-relaxed-constexpr -ftemplate-backtrace-limit=0
 -cudart shared $GENCODE"
mkdir -p "$OUT" || exit 1
NVCCV=$(nvcc --version | tail -1)
# the examples to build: NAME SOURCE lines
sel=$(grep -v '^#' "$HERE/examples.txt" | awk -v want=" $* " 'NF >= 3 && (want == "  " || index(want, " " $1 " ")) { print $1, $3 }')
[ -n "$sel" ] || { echo "build.sh: no example matches: $*" >&2; exit 1; }
echo "$sel" | while read -r name src; do
  key=$(
    echo "$NVCCV $FLAGS"
    cat "$S/examples/$src"
  ) || exit 1
  key=$(echo "$key" | cksum | cut -d' ' -f1)
  if [ -x "$OUT/$name" ] && [ "$(cat "$OUT/$name.key" 2> /dev/null)" = "$key" ]; then continue; fi
  echo "$name $src $key"
done | xargs -r -P "$JOBS" -n 3 sh -c '
  S=$1 OUT=$2 FLAGS=$3 name=$4 src=$5 key=$6
  d=$(dirname "$S/examples/$src")
  t0=$(date +%s)
  # shellcheck disable=SC2086
  if nice nvcc $FLAGS -I"$S/include" -I"$S/tools/util/include" -I"$S/examples/common" -I"$d" \
      -o "$OUT/$name" "$S/examples/$src" -lcuda > "$OUT/$name.build.txt" 2>&1; then
    echo $(($(date +%s) - t0)) > "$OUT/$name.time"
    echo "$key" > "$OUT/$name.key"
    echo "built $name in $(cat "$OUT/$name.time") s"
  else
    rm -f "$OUT/$name" "$OUT/$name.key"
    echo "FAILED to build $name (log: $OUT/$name.build.txt)"
    tail -5 "$OUT/$name.build.txt"
    exit 1
  fi' sh "$S" "$OUT" "$FLAGS"
