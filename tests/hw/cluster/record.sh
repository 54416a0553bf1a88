#!/bin/sh
# record.sh: records the `cluster` vectors (thread-block clusters, distributed
# shared memory) on a real sm_90 GPU.
# Run from the scratch root:  sh tests/hw/cluster/record.sh OUTDIR
# Writes under OUTDIR: launch.out (launch configurations: error codes and
# cluster special registers), occ.out (occupancy answers), dsmem.out (remote
# shared memory, remote mbarrier, histogram), bad*.out (misuse cases),
# san_<tool>_<case>.txt (compute-sanitizer), ncu_*.csv (shared counters of
# one-warp remote accesses), cluster.sass, versions.txt.
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt"
$NVCC -gencode=arch=compute_90a,code=sm_90a -lineinfo -O3 -o "$OUT/cluster" "$HERE/cluster.cu" -lcuda \
  > "$OUT/cluster.build.txt" 2>&1
cuobjdump -sass "$OUT/cluster" > "$OUT/cluster.sass" 2>&1
B="$OUT/cluster"
timeout 60 "$B" launch > "$OUT/launch.out" 2>&1; echo "rc $?" >> "$OUT/launch.out"
timeout 60 "$B" occ > "$OUT/occ.out" 2>&1; echo "rc $?" >> "$OUT/occ.out"
timeout 60 "$B" dsmem > "$OUT/dsmem.out" 2>&1; echo "rc $?" >> "$OUT/dsmem.out"
timeout 30 "$B" ncu > "$OUT/ncu_run.out" 2>&1
for n in 0 1 2 3 4 5 6 8 9 10; do
  timeout 30 "$B" bad $n > "$OUT/bad$n.out" 2>&1; echo "rc $?" >> "$OUT/bad$n.out"
done
# compute-sanitizer: memcheck on the bad accesses, racecheck on the races
# and the clean programs, synccheck on the barrier cases
for c in 0 1 2 3 8 9; do
  timeout 40 compute-sanitizer --tool memcheck "$B" bad $c > "$OUT/san_memcheck_bad$c.txt" 2>&1
done
for c in 4 5 10; do
  timeout 40 compute-sanitizer --tool racecheck --racecheck-report all "$B" bad $c > "$OUT/san_racecheck_bad$c.txt" 2>&1
done
timeout 60 compute-sanitizer --tool racecheck "$B" dsmem > "$OUT/san_racecheck_dsmem.txt" 2>&1
timeout 60 compute-sanitizer --tool memcheck "$B" dsmem > "$OUT/san_memcheck_dsmem.txt" 2>&1
timeout 60 compute-sanitizer --tool synccheck "$B" dsmem > "$OUT/san_synccheck_dsmem.txt" 2>&1
timeout 40 compute-sanitizer --tool synccheck "$B" bad 6 > "$OUT/san_synccheck_bad6.txt" 2>&1
# ncu: shared-memory counters of the one-warp remote accesses
ncu --query-metrics > "$OUT/query-metrics.txt" 2>&1
grep -i -E "dsmem|dshared|distributed|cluster|remote|shared" "$OUT/query-metrics.txt" > "$OUT/query-metrics-shared.txt"
M="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"
M="$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
timeout 120 ncu --clock-control none --cache-control none --csv --print-units base --metrics "$M" \
  "$B" ncu > "$OUT/ncu_shared.csv" 2> "$OUT/ncu_shared.err"
# every counter whose name mentions distributed shared memory, one run
X=$(grep -i -o -E "^[a-z0-9_]*(dsmem|dshared|distributed)[a-z0-9_]*" "$OUT/query-metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
echo "$X" > "$OUT/ncu_dsmem_metrics.txt"
if [ -n "$X" ]; then
  timeout 120 ncu --clock-control none --cache-control none --csv --print-units base --metrics "$X" \
    "$B" ncu > "$OUT/ncu_dsmem.csv" 2> "$OUT/ncu_dsmem.err"
fi
# the divergent .aligned cluster barrier last: undefined, it may hang
timeout 20 "$B" bad 7 > "$OUT/bad7.out" 2>&1; echo "rc $?" >> "$OUT/bad7.out"
timeout 30 compute-sanitizer --tool synccheck "$B" bad 7 > "$OUT/san_synccheck_bad7.txt" 2>&1
rm -f "$B"
echo done
