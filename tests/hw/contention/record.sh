#!/bin/sh
# record.sh OUTDIR: records the contention and arbitration kernels of
# contend.cu on a GPU. Run from the repository root:
#   sh tests/hw/contention/record.sh OUTDIR
# Builds contend.cu for sm_90, saves its SASS, runs it twice without a
# profiler (OUTDIR/plain1.txt, plain2.txt: every configuration 5 times, the
# kernels' own iteration counts), then under Nsight Compute in four groups
# (OUTDIR/ncu_GROUP.csv with the program's output in ncu_GROUP.txt), each
# configuration launched 5 times (the integer atomics 3; the busy kernels
# always 3), so that the counts
# that vary from launch to launch show their range. Copy OUTDIR's text files
# to tests/hw/contention/recorded/.
OUT=${1:?usage: sh tests/hw/contention/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt" 2>&1
mkdir -p "$OUT/build"
timeout 120 "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$OUT/build/contend" "$HERE/contend.cu" > "$OUT/build.txt" 2>&1 || {
  cat "$OUT/build.txt"
  exit 1
}
timeout 60 "$CUOBJDUMP" -sass "$OUT/build/contend" > "$OUT/contend.sass" 2>&1
for r in 1 2; do
  timeout 60 "$OUT/build/contend" 5 > "$OUT/plain$r.txt" 2>&1
  echo "rc $?" >> "$OUT/plain$r.txt"
done
M="$SHARED_METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
for grp in "cas:5:cas_fadd,native_fadd,stddev_cas" "spin:5:flag_spin,flag_chain,last_block,last_spin" \
  "busy:3:stencil2d,cyclic_red,conv1d" "int:3:ticket_add,count_add,agg_add"; do
  name=${grp%%:*} reps=${grp#*:} reps=${reps%%:*}
  timeout 150 "$NCU" --clock-control none --csv --print-units base --metrics "$M" --log-file "$OUT/ncu_$name.csv" \
    "$OUT/build/contend" "$reps" "${grp##*:}" > "$OUT/ncu_$name.txt" 2>&1
  echo "rc $?" >> "$OUT/ncu_$name.txt"
done
rm -rf "$OUT/build"
