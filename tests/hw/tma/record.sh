#!/bin/sh
# record.sh: records the `tma` vectors (cuTensorMapEncode*, cp.async.bulk.tensor
# loads/stores/reductions in every mode, swizzle layouts, OOB fill, misuse
# cases, ncu shared-memory counters of threads reading TMA-loaded tiles,
# compute-sanitizer racecheck) on a real sm_90 GPU.
# Run from the scratch root:  sh tests/hw/tma/record.sh OUTDIR
# Writes under OUTDIR: <mode>.out (tma.cu's output per mode), banks_ncu.csv,
# load_ncu.csv, san_*.txt, tma.sass, versions.txt.
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt"
$NVCC -gencode=arch=compute_90a,code=sm_90a -lineinfo -O3 -I"$HERE" -o "$OUT/tma" "$HERE/tma.cu" > "$OUT/tma.build.txt" 2>&1
cuobjdump -sass "$OUT/tma" > "$OUT/tma.sass" 2>&1
T="$OUT/tma"
# tile loads one process per case (a fault is sticky to the process)
n=$(timeout 20 "$T" ntiles)
i=0
: > "$OUT/tile.out"
while [ "$i" -lt "${n:-0}" ]; do
  timeout 20 "$T" tile $i >> "$OUT/tile.out" 2>&1 || echo "case $i rc $?" >> "$OUT/tile.out"
  i=$((i + 1))
done
for m in encode store replace txmis banks mcast; do
  timeout 60 "$T" $m > "$OUT/$m.out" 2>&1; echo "rc $?" >> "$OUT/$m.out"
done
for t in 0 1 2 3 4 5 6 7; do
  timeout 30 "$T" reduce $t > "$OUT/reduce$t.out" 2>&1; echo "rc $?" >> "$OUT/reduce$t.out"
done
# a misaligned shared destination: each in its own process (a fault is sticky)
for off in 16 64 128 256 512; do
  for c in 3 0; do
    timeout 20 "$T" misalign $off $c > "$OUT/misalign_${off}_$c.out" 2>&1; echo "rc $?" >> "$OUT/misalign_${off}_$c.out"
  done
done
timeout 30 compute-sanitizer --tool memcheck "$T" misalign 16 3 > "$OUT/san_memcheck_misalign16.txt" 2>&1
timeout 30 compute-sanitizer --tool memcheck "$T" misalign 128 3 > "$OUT/san_memcheck_misalign128.txt" 2>&1
# racecheck on the misuse cases (0 read before the wait, 2 store without
# fence.proxy.async, 4 overwrite before wait_group.read) and their fixes
for n in 0 1 2 3 4 5; do
  timeout 40 compute-sanitizer --tool racecheck --racecheck-report all "$T" race $n > "$OUT/san_racecheck_$n.txt" 2>&1
done
timeout 30 compute-sanitizer --tool synccheck "$T" txmis > "$OUT/san_synccheck_txmis.txt" 2>&1
# ncu: shared-memory counters of the bank-pattern launches (4 swizzle modes
# x 9 patterns, pattern -1 = the TMA load alone) and of the first loads
ncu --query-metrics > "$OUT/query-metrics.txt" 2>&1
grep -i -E "shared|tma|bulk|utma" "$OUT/query-metrics.txt" > "$OUT/query-metrics-shared.txt"
M="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
for extra in l1tex__data_bank_reads.sum l1tex__data_bank_writes.sum smsp__inst_executed_op_tma.sum \
             l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum; do
  grep -q "^${extra%.sum}[[:space:]]" "$OUT/query-metrics.txt" && M="$M,$extra"
done
echo "$M" > "$OUT/metrics.txt"
timeout 150 ncu --clock-control none --cache-control none --csv --print-units base --kernel-name k_banks --metrics "$M" \
  "$T" banks > "$OUT/banks_ncu.csv" 2> "$OUT/banks_ncu.err"
timeout 60 ncu --clock-control none --cache-control none --csv --print-units base --kernel-name k_load --launch-count 6 \
  --metrics "$M" "$T" tile > "$OUT/load_ncu.csv" 2> "$OUT/load_ncu.err"
timeout 60 ncu --clock-control none --cache-control none --csv --print-units base --kernel-name k_store \
  --metrics "$M" "$T" store > "$OUT/store_ncu.csv" 2> "$OUT/store_ncu.err"
rm -f "$T"
echo done
