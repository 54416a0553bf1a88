#!/bin/sh
# record.sh OUTDIR: on a machine with an NVIDIA GPU and CUDA 13, builds the
# programs of tests/runtime/programs.txt (tests/runtime/build.sh: nvcc
# -arch=sm_90 -cudart shared -lineinfo ...) and runs each natively, writing
# OUTDIR/NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit status),
# plus OUTDIR/info.txt (GPU, driver, nvcc) and OUTDIR/errors.tsv (every
# error code's name and string from the real libcudart). The static and
# sass programs are run too, for reference. Then:
#   cp OUTDIR/*.out OUTDIR/*.rc tests/runtime/expected/
# Run from anywhere:  sh tests/runtime/record.sh /tmp/rtrec
out=${1:?usage: record.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
mkdir -p "$out/bin" || exit 2
out=$(cd "$out" && pwd)
NVCC=${NVCC:-nvcc}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  "$NVCC" --version | tail -2
  uname -sr
} > "$out/info.txt" 2>&1
sh "$root/tests/runtime/build.sh" "$out/bin" "$NVCC" || exit 1
cd "$root" || exit 2
grep -v '^#' tests/runtime/programs.txt | grep -v '^ *$' | while read -r name mode srcs; do
  # the programs run from the repository root, as the tests run them
  timeout 120 "$out/bin/$name" > "$out/$name.out" 2> "$out/$name.err"
  echo $? > "$out/$name.rc"
  echo "record: $name exit $(cat "$out/$name.rc")"
done
# the error table, to compare with runtime/errors.def
cat > "$out/errs.cu" <<'CU'
#include <cstdio>
#include <cstring>
int main() {
  for (int i = 0; i < 1100; i++) {
    const char *n = cudaGetErrorName((cudaError_t)i);
    if (strstr(n, "unrecognized")) continue;
    printf("%d\t%s\t%s\n", i, n, cudaGetErrorString((cudaError_t)i));
  }
}
CU
"$NVCC" -cudart shared -o "$out/bin/errs" "$out/errs.cu" && "$out/bin/errs" > "$out/errors.tsv"
tar czf "$out.tgz" -C "$out" --exclude=bin . && echo "record: wrote $out and $out.tgz"
