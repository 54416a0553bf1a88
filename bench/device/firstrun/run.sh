#!/bin/bash
# run.sh: a program's first run against its second under `smemu run` on
# the device tool's GPU host (16-core Intel Xeon, CUDA toolkit with
# nvdisasm), run as  cd DIR && RES=OUTDIR bash run.sh  with pkg.tar.gz
# beside it (pack.sh: a build of smemu and its runtime, and cuda-samples
# programs built with nvcc -arch=sm_90 -cudart shared). Each pair of runs
# has a cache directory of its own that starts empty; every run has 2
# workers on cores 2-3. Modes: "old" forces the SASS mapping's tools as
# before (SMEMU_COUNTING=sass), "new" is the default (tools only with the
# bank model), "banks" is --check banks (tools run), "banks-ptx" is
# --check banks --counting ptx (no tools). Writes as it goes to $RES:
# host.txt, times.txt (MODE SAMPLE first second, 3 pairs each),
# tools.txt (nvdisasm alone on each cached cubin, with and without -ndf,
# which smemu passes), strace.txt (execve and
# syscall summary of a first and a second run), fixed.txt (a trivial
# program's run, 10 times).
RES=${RES:?}
W=/tmp/firstrun.$$
mkdir -p "$RES" "$W"
trap 'rm -rf "$W"' EXIT
tar xzf pkg.tar.gz -C "$W" || { echo unpack failed; exit 1; }
{ nproc; lscpu | grep -E "Model name"; uname -r; ldd --version | head -1
  for t in nvdisasm ptxas strace perf; do echo "$t: $(command -v $t)"; done; } > "$RES/host.txt" 2>&1
S=$W/new/build/smemu
ts="taskset -c 2,3"
[ "$(nproc)" -ge 4 ] || ts=""
# one run: prints wall seconds
one() {  # CACHE SAMPLE ARGS...
  local c=$1 s=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  (cd $W/samples && SMEMU_CACHE=$c SMEMU_THREADS=2 timeout 60 $ts "$@" ./$s > $W/out.log 2>&1) ||
    { echo "run failed: $s $*" >> "$RES/errors.txt"; tail -3 $W/out.log >> "$RES/errors.txt"; }
  t1=$(date +%s.%N)
  awk "BEGIN{printf \"%.3f\", $t1 - $t0}"
}
pair() {  # MODE SAMPLE ENV/ARGS...
  local m=$1 s=$2
  shift 2
  for k in $(seq ${PAIRS:-3}); do
    local c=$W/c.$m.$s.$k
    rm -rf $c; mkdir -m 700 $c
    a=$(one $c $s "$@"); b=$(one $c $s "$@")
    echo "$m $s $a $b" >> "$RES/times.txt"
  done
}
for s in shfl_scan threadFenceReduction; do
  [ -x $W/samples/$s ] || continue
  pair old $s env SMEMU_COUNTING=sass $S run --quiet --
  pair new $s env $S run --quiet --
  pair banks $s env $S run --quiet --check banks --
  pair banks-ptx $s env $S run --quiet --check banks --counting ptx --
  echo "sample $s done $SECONDS s" >> "$RES/times.txt"
done
# a larger sample (interpreter only there: no LLVM), one pair
if [ -x $W/samples/reduction ]; then
  PAIRS=1 pair old reduction env SMEMU_COUNTING=sass $S run --quiet --
  PAIRS=1 pair new reduction env $S run --quiet --
  echo "sample reduction done $SECONDS s" >> "$RES/times.txt"
fi
# several modules: their nvdisasm side by side (bank model on)
if [ -x $W/samples/mergeSort ]; then
  PAIRS=1 pair banks mergeSort env $S run --quiet --check banks --
  PAIRS=1 pair banks-ptx mergeSort env $S run --quiet --check banks --counting ptx --
  echo "sample mergeSort done $SECONDS s" >> "$RES/times.txt"
fi
# nvdisasm alone on the cubins a banks run cached
ND=$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)
for f in $W/c.banks.*.1/*.cubin; do
  [ -f "$f" ] || continue
  for k in 1 2 3; do
    for o in "-c -gi" "-c -gi -ndf"; do
      t0=$(date +%s.%N); $ts $ND $o "$f" > /dev/null; t1=$(date +%s.%N)
      echo "$(basename $f) $(stat -c %s $f) bytes: nvdisasm $o $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s" >> "$RES/tools.txt"
    done
  done
done
echo "tools done $SECONDS s" >> "$RES/tools.txt"
# what a first run does that the second does not
if command -v strace > /dev/null; then
  for m in old new; do
    c=$W/c.st.$m; mkdir -m 700 $c
    e=""; [ $m = old ] && e=SMEMU_COUNTING=sass
    for r in 1 2; do
      echo "== $m run $r" >> "$RES/strace.txt"
      (cd $W/samples && env $e SMEMU_CACHE=$c SMEMU_THREADS=2 strace -f -tt -e trace=execve -o $W/st.$m.$r \
        $S run --quiet -- ./threadFenceReduction > /dev/null 2>&1)
      grep -v ENOENT $W/st.$m.$r | cut -c1-200 >> "$RES/strace.txt"
      (cd $W/samples && env $e SMEMU_CACHE=$W/c.st2.$m.$r SMEMU_THREADS=2 strace -f -c -o $W/sc.$m.$r \
        $S run --quiet -- ./threadFenceReduction > /dev/null 2>&1)
      head -25 $W/sc.$m.$r >> "$RES/strace.txt"
    done
  done
fi
echo "strace done $SECONDS s" >> "$RES/strace.txt"
# per-process fixed cost: a trivial program
if [ -x $W/samples/tiny ]; then
  c=$W/c.tiny; mkdir -m 700 $c
  for k in 1 2 3 4 5 6 7 8 9 10; do echo "tiny $(one $c tiny $S run --quiet --)" >> "$RES/fixed.txt"; done
  for k in 1 2 3; do echo "tiny without smemu $(cd $W/samples && /usr/bin/time -f %e ./tiny 2>&1 >/dev/null | tail -1)" >> "$RES/fixed.txt"; done
  if command -v perf > /dev/null; then
    (cd $W/samples && SMEMU_CACHE=$c perf stat -e task-clock $S run --quiet -- ./tiny) >> "$RES/fixed.txt" 2>&1
  fi
fi
echo "all done $SECONDS s" >> "$RES/fixed.txt"
cat "$RES"/*.txt
