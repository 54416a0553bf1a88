#!/bin/sh
# record.sh: records the instruction-selection corpus (model.cu, made by
# gen_corpus.py) on a real GPU.  Run from the repository root:
#     sh tests/hw/model/record.sh OUTDIR
# Writes under OUTDIR:
#   model, model.sass      the program and cuobjdump -sass of it
#   sass_counts.tsv        shared-memory SASS instructions per kernel
#   run.txt                the program's own output: per kernel the shared
#                          address of its array (atoms) or of each variable
#                          (lay_*), and the lanes' results
#   ncu.csv                ncu --csv of every kernel (the raw recording)
#   ncu_busy2.csv, ncu_busy3.csv   the busy_* kernels twice more (run-to-run
#                          spread of the counters)
#   metrics.txt, vectors.tsv (csv2vectors.py of ncu.csv)
set -u
OUT=${1:?usage: record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
NCU=${NCU:-ncu}
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
PY=${PYTHON:-python3}
start=$(date +%s)
$PY "$HERE/gen_corpus.py" > "$OUT/gen.txt" 2>&1
timeout 120 $NVCC -arch=sm_90 -O3 -lineinfo -o "$OUT/model" "$HERE/model.cu" > "$OUT/nvcc.txt" 2>&1
$CUOBJDUMP -sass "$OUT/model" > "$OUT/model.sass" 2>&1
$PY "$HERE/csv2vectors.py" --sass-counts "$OUT/model.sass" > "$OUT/sass_counts.tsv"
M="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"
{
  echo "metrics: $M"
  "$NCU" --version 2>&1 | tail -1
  $NVCC --version 2>&1 | tail -1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
} > "$OUT/metrics.txt"
timeout 30 "$OUT/model" > "$OUT/run.txt" 2> "$OUT/run.err"
echo "model exit $?" >> "$OUT/run.err"
timeout 100 "$NCU" --clock-control none --cache-control none --csv --print-units base \
  --metrics "$M" "$OUT/model" > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit $?" >> "$OUT/ncu.err"
for r in 2 3; do
  timeout 20 "$NCU" --clock-control none --cache-control none --csv --print-units base \
    --metrics "$M" -k regex:busy_ "$OUT/model" > "$OUT/ncu_busy$r.csv" 2>> "$OUT/ncu.err"
done
$PY "$HERE/csv2vectors.py" "$OUT/ncu.csv" --sass "$OUT/model.sass" -o "$OUT/vectors.tsv" 2> "$OUT/csv2vectors.err"
end=$(date +%s)
echo "record.sh: done in $((end - start)) s"
