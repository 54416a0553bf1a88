# common.sh: the start every recording script shares. A script sets OUT and
# sources this file (. "$(dirname "$0")/../common.sh"); it then has the CUDA
# tools on PATH, OUT made and absolute, HERE (the script's own folder), the
# tools' names NVCC, NCU, SANITIZER, CUOBJDUMP (the environment may name
# others) and JOBS (parallel runs, default: the cores).
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
[ -d /usr/local/cuda/compute-sanitizer ] && PATH="$PATH:/usr/local/cuda/compute-sanitizer"
export PATH
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
SANITIZER=${SANITIZER:-compute-sanitizer}
CUOBJDUMP=${CUOBJDUMP:-cuobjdump}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}

# The nine shared-memory counters of Nsight Compute the corpora record.
SHARED_METRICS="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"

# hw_versions: the date, the tools' versions and the GPU, on stdout.
hw_versions() {
  echo "date: $(date -u)"
  "$NVCC" --version 2>&1 | tail -2
  "$NCU" --version 2>&1 | tail -1
  "$SANITIZER" --version 2>&1 | tail -1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
}

# hw_build SRC BIN: BIN built from SRC for sm_90 (-O3 -lineinfo, the
# static runtime) and its SASS in OUT/NAME.sass; on failure the log is
# printed and the script ends (exit 1).
hw_build() {
  timeout 120 "$NVCC" -arch=sm_90 -O3 -lineinfo -o "$2" "$1" > "$OUT/build.txt" 2>&1 || {
    cat "$OUT/build.txt"
    exit 1
  }
  timeout 60 "$CUOBJDUMP" -sass "$2" > "$OUT/$(basename "$2").sass" 2>&1
}
