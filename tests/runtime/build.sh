#!/bin/sh
# build.sh OUTDIR [NVCC]: builds every program of tests/runtime/programs.txt
# into OUTDIR with nvcc (in parallel), for the runtime tests (make test) and
# for tests/runtime/record.sh on a GPU machine. Without nvcc it builds
# nothing and says so; the tests then skip the programs. Every program of
# mode rt is also built with nvcc's default static runtime, into
# OUTDIR/static/NAME (the tests run both builds). Run from anywhere.
out=${1:?usage: build.sh OUTDIR [NVCC]}
nvcc=${2:-nvcc}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
mkdir -p "$out/static" || exit 2
out=$(cd "$out" && pwd)
if ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "build.sh: nvcc not found: CUDA programs not built (their tests are skipped)" >&2
  echo "no nvcc" > "$out/.built"
  exit 0
fi
# the drop-in is the CUDA 13 runtime: older nvcc builds link libcudart.so.12
if ! "$nvcc" --version 2>/dev/null | grep -q "release 1[3-9]\."; then
  echo "build.sh: $nvcc is not CUDA 13 or newer: CUDA programs not built (their tests are skipped)" >&2
  echo "no nvcc 13" > "$out/.built"
  exit 0
fi
cd "$root" || exit 2
jobs=$(nproc 2>/dev/null || echo 2)
common="-Xcompiler -Wno-deprecated-declarations"
grep -v '^#' tests/runtime/programs.txt | grep -v '^ *$' | while read -r name mode srcs; do
  case $mode in
    rt|check) flags="-arch=sm_90 -cudart shared -lineinfo" ;;
    ptds)   flags="-arch=sm_90 -cudart shared -lineinfo --default-stream per-thread" ;;
    nvrtc)  flags="-lnvrtc -lcuda" ;;
    static) flags="-arch=sm_90" ;;
    sass)   flags="-arch=compute_90 -code=sm_90 -cudart shared" ;;
    host)   flags="" ;;
    *)      echo "build.sh: $name: unknown mode $mode" >&2; continue ;;
  esac
  # the nvrtc program's libraries go after its sources
  case $mode in
    nvrtc) echo "$name|$nvcc $common -o $out/$name $srcs $flags" ;;
    *)     echo "$name|$nvcc $common $flags -o $out/$name $srcs" ;;
  esac
  # every normal build also with nvcc's default static runtime: static/NAME
  [ "$mode" = rt ] && echo "static/$name|$nvcc $common -arch=sm_90 -lineinfo -o $out/static/$name $srcs"
done > "$out/commands.txt"
fail=0
# each line: NAME|COMMAND; the log of a failure is printed
cut -d'|' -f2- "$out/commands.txt" | xargs -P "$jobs" -I CMD sh -c 'CMD' > "$out/build.log" 2>&1 || fail=1
if [ $fail != 0 ]; then
  echo "build.sh: some programs did not build (log: $out/build.log)" >&2
  grep -i "error" "$out/build.log" | head -20 >&2
  exit 1
fi
"$nvcc" --version | tail -1 > "$out/.built"
echo "build.sh: built $(wc -l < "$out/commands.txt") programs into $out"
