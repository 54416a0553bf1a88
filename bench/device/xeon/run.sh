#!/bin/bash
# run.sh: the speed issue's figures on the device tool's GPU host (16-core
# Intel Xeon, no LLVM 19, no network), run as
#   cd DIR && RES=OUTDIR bash run.sh
# (PAR=1 runs the samples one at a time, for a 2-core host.)
# with beside it pkg.tar.gz (pack.sh: new/ = a build of smemu, its runtime,
# the bench binary, bench/ and examples/; samples/ = NVIDIA's cuda-samples
# shared-memory programs built with nvcc -cudart shared) and libLLVM 19 in
# $LLVM (default /tmp/llvm: bench/device/llvmlibs.sh's archive unpacked by
# an earlier call, as both do not fit one carry).
# Writes to $RES as it goes: host.txt; bench.txt (bench --compile, --tiers
# and --table against the tiled matmul in C+OpenMP built here with -O3
# -march=native, all on cores 0-1, before the samples start); samples.txt (each sample run twice
# under `smemu run` with 2 workers on a pair of cores of its own, the first
# with an empty compile cache); programs.txt (bench/programs.sh, 2 workers).
D=$PWD
RES=${RES:?}
export W=${W:-/tmp/w} L=${LLVM:-/tmp/llvm}
mkdir -p "$RES" "$W"
tar xzf pkg.tar.gz -C "$W" || { echo unpack failed; exit 1; }
{ nproc; lscpu | grep -E "Model name|^Flags" | cut -c1-400; uname -a; ldd --version | head -1; } > "$RES/host.txt" 2>&1
[ -f "$L/libLLVM.so.19.1" ] || echo "no libLLVM in $L: interpreter only" >> "$RES/host.txt"
export LD_LIBRARY_PATH=$L SMEMU_LLVM_LIB=$L/libLLVM.so.19.1 SMEMU_CACHE=$W/c
mkdir -m 700 -p $W/c
cd $W/new || exit 1
gcc -O3 -march=native -fopenmp -o $W/omp bench/omp_matmul.c -lm
omp=$(OMP_NUM_THREADS=2 taskset -c 0,1 $W/omp 512 | awk '{print $4}')
B=$W/new/build/bench/bench
(
  echo "== bench --compile"; timeout 60 taskset -c 0,1 $B --compile
  echo "== bench --tiers"; timeout 60 taskset -c 0 $B --tiers
  # the same with 256-bit vectors (no AVX-512 in the compiled code)
  echo "== bench --tiers, SMEMU_JIT_FEATURES=-avx512f"
  SMEMU_JIT_FEATURES=-avx512f timeout 60 taskset -c 0 $B --tiers
  for i in 1 2 3; do
    echo "== C+OpenMP 2 threads: $(OMP_NUM_THREADS=2 taskset -c 0,1 $W/omp 512)"
    echo "== bench --table (2 workers), run $i"; timeout 90 taskset -c 0,1 $B --table 0 2 $omp
  done
  echo "bench done $SECONDS s"
) > "$RES/bench.txt" 2>&1 &
bench=$!
# the samples after the bench, not beside it: the bench's rows on a quiet
# host (beside the samples they varied by 1.5x run to run)
wait $bench
export RES
for s in ${SAMPLES:-scan histogram sortingNetworks matrixMul transpose convolutionSeparable mergeSort reduction shfl_scan threadFenceReduction}; do
  echo "$s"
done | xargs -P "${PAR:-7}" -L 1 bash "$D/job.sh" $((${SAMPLES_LEFT:-250} - SECONDS))
echo "samples done $SECONDS s"
sort "$RES/samples_raw.txt" > "$RES/samples.txt"
# bench/programs (bank model on) with 2 workers on cores 0-1, after the rest
SMEMU_THREADS=2 timeout 200 taskset -c 0,1 sh bench/programs.sh build > "$RES/programs.txt" 2>&1
echo "programs done $SECONDS s"
cat "$RES/bench.txt" "$RES/samples.txt" "$RES/programs.txt"
