#!/bin/bash
# run.sh: the compiled tier's figures on the device tool's GPU host (16
# cores, no LLVM 19, no network), run by the batch as
#   cd .dev/jitbg && RES=DIR bash run.sh
# with beside it: llvmlibs.tar.xz (bench/device/llvmlibs.sh) and pkg.tar.gz
# (bench/device/jitbg/pack.sh: new/ = this branch's build/smemu,
# build/runtime, build/bench/bench, bench/, examples/; samples/ = the
# cuda-samples programs, built here with nvcc -cudart shared).
# Writes to $RES as it goes: host.txt, bench.txt (bench --tiers, --compile,
# --table against C+OpenMP built there; then --compile and --tiers with
# the code generation of before this work), samples.txt (each sample's first
# run with an empty cache, then its second, with the background compile
# (bg) and without it (SMEMU_JIT_BG=0: fg, the compile in the launch)).
D=$PWD
RES=${RES:?}
export W=${W:-/tmp/w}  # where it unpacks and works
mkdir -p "$RES" $W
tar xzf pkg.tar.gz -C $W && tar xJf llvmlibs.tar.xz -C $W || { echo unpack failed; exit 1; }
echo "unpacked $SECONDS s"
L=$W/llvm
{ nproc; lscpu | grep -E "Model name|^Flags" | cut -c1-400; which gcc nvcc; uname -a; } > "$RES/host.txt" 2>&1
export LD_LIBRARY_PATH=$L SMEMU_LLVM_LIB=$L/libLLVM.so.19.1 SMEMU_CACHE=$W/c
mkdir -m 700 -p $W/c
cd $W/new || exit 1
gcc -O3 -march=native -fopenmp -o $W/omp bench/omp_matmul.c -lm
omp=$(OMP_NUM_THREADS=2 taskset -c 0,1 $W/omp 512 | awk '{print $4}')
echo "omp $omp s ($SECONDS s)"
B=$W/new/build/bench/bench
# the bench on cores 0-1, the samples meanwhile on pairs of cores 2-15
(
  echo "== bench --compile"; timeout 40 taskset -c 0,1 $B --compile
  echo "== bench --tiers"; timeout 40 taskset -c 0 $B --tiers
  echo "== C+OpenMP 2 threads: $(OMP_NUM_THREADS=2 taskset -c 0,1 $W/omp 512)"
  echo "== bench --table (2 workers)"; timeout 70 taskset -c 0,1 $B --table 0 2 $omp
  echo "bench done $SECONDS s"
  # the code generation before this work: SelectionDAG for both variants
  # (recorded with SMEMU_JIT_NOFULL=0 when the variant with analyses had
  # no full-warp bodies by default)
  export SMEMU_JIT_NOFULL=0 SMEMU_JIT_FASTISEL=0
  echo "== before: bench --compile"; timeout 30 taskset -c 0,1 $B --compile
  echo "== before: bench --tiers"; timeout 40 taskset -c 0 $B --tiers
  echo "before done $SECONDS s"
) > "$RES/bench.txt" 2>&1 &
bench=$!
# samples: 7 slots of 2 cores, longest first; each job two runs (first,
# second) with a cache of its own that starts empty
export RES
for s in ${SAMPLES:-histogram sortingNetworks matrixMul transpose convolutionSeparable mergeSort reduction threadFenceReduction}; do
  echo "$s bg"; echo "$s fg"
done | xargs -P 7 -L 1 bash "$D/job.sh" $((170 - SECONDS))
echo "samples done $SECONDS s"
wait $bench
sort "$RES/samples_raw.txt" > "$RES/samples.txt"
cat "$RES/bench.txt" "$RES/samples.txt"
