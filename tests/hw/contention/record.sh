#!/bin/sh
# record.sh OUTDIR [sweep]: records the contention and arbitration kernels of
# contend.cu (or, with `sweep`, sweep.cu) on a GPU. Run from anywhere:
#   sh tests/hw/contention/record.sh OUTDIR [sweep]
# Builds the program for sm_90, saves its SASS, runs it twice without a
# profiler (OUTDIR/plain1.txt, plain2.txt: every configuration 5 times, the
# kernels' own iteration counts), then under Nsight Compute in groups
# (OUTDIR/ncu_GROUP.csv with the program's output in ncu_GROUP.txt), each
# under its own time limit, so that the counts that vary from launch to
# launch show their range. contend.cu launches each configuration 5 times
# under the profiler (the integer atomics and the busy kernels 3), sweep.cu
# 5 (nf_all) or 3; sweep.cu's files start with `sweep_`. Copy OUTDIR's text
# files to tests/hw/contention/recorded/.
OUT=${1:?usage: sh tests/hw/contention/record.sh OUTDIR [sweep]}
PROG=${2:-contend}
. "$(dirname "$0")/../common.sh"
# groups: NAME:REPS:ONLY:SECONDS
case $PROG in
contend)
  P=
  M="$SHARED_METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
  GROUPS="cas:5:cas_fadd,native_fadd,stddev_cas:150 spin:5:flag_spin,flag_chain,last_block,last_spin:150
    busy:3:stencil2d,cyclic_red,conv1d:150 int:3:ticket_add,count_add,agg_add:150" ;;
sweep)
  P=sweep_
  M=$SHARED_METRICS
  GROUPS="nf:5:nf_all:40 reload:3:reload_cas:25 chain:3:flag_chain:25 cas:3:cas_fadd:25 nfx:3:nf_part8,nf_words4:40" ;;
*) echo "record.sh: no program $PROG (contend, sweep)"; exit 2 ;;
esac
hw_versions > "$OUT/${P}versions.txt" 2>&1
mkdir -p "$OUT/build"
timeout 120 "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$OUT/build/$PROG" "$HERE/$PROG.cu" > "$OUT/${P}build.txt" 2>&1 || {
  cat "$OUT/${P}build.txt"
  exit 1
}
timeout 60 "$CUOBJDUMP" -sass "$OUT/build/$PROG" > "$OUT/$PROG.sass" 2>&1
for r in 1 2; do
  timeout 60 "$OUT/build/$PROG" 5 > "$OUT/${P}plain$r.txt" 2>&1
  echo "rc $?" >> "$OUT/${P}plain$r.txt"
done
for grp in $GROUPS; do
  name=${grp%%:*} rest=${grp#*:}
  reps=${rest%%:*} rest=${rest#*:}
  only=${rest%%:*} limit=${rest#*:}
  timeout "$limit" "$NCU" --clock-control none --csv --print-units base --metrics "$M" --log-file "$OUT/${P}ncu_$name.csv" \
    "$OUT/build/$PROG" "$reps" "$only" > "$OUT/${P}ncu_$name.txt" 2>&1
  echo "rc $?" >> "$OUT/${P}ncu_$name.txt"
done
rm -rf "$OUT/build"
