#!/bin/sh
# pack.sh DEST SAMPLES_DIR: fills DEST (a batch folder under .dev/) with
# run.sh, job.sh, launches.py and pkg.tar.gz (this checkout's build: smemu,
# the runtime, the bench binary, bench/ and examples/; the cuda-samples
# programs built in SAMPLES_DIR by bench/samples.sh). libLLVM travels apart
# (bench/device/llvmlibs.sh), unpacked into /tmp/llvm by an earlier call.
set -e
DEST=${1:?usage: pack.sh DEST SAMPLES_DIR}
S=${2:?usage: pack.sh DEST SAMPLES_DIR}
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DEST"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/new/build/runtime" "$W/new/build/bench" "$W/samples"
cd "$root"
cp build/smemu "$W/new/build/"
cp -P build/runtime/libcudart.so* build/runtime/libcuda.so* build/runtime/libnvJitLink.so* build/runtime/smemu-run "$W/new/build/runtime/"
cp build/bench/bench "$W/new/build/bench/"
cp -r bench examples "$W/new/"
for p in "$S"/*; do [ -x "$p" ] && [ -f "$p" ] && cp "$p" "$W/samples/"; done
tar czf "$DEST/pkg.tar.gz" -C "$W" new samples
cp "$here/run.sh" "$here/job.sh" "$here/../launches.py" "$DEST/"
du -sh "$DEST"
