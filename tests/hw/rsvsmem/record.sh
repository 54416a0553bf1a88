#!/bin/sh
# record.sh OUTDIR: records on an H100/H200 (sm_90, CUDA 13) what smemu
# assumes about the block's reserved shared memory (README: reserved shared
# memory). Run from the repository root: sh tests/hw/rsvsmem/record.sh OUT
#   rsvsmem.txt    rsvsmem.cu: %reserved_smem_offset_begin/_end/_cap/_0/_1
#                  for static/dynamic sizes, and the reserved words a fresh
#                  block reads (smemu: 0, 288, 1024, 0, 0; zeros)
#   cg_tiles.*     tests/runtime/corpus/cg_tiles.cu (CG tiles of 64 and 128
#                  threads): native output, racecheck of the clean and the
#                  racy run ("race": smemu reports cg_tiles.cu:53/54), and
#                  Nsight Compute's shared-memory counters (ncu.csv)
#   versions.txt, rsvsmem.sass
# Every command runs under timeout and the script carries on past failures.
set -u
OUT=${1:?usage: sh tests/hw/rsvsmem/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p "$OUT/bin"
hw_versions > "$OUT/versions.txt"
F="-arch=sm_90 -lineinfo -cudart shared"
timeout 300 nvcc $F -o "$OUT/bin/rsvsmem" "$HERE/rsvsmem.cu" > "$OUT/build.txt" 2>&1
timeout 300 nvcc $F -o "$OUT/bin/cg_tiles" "$ROOT/tests/runtime/corpus/cg_tiles.cu" >> "$OUT/build.txt" 2>&1
timeout 60 cuobjdump -sass "$OUT/bin/rsvsmem" > "$OUT/rsvsmem.sass" 2>&1
timeout 60 "$OUT/bin/rsvsmem" > "$OUT/rsvsmem.txt" 2>&1; echo "rc=$?" >> "$OUT/rsvsmem.txt"
timeout 60 "$OUT/bin/cg_tiles" > "$OUT/cg_tiles.out" 2>&1; echo "rc=$?" >> "$OUT/cg_tiles.out"
timeout 300 compute-sanitizer --tool racecheck --racecheck-report analysis "$OUT/bin/cg_tiles" \
  > "$OUT/cg_tiles.racecheck.txt" 2>&1
timeout 300 compute-sanitizer --tool racecheck --racecheck-report analysis "$OUT/bin/cg_tiles" race \
  > "$OUT/cg_tiles.racecheck_race.txt" 2>&1
timeout 300 compute-sanitizer --tool initcheck "$OUT/bin/cg_tiles" > "$OUT/cg_tiles.initcheck.txt" 2>&1
timeout 300 ncu --csv --metrics smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
  "$OUT/bin/cg_tiles" > "$OUT/cg_tiles.ncu.csv" 2>&1
echo "record.sh: wrote $OUT"
