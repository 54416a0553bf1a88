#!/bin/sh
# record.sh OUTDIR: records on an H100/H200 (sm_90, CUDA 13) what smemu's
# fidelity tests compare with. Run from the repository root (or any root
# holding tests/hw/fidelity/): sh tests/hw/fidelity/record.sh OUTDIR
#   sregs.txt           sregs.cu: WARP_SZ, warpSize, %nwarpid, %nsmid,
#                       %total_smem_size, %dynamic_smem_size, %aggr_smem_size,
#                       %reserved_smem_offset_* for static/dynamic/block sizes
#   warpmask/OP.SCEN.{plain,synccheck}.txt (+ .rc): warpmask.cu, every .sync
#                       warp operation with a membermask that lacks the caller,
#                       plainly and under compute-sanitizer --tool synccheck
#   smemcfg.txt, smemcfg_ncu.csv: the bank-size configuration on sm_90, with
#                       Nsight Compute's shared-memory counters
#   sass/*.sass, ptx/*.ptx, versions.txt
# Every command runs under timeout and the script carries on past failures.
# Needs at most ~2 minutes (environment: FID_JOBS parallel runs, default 8).
set -u
OUT=${1:?usage: sh tests/hw/fidelity/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
BIN="$OUT/bin"
mkdir -p "$BIN" "$OUT/sass" "$OUT/ptx" "$OUT/warpmask"
JOBS=${FID_JOBS:-8}
start=$(date +%s)

hw_versions > "$OUT/versions.txt"

# build the three programs in parallel, and their PTX
for p in sregs warpmask smemcfg; do echo "$p"; done |
  xargs -P 3 -I{} sh -c "timeout 120 nvcc -arch=sm_90 -lineinfo -cudart shared -o '$BIN/{}' '$HERE/{}.cu' > '$OUT/{}.build.txt' 2>&1;
    timeout 60 nvcc -arch=sm_90 -lineinfo -ptx -o '$OUT/ptx/{}.ptx' '$HERE/{}.cu' >> '$OUT/{}.build.txt' 2>&1;
    timeout 60 cuobjdump -sass '$BIN/{}' > '$OUT/sass/{}.sass' 2>&1; true"
echo "built after $(( $(date +%s) - start )) s"

# predefined identifiers
timeout 60 "$BIN/sregs" > "$OUT/sregs.txt" 2>&1
echo "sregs rc $?" >> "$OUT/sregs.txt"

# warp operations with bad masks: one process per case and tool
ops="ballot any all uni shfl_idx shfl_down shfl_xor match_any match_all redux_add redux_min syncwarp"
scens="full halves hi_not_in_mask lane0_not_in_mask swapped none_in_mask exited_in_mask"
for o in $ops; do for s in $scens; do echo "$o $s plain"; echo "$o $s synccheck"; done; done |
  xargs -P "$JOBS" -L 1 sh -c '
    f="$0/warpmask/$2.$3.$4"
    if [ "$4" = plain ]; then set -- "$1" "$2" "$3"; else set -- compute-sanitizer --tool synccheck "$1" "$2" "$3"; fi
    t0=$(date +%s); timeout 15 "$@" > "$f.txt" 2>&1; rc=$?
    echo "rc $rc seconds $(( $(date +%s) - t0 ))" > "$f.rc"' "$OUT" "$BIN/warpmask"
echo "warpmask done after $(( $(date +%s) - start )) s"

# bank-size configuration on sm_90
timeout 30 "$BIN/smemcfg" > "$OUT/smemcfg.txt" 2>&1
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
timeout 60 ncu --clock-control none --csv --print-units base --metrics "$M" "$BIN/smemcfg" > "$OUT/smemcfg_ncu.csv" 2> "$OUT/smemcfg_ncu.err"
echo "smemcfg ncu rc $?" >> "$OUT/smemcfg.txt"

rm -rf "$BIN"
echo "done after $(( $(date +%s) - start )) s" | tee -a "$OUT/versions.txt"
