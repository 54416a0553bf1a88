# nvcc_suite.sh: what the shell suites that build CUDA programs with nvcc
# check before they start. Sourced (". DIR/tests/common/nvcc_suite.sh");
# each function takes the suite's name, which starts its messages, and ends
# the suite when the check fails: exit 77 (skip) for a missing tool, 1 for
# an unbuilt smemu.

# nvcc 13 or newer as $NVCC (nvcc unless set). The optional second argument
# says what the skip leaves undone ("corpus not built, ").
suite_need_nvcc() {
  NVCC=${NVCC:-nvcc}
  command -v "$NVCC" >/dev/null 2>&1 || { echo "$1: nvcc not found: ${2:-}test skipped"; exit 77; }
  "$NVCC" --version 2>/dev/null | grep -q "release 1[3-9]\." ||
    { echo "$1: $NVCC is not CUDA 13 or newer: test skipped"; exit 77; }
}

suite_need_python3() {
  command -v python3 >/dev/null 2>&1 || { echo "$1: python3 not found: test skipped"; exit 77; }
}

# BUILD/smemu (the second argument is BUILD).
suite_need_smemu() {
  [ -x "$2/smemu" ] || { echo "$1: $2/smemu not built"; exit 1; }
}
