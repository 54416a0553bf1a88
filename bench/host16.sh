#!/bin/bash
# host16.sh OUTDIR: on a many-core host without LLVM (the device tool's GPU
# host, 16 cores): worker scaling of the interpreter tier and the whole
# programs of bench/programs on 2 and 16 workers (bench/results/).
OUT=${1:?usage: host16.sh OUTDIR}; mkdir -p "$OUT"
set -x
nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread" ; uname -a
sh bench/scaling.sh 1,2,4,8,16 > $OUT/scaling.txt 2>&1
make -s -j16 BUILD=build-gpu build-gpu/smemu runtime > $OUT/build.log 2>&1; echo build rc=$?
for w in 16 2; do
  SMEMU_THREADS=$w timeout 250 sh bench/programs.sh build-gpu > $OUT/programs_$w.txt 2>&1
  echo "programs $w rc=$?"
done
tail -n +1 $OUT/*.txt
