#!/bin/sh
# gpu_record.sh: every recording smemu's tests compare with, made in one run
# on a machine with an NVIDIA GPU (H100/H200), from the repository root:
#   sh scripts/gpu_record.sh OUTDIR
# It writes OUTDIR/rec.tgz holding edge/ (undefined-behaviour cases),
# examples/ (example and e2e outputs), banks/ (Nsight Compute bank counters
# of the access-pattern corpus) and examples_ncu.csv (the examples' bank
# counters), plus log.txt. Unpack with tar xzf and copy as the README says.
OUT=${1:?usage: gpu_record.sh OUTDIR}
R=/tmp/smemu-rec
rm -rf "$R"; mkdir -p "$R"
exec > "$OUT/log.txt" 2>&1
set -x
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
nvcc --version | tail -2
ncu --version | tail -1
compute-sanitizer --version | tail -1
timeout 120 sh tests/hw/arith_edges/record.sh "$R/edge"
timeout 200 sh tests/hw/record_examples.sh "$R/examples"
METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
timeout 150 ncu --clock-control none --csv --print-units base --metrics "$METRICS" \
  -k 'regex:Reverse|dotPartial|matmul|transpose|splitShared' build/hw/gpu_examples "$R/ncu_examples_out" \
  > "$R/examples_ncu.csv"
timeout 330 sh tests/hw/banks/record.sh "$R/banks"
tar czf "$OUT/rec.tgz" -C "$R" .
ls -la "$R" "$R"/*
