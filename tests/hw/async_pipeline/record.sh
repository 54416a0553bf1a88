#!/bin/sh
# record.sh: records the async-copy corner cases of smemu findings F6 (several
# threads init the same fresh mbarrier), F7 (cp.async destination accessed
# while the copy is in flight) and F8 (cp.async.mbarrier.arrive[.noinc],
# cuda::pipeline with block-scope shared state) on a real sm_90 GPU.
# Run from the scratch root:  sh tests/hw/async_pipeline/record.sh OUTDIR
# Writes under OUTDIR: *.out (program outputs), san_<tool>_<case>.txt
# (compute-sanitizer), *.ptx/*.sass, versions.txt. About 1-2 minutes.
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
GEN="-gencode=arch=compute_90a,code=sm_90a -lineinfo -O3"
hw_versions > "$OUT/versions.txt"
for p in af pipe; do
  timeout 120 $NVCC $GEN -o "$OUT/$p" "$HERE/$p.cu" > "$OUT/$p.build.txt" 2>&1
  timeout 60 $NVCC $GEN -ptx -o "$OUT/$p.ptx" "$HERE/$p.cu" > /dev/null 2>&1
  timeout 30 cuobjdump -sass "$OUT/$p" > "$OUT/$p.sass" 2>&1
done
# plain runs (the in-flight cases three times: the histogram may vary)
for c in init cnt mt rd wr own ok; do timeout 30 "$OUT/af" $c > "$OUT/af_$c.out" 2>&1; echo "rc=$?" >> "$OUT/af_$c.out"; done
for c in rd wr own; do
  for i in 2 3; do timeout 30 "$OUT/af" $c >> "$OUT/af_$c.out" 2>&1; echo "rc=$?" >> "$OUT/af_$c.out"; done
done
for c in unified partitioned; do timeout 30 "$OUT/pipe" $c > "$OUT/pipe_$c.out" 2>&1; echo "rc=$?" >> "$OUT/pipe_$c.out"; done
# compute-sanitizer
for t in racecheck synccheck memcheck; do
  R=""; [ $t = racecheck ] && R="--racecheck-report all"
  for c in init cnt mt; do
    timeout 40 compute-sanitizer --tool $t $R "$OUT/af" $c > "$OUT/san_${t}_$c.txt" 2>&1
  done
  for c in unified partitioned; do
    timeout 40 compute-sanitizer --tool $t $R "$OUT/pipe" $c > "$OUT/san_${t}_pipe_$c.txt" 2>&1
  done
done
for t in racecheck synccheck; do
  R=""; [ $t = racecheck ] && R="--racecheck-report all"
  for c in rd wr own ok; do
    timeout 40 compute-sanitizer --tool $t $R "$OUT/af" $c > "$OUT/san_${t}_$c.txt" 2>&1
  done
done
# racecheck default report level on the in-flight cases (hazard vs analysis lines)
for c in rd wr; do
  timeout 40 compute-sanitizer --tool racecheck "$OUT/af" $c > "$OUT/san_racecheck_default_$c.txt" 2>&1
done
rm -f "$OUT/af" "$OUT/pipe"
echo done
