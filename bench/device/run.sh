#!/bin/bash
# run.sh: the speed figures on the device tool's GPU host (16 cores, no
# LLVM 19, no network), run from the main checkout as
#   bash .dev/speed/run.sh     (carry: .dev/speed)
# with .dev/speed/ holding this file, job.sh, launches.py and two archives made here:
#   pkg.tar.gz: new/ (this branch: build/smemu, build/runtime/{libcudart,
#     libcuda,libnvJitLink}.so*, smemu-run, build/bench/bench, bench/,
#     examples/), old/ (the same of the build compared against) and
#     samples/ (bench/samples.sh's programs, built here: an older glibc
#     runs there);
#   llvmlibs.tar.xz: llvm/ with libLLVM.so.19.1 and the small libraries it
#     needs (libffi, libedit, libtinfo, libbsd, libmd, libz, libzstd), and
#     stand-ins for libz3.so.4 and libxml2.so.2 (every symbol libLLVM
#     imports from them, as empty functions, with their symbol versions:
#     the compiled tier calls neither), 26 MB, so that the whole tree
#     stays under the tool's 64 MiB.
# Prints bench --tiers, --compile and --table (2 workers, against C+OpenMP
# built there) for old and new, then the cuda-samples under smemu run
# (job.sh), 8 at a time on pairs of cores.
D=$PWD/.dev/speed; cd $D
mkdir -p /tmp/w && tar xzf pkg.tar.gz -C /tmp/w && tar xJf llvmlibs.tar.xz -C /tmp/w || exit 1
L=/tmp/w/llvm
{ nproc; lscpu | grep -E "Model name|^Flags" | cut -c1-400; which llvm-config-19 llvm-config gcc nvcc bc; ls /usr/lib/llvm* -d; uname -a; } > $OUT/host.txt 2>&1
export LD_LIBRARY_PATH=$L SMEMU_LLVM_LIB=$L/libLLVM.so.19.1 SMEMU_CACHE=/tmp/c
mkdir -m 700 -p /tmp/c
cd /tmp/w/new
gcc -O3 -march=native -fopenmp -o /tmp/omp bench/omp_matmul.c -lm
omp=$(OMP_NUM_THREADS=2 /tmp/omp 512 | awk '{print $4}')
{
  for v in old new; do echo "== $v: bench --tiers"; /tmp/w/$v/build/bench/bench --tiers; done
  echo "== new: bench --compile"; /tmp/w/new/build/bench/bench --compile
  echo "== C+OpenMP 2 threads: $(OMP_NUM_THREADS=2 /tmp/omp 512)"
  for v in old new; do echo "== $v: bench --table (2 workers)"; /tmp/w/$v/build/bench/bench --table 0 2 $omp; done
} > $OUT/bench.txt 2>&1
echo bench done $SECONDS
{
  for t in auto interp; do echo "scan_$t new $t scan"; done; echo "scan_old old auto scan"
  for s in matrixMul reduction transpose histogram sortingNetworks mergeSort convolutionSeparable shfl_scan threadFenceReduction; do
    echo "${s}_new new auto $s"; echo "${s}_int new interp $s"; echo "${s}_old old auto $s"
  done
  for s in threadFenceReduction mergeSort reduction; do echo "${s}_first new first $s"; done
} | xargs -P 8 -L 1 bash $D/job.sh
echo samples done $SECONDS
sort $OUT/samples_raw.txt > $OUT/samples.txt
cat $OUT/bench.txt $OUT/samples.txt
