#!/bin/sh
# record.sh OUTDIR: builds extra.cu for sm_90, runs it, and profiles its
# kernels with Nsight Compute (shared and generic load/store counters).
OUT=${1:?usage: record.sh OUTDIR}
mkdir -p "$OUT"
nvcc -arch=sm_90 -O3 -lineinfo -o "$OUT/extra" tests/hw/shared_counters/extra.cu || exit 1
"$OUT/extra" > "$OUT/extra.txt" 2>&1
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_generic_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_ldgsts.sum
ncu --clock-control none --csv --print-units base --metrics "$M" "$OUT/extra" > "$OUT/extra_ncu.csv" 2> "$OUT/extra_ncu.err"
cuobjdump -sass "$OUT/extra" | grep -E "Function|LD|ST|LDGSTS" > "$OUT/extra.sass"
nvcc -arch=sm_90 -O3 -o "$OUT/simd_main" tests/hw/shared_counters/simd_main.cu && "$OUT/simd_main" "$OUT/simd.bin" >> "$OUT/extra.txt" 2>&1
rm -f "$OUT/simd_main" "$OUT/extra"
