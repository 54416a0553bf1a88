#!/bin/sh
# pack.sh DEST: fills DEST (a batch folder under .dev/) with run.sh and
# pkg.tar.gz: this checkout's build of smemu and its runtime, and the
# cuda-samples programs shfl_scan, threadFenceReduction, reduction and
# mergeSort built
# by bench/samples.sh into build/bench/samples, plus tiny (a one-launch
# program, examples/programs/reverse_main.cu) for the fixed costs.
set -e
DEST=${1:?usage: pack.sh DEST}
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DEST"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/new/build/runtime" "$W/samples"
cd "$root"
cp build/smemu "$W/new/build/"
cp -P build/runtime/libcudart.so* build/runtime/libcuda.so* build/runtime/libnvJitLink.so* build/runtime/smemu-run "$W/new/build/runtime/"
for s in shfl_scan threadFenceReduction reduction mergeSort; do
  [ -x build/bench/samples/$s ] && cp build/bench/samples/$s "$W/samples/"
done
[ -x build/bench/samples/tiny ] ||
  nvcc -arch=sm_90 -cudart shared -o build/bench/samples/tiny examples/programs/reverse_main.cu
cp build/bench/samples/tiny "$W/samples/"
tar czf "$DEST/pkg.tar.gz" -C "$W" new samples
cp "$here/run.sh" "$DEST/"
du -sh "$DEST"
