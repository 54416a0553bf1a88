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

# Builds every program of HERE/programs.tsv both ways, as a user would
# (nvcc -arch=sm_90 -lineinfo): with -cudart shared into OUT and with nvcc's
# default static runtime into SOUT; only what is missing or older than its
# HERE/NAME.cu or HERE/prog.h, two at a time. A failed build's log is
# printed. Arguments: the suite's name, HERE, OUT, SOUT.
suite_build_both() (
  name=$1 here=$2 out=$3 sout=$4
  progs=$(awk '!/^#/ && NF {print $1}' "$here/programs.tsv")
  # DIR|RUNTIME FLAGS|NAME
  for p in $progs; do
    for v in "$out|-cudart shared" "$sout|"; do
      d=${v%%|*}
      if [ ! -x "$d/$p" ] || [ "$here/$p.cu" -nt "$d/$p" ] || [ "$here/prog.h" -nt "$d/$p" ]; then echo "$v|$p"; fi
    done
  done | while IFS='|' read -r d rtf p; do
    echo "'$NVCC' -arch=sm_90 $rtf -lineinfo -o '$d/$p' '$here/$p.cu' > '$d/$p.log' 2>&1 || { echo '$name: $d/$p did not build:'; cat '$d/$p.log'; }"
  done | xargs -r -P 2 -I CMD sh -c CMD
)

# suite_build_cu NAME SRC BIN: BIN built from SRC (nvcc -arch=sm_90 -O3
# -lineinfo -cudart shared) when it is missing or older than SRC; a failed
# build prints its log and ends the suite (exit 1).
suite_build_cu() {
  [ -x "$3" ] && [ ! "$2" -nt "$3" ] && return 0
  nice "$NVCC" -arch=sm_90 -O3 -lineinfo -cudart shared -o "$3" "$2" > "$3.build.txt" 2>&1 ||
    { echo "$1: $2 did not build:"; cat "$3.build.txt"; exit 1; }
}

# suite_need_all NAME BUILD: BUILD/smemu, nvcc 13 and python3.
suite_need_all() {
  suite_need_smemu "$1" "$2"
  suite_need_nvcc "$1"
  suite_need_python3 "$1"
}
