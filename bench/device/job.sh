#!/bin/bash
# job.sh NAME VARIANT TIER SAMPLE: one sample under smemu run with 2
# workers on a free pair of cores (a slot: /tmp/slot.N, N = 0..7), TIER
# auto, interp, or first (two runs with one cache that starts empty);
# appends "SAMPLE VARIANT TIER: seconds rc=RC [thread-insns compile-s
# tiers]" to $OUT/samples_raw.txt (run.sh).
n=$1 v=$2 tier=$3 s=$4
while :; do
  for i in 0 1 2 3 4 5 6 7; do mkdir /tmp/slot.$i 2>/dev/null && break 2; done
  sleep 0.2
done
c=/tmp/cache.$n; rm -rf $c; mkdir -m 700 $c
runs=1; [ "$tier" = first ] && runs=2
out=""
for r in $(seq $runs); do
  t0=$(date +%s.%N)
  ( cd /tmp/w/samples && SMEMU_CACHE=$c SMEMU_THREADS=2 timeout 150 taskset -c $((2*i)),$((2*i+1)) \
      env $( [ "$tier" = interp ] && echo SMEMU_TIER=interp ) /tmp/w/$v/build/smemu run --quiet --json /tmp/$n.$r.json -- ./$s > /tmp/$n.$r.log 2>&1 )
  rc=$?
  t1=$(date +%s.%N)
  ti=$(python3 "$(dirname "$0")/launches.py" /tmp/$n.$r.json)
  out="$out $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}") rc=$rc [$ti]"
done
rmdir /tmp/slot.$i
echo "$s $v $tier:$out" >> $OUT/samples_raw.txt
