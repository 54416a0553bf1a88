#!/bin/sh
# record.sh: records the bank-conflict vectors on a real GPU.
# Run from the repository root on the GPU machine:
#     sh tests/hw/banks/record.sh OUTDIR
# It builds corpus.cu for sm_90, saves the SASS (to confirm one LDS/STS/ATOMS
# per kernel), runs every kernel once under Nsight Compute and writes
#   OUTDIR/corpus            the program
#   OUTDIR/corpus.sass       cuobjdump -sass
#   OUTDIR/sass_counts.tsv   shared-memory SASS instructions per kernel
#   OUTDIR/ncu.csv           ncu --csv output (the raw recording)
#   OUTDIR/bases.txt         shared address of each kernel's array
#   OUTDIR/metrics.txt       the metric names used, and ncu/nvcc versions
#   OUTDIR/vectors.tsv       the vector file (csv2vectors.py); copy it to
#                            tests/hw/banks/vectors.tsv to commit it
# Optional: BANKS_KERNELS=regex restricts the run to matching kernels.
set -eu
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
NCU=${NCU:-ncu}
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
PY=${PYTHON:-python3}
start=$(date +%s)

# The .cu is generated; regenerate it so the recording matches the script.
$PY "$HERE/gen_corpus.py"
$NVCC -arch=sm_90 -O3 -lineinfo -o "$OUT/corpus" "$HERE/corpus.cu"
$CUOBJDUMP -sass "$OUT/corpus" > "$OUT/corpus.sass"
$PY "$HERE/csv2vectors.py" --sass-counts "$OUT/corpus.sass" > "$OUT/sass_counts.tsv"

# Metric names: the ones HARDWARE.md lists; when this ncu lacks one, take the
# first alternative it has (the vector file keeps the canonical column name).
"$NCU" --query-metrics > "$OUT/query-metrics.txt" 2>&1 || true
pick() {
  for m in "$@"; do
    if grep -q "^$m[[:space:]]" "$OUT/query-metrics.txt"; then echo "$m"; return; fi
  done
  echo "$1"   # not listed (or the query failed): try the canonical name
}
M_INST_LD=$(pick smsp__sass_inst_executed_op_shared_ld sm__sass_inst_executed_op_shared_ld smsp__inst_executed_op_shared_ld)
M_INST_ST=$(pick smsp__sass_inst_executed_op_shared_st sm__sass_inst_executed_op_shared_st smsp__inst_executed_op_shared_st)
M_INST_AT=$(pick smsp__sass_inst_executed_op_shared_atom sm__sass_inst_executed_op_shared_atom smsp__inst_executed_op_shared_atom)
M_WF_LD=$(pick l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld)
M_WF_ST=$(pick l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st)
M_WF_AT=$(pick l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom)
M_BC_LD=$(pick l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld)
M_BC_ST=$(pick l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st)
M_BC_AT=$(pick l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom)
METRICS="$M_INST_LD.sum,$M_INST_ST.sum,$M_INST_AT.sum,$M_WF_LD.sum,$M_WF_ST.sum,$M_WF_AT.sum,$M_BC_LD.sum,$M_BC_ST.sum,$M_BC_AT.sum"
{
  echo "metrics: $METRICS"
  "$NCU" --version 2>&1 | tail -1
  $NVCC --version 2>&1 | tail -1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
} > "$OUT/metrics.txt"

# The program alone first: the addresses of the arrays (and a sanity run).
"$OUT/corpus" > "$OUT/bases.txt"

FILTER=""
[ -n "${BANKS_KERNELS:-}" ] && FILTER="-k regex:${BANKS_KERNELS}"
# --cache-control none: no cache flush between passes (only shared memory
# matters here); --clock-control none as HARDWARE.md says.
# shellcheck disable=SC2086
"$NCU" --clock-control none --cache-control none --csv --print-units base \
  --metrics "$METRICS" $FILTER "$OUT/corpus" > "$OUT/ncu.csv"
$PY "$HERE/csv2vectors.py" "$OUT/ncu.csv" --sass "$OUT/corpus.sass" \
  --bases "$OUT/bases.txt" -o "$OUT/vectors.tsv"
end=$(date +%s)
echo "record.sh: done in $((end - start)) s; vectors in $OUT/vectors.tsv"
