#!/bin/bash
# job.sh LEFT SAMPLE: SAMPLE under `smemu run` (2 workers on a free pair of
# cores: slot $W/slot.N, N = 1..7, cores 2N and 2N+1; no pinning on a host
# of fewer than 16 cores), twice with one compile cache that starts empty.
# Appends "SAMPLE: first_s rc [thread-insns compile-s tiers] second_s rc
# [...]" to $RES/samples_raw.txt. LEFT: seconds left to the whole run.
left=$1 s=$2
here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)
while :; do
  for i in 1 2 3 4 5 6 7; do mkdir $W/slot.$i 2>/dev/null && break 2; done
  sleep 0.2
done
c=$W/cache.$s; rm -rf $c; mkdir -m 700 $c
ts="taskset -c $((2*i)),$((2*i+1))"
[ "$(nproc)" -ge 16 ] || ts=""
out=""
for r in 1 2; do
  t=$((left - ($(date +%s) - start)))
  [ $t -gt 2 ] || { out="$out skipped"; continue; }
  t0=$(date +%s.%N)
  ( cd $W/samples && SMEMU_CACHE=$c SMEMU_THREADS=2 timeout $t $ts \
      $W/new/build/smemu run --quiet --json $W/$s.$r.json -- ./$s > $W/$s.$r.log 2>&1 )
  rc=$?
  [ $rc = 0 ] || tail -5 $W/$s.$r.log > "$RES/$s.$r.err"
  t1=$(date +%s.%N)
  ti=$(python3 "$here/launches.py" $W/$s.$r.json)
  out="$out $(awk "BEGIN{printf \"%.2f\", $t1 - $t0}") rc=$rc [$ti]"
done
rmdir $W/slot.$i
echo "$s:$out" >> "$RES/samples_raw.txt"
