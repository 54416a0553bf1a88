#!/bin/sh
# record.sh BINDIR SOURCE OUTDIR [SECONDS]: records the wheel's examples on a
# real sm_90 GPU (the integrator's GPU batch runs it through
# .dev/cutlass/run.sh). Writes OUTDIR/NAME.out (stdout and stderr of the run
# with examples.txt's arguments, then "exit N") for:
#  1. the binaries in BINDIR, the very ones smemu runs (PTX only, compute_90a:
#     the driver compiles their PTX for the GPU), all at once;
#  2. as many as fit in SECONDS (default 140, from the start), the examples
#     rebuilt from SOURCE with the GPU's code (sm_90a SASS) into OUTDIR/sass/NAME.out, as a second opinion that
#     does not go through the driver's PTX compiler.
BIN=${1:?usage: record.sh BINDIR SOURCE OUTDIR [SECONDS]}
S=${2:?usage: record.sh BINDIR SOURCE OUTDIR [SECONDS]}
OUT=${3:?usage: record.sh BINDIR SOURCE OUTDIR [SECONDS]}
LIMIT=${4:-140}
HERE=$(cd "$(dirname "$0")" && pwd)
# the binaries link the shared CUDA runtime, as under smemu run
export LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
T0=$(date +%s)
mkdir -p "$OUT/sass"
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  nvcc --version | tail -2
  uname -srm
} > "$OUT/versions.txt" 2>&1
# run BINDIR OUTDIR: every example of examples.txt found in BINDIR, 16 at once
run() {
  grep -v "^#" "$HERE/examples.txt" | awk "NF >= 3" | while read -r name _set _src args; do
    [ -x "$1/$name" ] && printf '%s\t%s\n' "$name" "$args"
  done | xargs -r -P 16 -n 1 -d '\n' sh -c '
    name=${3%%	*} args=${3#*	}
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    timeout 60 "$1/$name" $args > "$2/$name.out" 2>&1
    rc=$?
    echo "exit $rc" >> "$2/$name.out"
    echo "$name exit $rc $((($(date +%s%N) - t0) / 1000000)) ms"' sh "$1" "$2"
}
run "$BIN" "$OUT" > "$OUT/run.txt" 2>&1
cat "$OUT/run.txt"
left=$((LIMIT - ($(date +%s) - T0) - 15))
[ "$left" -gt 20 ] || exit 0
CUTLASS_GENCODE="-gencode=arch=compute_90a,code=sm_90a" CUTLASS_JOBS=16 \
  timeout "$left" sh "$HERE/build.sh" "$S" "$OUT/sass/bin" > "$OUT/sass/build.txt" 2>&1
run "$OUT/sass/bin" "$OUT/sass" > "$OUT/sass/run.txt" 2>&1
cp "$OUT"/sass/bin/*.time "$OUT/sass/" 2> /dev/null
rm -rf "$OUT/sass/bin"
