#!/bin/sh
# record.sh OUTDIR [GROUP...]: records arbit.cu's configurations on a GPU
# (the groups named, default trf res mix ilp pure: the configurations whose
# names start with GROUP_; NAME=A,B records those starting with A or B as
# group NAME). Run from the repository root:
#   sh tests/hw/arbitration/record.sh OUTDIR
# Builds arbit.cu for sm_90, saves its SASS, runs every configuration once
# without a profiler (OUTDIR/plain.txt: the results' check), then under
# Nsight Compute group by group (OUTDIR/ncu_GROUP.csv, the program's lines
# in ncu_GROUP.txt), each configuration launched 5 times, so that the
# counts that vary from launch to launch show their range. The extra
# metrics (L1 hit and miss sectors, global stores, resident warps) are
# dropped when this Nsight Compute does not know them. Copy OUTDIR's text
# files to tests/hw/arbitration/recorded/.
OUT=${1:?usage: sh tests/hw/arbitration/record.sh OUTDIR [GROUP...]}
shift
GROUPS=${*:-trf res mix ilp pure}
. "$(dirname "$0")/../common.sh"
hw_versions > "$OUT/versions.txt" 2>&1
mkdir -p "$OUT/build"
hw_build "$HERE/arbit.cu" "$OUT/build/arbit"
timeout 60 "$OUT/build/arbit" 1 > "$OUT/plain.txt" 2>&1
echo "rc $?" >> "$OUT/plain.txt"
BASE="$SHARED_METRICS,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_ld.sum"
M="$BASE,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,sm__warps_active.avg.per_cycle_active"
timeout 60 "$NCU" --csv --print-units base --metrics "$M" --log-file "$OUT/ncu_probe.csv" \
  "$OUT/build/arbit" 1 res_b1_w1_s1 > "$OUT/ncu_probe.txt" 2>&1
rc=$?
echo "rc $rc" >> "$OUT/ncu_probe.txt"
if [ $rc -ne 0 ] || ! grep -q lookup_hit "$OUT/ncu_probe.csv"; then
  echo "extra metrics refused: base set only" >> "$OUT/ncu_probe.txt"
  M=$BASE
fi
# in the order named (the default puts first what the fit needs most), each
# group stopped after 90 s, keeping what it profiled by then
for grp in $GROUPS; do
  name=${grp%%=*} only=${grp#*=}
  [ "$name" = "$grp" ] && only=${name}_
  timeout -s INT -k 10 90 "$NCU" --clock-control none --csv --print-units base --metrics "$M" \
    --log-file "$OUT/ncu_$name.csv" "$OUT/build/arbit" 5 "$only" > "$OUT/ncu_$name.txt" 2>&1
  echo "rc $?" >> "$OUT/ncu_$name.txt"
done
rm -rf "$OUT/build"
