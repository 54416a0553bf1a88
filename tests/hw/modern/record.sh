#!/bin/sh
# record.sh: records the `modern` vectors (ldmatrix/stmatrix, mma.sync,
# movmatrix, mbarrier, sm_90a fatbinaries) on a real sm_90 GPU.
# Run from the scratch root:  sh tests/hw/modern/record.sh OUTDIR
# Writes under OUTDIR: *.out (program outputs), ldsm_ncu.csv (per-launch
# shared-memory counters of ldmatrix/stmatrix), san_*.txt
# (compute-sanitizer on the mbarrier cases), *.sass, versions.txt.
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
GEN="-gencode=arch=compute_90a,code=sm_90a -lineinfo -O3"
hw_versions > "$OUT/versions.txt"
# compile in parallel
printf '%s\n' ldsm mma mbar | xargs -P 4 -I{} sh -c "$NVCC $GEN -o '$OUT/{}' '$HERE/{}.cu' > '$OUT/{}.build.txt' 2>&1"
$NVCC -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90a,code=compute_90a \
  -gencode=arch=compute_90,code=compute_90 -o "$OUT/arch" "$HERE/arch.cu" > "$OUT/arch.build.txt" 2>&1
for p in ldsm mma mbar arch; do cuobjdump -sass "$OUT/$p" > "$OUT/$p.sass" 2>&1; done
timeout 30 "$OUT/arch" > "$OUT/arch.out" 2>&1
timeout 30 "$OUT/ldsm" > "$OUT/ldsm.out" 2>&1
timeout 30 "$OUT/mma" > "$OUT/mma.out" 2>&1
timeout 30 "$OUT/mbar" ok > "$OUT/mbar_ok.out" 2>&1
for n in 0 1 2 3 4 5; do timeout 30 "$OUT/mbar" bad $n > "$OUT/mbar_bad$n.out" 2>&1; done
timeout 30 "$OUT/mbar" s2g > "$OUT/mbar_s2g.out" 2>&1
# ncu: the ldmatrix/stmatrix launches, shared-memory counters per launch
ncu --query-metrics > "$OUT/query-metrics.txt" 2>&1
grep -i -E "ldsm|stsm|shared" "$OUT/query-metrics.txt" > "$OUT/query-metrics-shared.txt"
M="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum"
for extra in smsp__inst_executed_op_ldsm smsp__sass_inst_executed_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm \
             l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm smsp__inst_executed_op_stsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm; do
  grep -q "^$extra[[:space:]]" "$OUT/query-metrics.txt" && M="$M,$extra.sum"
done
echo "$M" > "$OUT/ldsm_metrics.txt"
timeout 100 ncu --clock-control none --cache-control none --csv --print-units base --metrics "$M" \
  "$OUT/ldsm" > "$OUT/ldsm_ncu.csv" 2> "$OUT/ldsm_ncu.err"
# racecheck on ldmatrix/stmatrix without and with barriers
for sync in 0 1; do
  timeout 30 compute-sanitizer --tool racecheck --racecheck-report all "$OUT/ldsm" race $sync > "$OUT/san_racecheck_ldsm$sync.txt" 2>&1
done
# compute-sanitizer on the mbarrier cases
for t in synccheck racecheck; do
  timeout 30 compute-sanitizer --tool $t "$OUT/mbar" ok > "$OUT/san_${t}_ok.txt" 2>&1
done
for c in "memcheck 0" "memcheck 1" "memcheck 4" "synccheck 1" "synccheck 2" "synccheck 5"; do
  set -- $c
  timeout 20 compute-sanitizer --tool $1 "$OUT/mbar" bad $2 > "$OUT/san_$1_bad$2.txt" 2>&1
done
rm -f "$OUT/ldsm" "$OUT/mma" "$OUT/mbar" "$OUT/arch"
echo done
