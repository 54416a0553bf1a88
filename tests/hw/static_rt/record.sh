#!/bin/sh
# record.sh OUTDIR: on a machine with an NVIDIA GPU and CUDA 13, puts a
# logging libcuda.so.1 (logshim.c) in front of the real driver and runs the
# programs of progs/, built as nvcc builds by default (static CUDA
# runtime), recording what the static runtime asks of the driver:
# OUTDIR/NAME.log (the shim's log: cuGetProcAddress requests, export-table
# ids and slots, every call and its result), OUTDIR/NAME.out (the program's
# output under the shim) and OUTDIR/NAME.gpu (its output without the shim).
# The shim compiles in runtime/integrity.c (RT_SRC: that folder, when the
# script runs from a copy). The recording in recorded/ was made before the
# shim answered the integrity handshake itself (README.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: record.sh OUTDIR}
mkdir -p "$out"
w=$(mktemp -d)
real=$(ldconfig -p | awk '/libcuda\.so\.1 / && /x86-64/ {print $NF; exit}')
echo "real driver: $real" | tee "$out/env.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/env.txt" 2>&1
nvcc --version | tail -2 >> "$out/env.txt"
nm -D --defined-only "$real" | awk '$2 == "T" {print $3}' | sed 's/@.*//' | sort -u > "$w/exports.txt"
cp "$w/exports.txt" "$out/exports.txt"
sh "$here/gen_tramp.sh" 3000 "$w/exports.txt" > "$w/tramp.inc"
cp "$here/logshim.c" "$w/"
# the integrity answer: smemu's implementation (see logshim.c)
rt=${RT_SRC:-$here/../../../runtime}
cp "$rt/integrity.c" "$rt/static_rt.h" "$w/" || exit 1
mkdir -p "$w/shim"
gcc -O1 -fPIC -shared -fvisibility=hidden -o "$w/shim/libcuda.so.1" "$w/logshim.c" "$w/integrity.c" -ldl -lpthread || exit 1
ln -sf libcuda.so.1 "$w/shim/libcuda.so"
cd "$here/progs" || exit 1
for p in hello memcpy streams dynsmem props launchex fault; do
  nvcc -arch=sm_90 -lineinfo -o "$w/$p" $p.cu || echo "build $p failed" >> "$out/env.txt"
done
nvcc -arch=sm_90 -lineinfo -o "$w/two" two_a.cu two_b.cu || echo "build two failed" >> "$out/env.txt"
for p in hello memcpy streams dynsmem props launchex fault two; do
  timeout 60 "$w/$p" > "$out/$p.gpu" 2>&1
  echo "exit=$?" >> "$out/$p.gpu"
  SHIM_REAL="$real" SHIMLOG="$out/$p.log" LD_LIBRARY_PATH="$w/shim" timeout 120 "$w/$p" > "$out/$p.out" 2>&1
  echo "exit=$?" >> "$out/$p.out"
done
# eager module loading: when the static runtime loads modules
CUDA_MODULE_LOADING=EAGER SHIM_REAL="$real" SHIMLOG="$out/hello_eager.log" LD_LIBRARY_PATH="$w/shim" "$w/hello" \
  > "$out/hello_eager.out" 2>&1
rm -rf "$w"
