#!/bin/sh
# samples.sh BUILD [SAMPLES_DIR]: NVIDIA's cuda-samples shared-memory
# programs at their default sizes under `smemu run` (checks off, the
# default tier), one row each: the sample's own verdict, wall seconds, the
# thread instructions of all its launches and the rate, against the target
# of 20 s. SAMPLES_DIR (or $CUDA_SAMPLES) is a checkout of
# github.com/NVIDIA/cuda-samples (only its Common/ headers and the sample
# sources are read); the programs are built with nvcc -cudart shared into
# BUILD/bench/samples. Exit 77 without nvcc or without the checkout.
# SAMPLES_ONLY="a b" runs those alone; SMEMU_RUN_FLAGS adds flags to
# `smemu run` (e.g. "--check banks"). CUDA_SAMPLES_GIT names a git
# directory of the repository instead (a bare mirror): the samples' sources
# and Common/ are taken from its HEAD into BUILD/cuda-samples.
B=${1:-build}
S=${2:-${CUDA_SAMPLES:-}}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v nvcc >/dev/null 2>&1 || { echo "samples.sh: nvcc not found"; exit 77; }
if [ -z "$S" ] && [ -n "${CUDA_SAMPLES_GIT:-}" ]; then
  S="$root/$B/cuda-samples"
  if [ ! -d "$S/Common" ]; then
    mkdir -p "$S"
    c=Samples/2_Concepts_and_Techniques
    # only the sources (a mirror may lack the large files of doc/)
    git --git-dir="$CUDA_SAMPLES_GIT" archive HEAD Common Samples/0_Introduction/matrixMul \
      Samples/0_Introduction/mergeSort $c/scan $c/reduction $c/histogram $c/sortingNetworks \
      $c/convolutionSeparable $c/shfl_scan $c/threadFenceReduction Samples/6_Performance/transpose \
      ':(exclude)*/doc/*' 2>/dev/null | tar -x -C "$S" || true
  fi
fi
[ -n "$S" ] && [ -d "$S/Common" ] || { echo "samples.sh: no cuda-samples checkout (SAMPLES_DIR or CUDA_SAMPLES)"; exit 77; }
out="$root/$B/bench/samples"
mkdir -p "$out"
I="$S/Samples/0_Introduction"
C="$S/Samples/2_Concepts_and_Techniques"
# name: sources (one line each)
list() {
  echo "matrixMul $I/matrixMul/matrixMul.cu"
  echo "scan $C/scan/main.cpp $C/scan/scan.cu $C/scan/scan_gold.cpp"
  echo "reduction $C/reduction/reduction.cpp $C/reduction/reduction_kernel.cu"
  echo "transpose $S/Samples/6_Performance/transpose/transpose.cu"
  echo "histogram $C/histogram/main.cpp $C/histogram/histogram64.cu $C/histogram/histogram256.cu $C/histogram/histogram_gold.cpp"
  echo "sortingNetworks $C/sortingNetworks/main.cpp $C/sortingNetworks/bitonicSort.cu $C/sortingNetworks/oddEvenMergeSort.cu $C/sortingNetworks/sortingNetworks_validate.cpp"
  echo "mergeSort $I/mergeSort/main.cpp $I/mergeSort/mergeSort.cu $I/mergeSort/bitonic.cu $I/mergeSort/mergeSort_host.cpp $I/mergeSort/mergeSort_validate.cpp"
  echo "convolutionSeparable $C/convolutionSeparable/main.cpp $C/convolutionSeparable/convolutionSeparable.cu $C/convolutionSeparable/convolutionSeparable_gold.cpp"
  echo "shfl_scan $C/shfl_scan/shfl_scan.cu"
  echo "threadFenceReduction $C/threadFenceReduction/threadFenceReduction.cu"
}
want() { [ -z "${SAMPLES_ONLY:-}" ] || echo " $SAMPLES_ONLY " | grep -q " $1 "; }
list | while read -r n srcs; do
  want "$n" || continue
  [ -x "$out/$n" ] && continue
  # shellcheck disable=SC2086
  nvcc -O2 -arch=sm_90 -cudart shared -I"$S/Common" -Xcompiler -Wno-deprecated-declarations \
    -o "$out/$n" $srcs > "$out/$n.build.log" 2>&1 || { echo "$n: build failed:"; tail -5 "$out/$n.build.log"; }
done
python3 "$root/bench/row.py" --header 20
list | while read -r n srcs; do
  want "$n" || continue
  [ -x "$out/$n" ] || continue
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  (cd "$out" && "$root/$B/smemu" run ${SMEMU_RUN_FLAGS:-} --quiet --json "$out/$n.json" -- "$out/$n" > "$out/$n.log" 2>&1)
  rc=$?
  t1=$(date +%s.%N)
  ok=$([ $rc -eq 0 ] && echo pass || echo FAIL)
  python3 "$root/bench/row.py" "$out/$n.json" "$t0" "$t1" "$n" "$ok" 20
  [ $rc -eq 0 ] || tail -3 "$out/$n.log"
done
