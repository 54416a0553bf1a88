#!/bin/sh
# record.sh [OUTDIR]: on a machine with an NVIDIA GPU and CUDA 13, builds the
# graph programs of this directory and runs them on the GPU (NVIDIA's own
# runtime, no smemu), keeping each program's output in OUTDIR (default
# recorded/ here). The programs check themselves: a "FAIL:" line in a
# recording is an expectation (an error code, an edge count) the GPU does
# not share, to be corrected in the program and in the runtime. The
# expectations README.md lists as unconfirmed are the ones to look at.
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/recorded}
mkdir -p "$OUT" || exit 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
nvcc --version | tail -1 >> "$OUT/gpu.txt"
# stress.cu is not recorded: its made-up handles crash NVIDIA's runtime
# (a segmentation fault), which is what it checks smemu never does; nor is
# freed.cu (what a freed node's memory does depends on the mapping)
for n in capture explicit illegal driver cond; do
  extra=
  [ $n = driver ] && extra=-lcuda
  nvcc -arch=sm_90 -lineinfo -cudart shared -o "$T/$n" "$HERE/$n.cu" $extra || { echo "$n: build failed"; continue; }
  (cd "$T" && stdbuf -oL "./$n") > "$OUT/$n.txt" 2>&1
  echo "rc=$?" >> "$OUT/$n.txt"
  # test.sh checks that the program is still the one recorded
  echo "source-sha256: $(sha256sum < "$HERE/$n.cu" | cut -d' ' -f1)" >> "$OUT/$n.txt"
  echo "$n: $(grep -c '^ok' "$OUT/$n.txt") ok, $(grep -c '^FAIL' "$OUT/$n.txt") FAIL"
done
