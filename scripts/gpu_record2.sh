#!/bin/sh
# gpu_record2.sh: the second set of recordings, from the repository root on
# a machine with an NVIDIA GPU: the race/barrier corpus under
# compute-sanitizer (tests/hw/races/record.sh), the examples' bank counters
# under Nsight Compute, and the benchmark's scaling over this machine's
# cores. Writes OUTDIR/races.tgz, vectors.json, vectors.tsv, summary.txt,
# OUTDIR/rec2.tgz and OUTDIR/log2.txt.
OUT=${1:?usage: gpu_record2.sh OUTDIR}
R=/tmp/smemu-rec2
rm -rf "$R"; mkdir -p "$R/ncu_out"
exec > "$OUT/log2.txt" 2>&1
set -x
nproc
timeout 420 sh tests/hw/races/record.sh "$OUT"
METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
mkdir -p build/hw
nvcc -arch=sm_90 -O3 -lineinfo -o build/hw/gpu_examples tests/hw/gpu_examples.cu
timeout 120 ncu --clock-control none --csv --print-units base --metrics "$METRICS" \
  -k 'regex:Reverse|dotPartial|matmul|transpose|splitShared' build/hw/gpu_examples "$R/ncu_out" \
  > "$R/examples_ncu.csv"
cuobjdump -sass build/hw/gpu_examples > "$R/gpu_examples.sass" 2>&1
timeout 120 make -j16 build/libsmemu.a >/dev/null 2>&1 && cc -std=c11 -D_GNU_SOURCE -Iinclude -O3 -o build/bench16 bench/bench.c build/libsmemu.a -lm -pthread && timeout 150 build/bench16 1,2,4,8,16 > "$R/bench16.txt" 2>&1
tar czf "$OUT/rec2.tgz" -C "$R" examples_ncu.csv gpu_examples.sass bench16.txt
