#!/bin/sh
# test.sh BUILD: CUDA graphs and stream capture in the drop-in runtime. Builds
# the programs here with nvcc (-cudart shared) and runs each under
# `smemu run`; each program checks its own results (CPU arithmetic, the
# documented error codes) and prints "ok:"/"FAIL:" lines, exiting non-zero
# on a failure:
#   capture.cu   stream capture: kernels, copies, fills, forks/joins, the
#                capture queries, capture into a graph, stream-ordered
#                allocation, host functions, graph launches in a capture
#   explicit.cu  every node type of the explicit API, edges, parameters,
#                update, clone, enable/disable, DOT output
#   illegal.cu   calls refused during capture and misuse of the capture calls
#   driver.cu    the driver API's cuStreamBeginCapture ... cuGraphLaunch
#   cond.cu      conditional nodes (if, while, switch) set by kernels through
#                cudaGraphSetConditional
#   stress.cu    a fixed pseudo-random sequence of graph and capture calls on
#                live, destroyed and made-up handles: no crash, no hang
#   freed.cu     copy and fill nodes whose memory was freed: a fault, not a
#                write to freed memory
# and the graph structures' layout (abi_check.c, from runtime/cudart/graph.h,
# against abi_check.cu, from NVIDIA's headers).
B=$(cd "${1:-build}" && pwd) || exit 2
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ROOT=$(cd "$HERE/../../.." && pwd)
if ${CC:-cc} -std=c11 -D_GNU_SOURCE -I"$ROOT/include" -I"$ROOT/runtime" -I"$ROOT/runtime/cudart" -o "$T/abi_smemu" "$HERE/abi_check.c" &&
   nvcc -o "$T/abi_nvidia" "$HERE/abi_check.cu" > "$T/build.log" 2>&1 &&
   "$T/abi_smemu" > "$T/abi_smemu.txt" && "$T/abi_nvidia" > "$T/abi_nvidia.txt"; then
  if diff "$T/abi_nvidia.txt" "$T/abi_smemu.txt"; then echo "ok: graph structures laid out as NVIDIA's ($(wc -l < "$T/abi_nvidia.txt") sizes and offsets)"
  else echo "FAIL: graph structures differ from NVIDIA's"; fail=1; fi
else
  cat "$T/build.log"; echo "FAIL: the layout check did not build"; fail=1
fi
for n in capture explicit illegal driver cond stress freed; do
  extra=
  [ $n = driver ] && extra=-lcuda
  if ! nvcc -arch=sm_90 -lineinfo -cudart shared -o "$T/$n" "$HERE/$n.cu" $extra > "$T/build.log" 2>&1; then
    cat "$T/build.log"
    echo "FAIL: $n did not build"
    fail=1
    continue
  fi
  (cd "$T" && "$B/smemu" run --quiet -- "./$n") > "$T/$n.out" 2>&1
  rc=$?
  grep '^FAIL' "$T/$n.out"
  if [ $rc = 0 ] && ! grep -q '^FAIL' "$T/$n.out" && grep -q '^0 failure(s)' "$T/$n.out"; then
    echo "ok: $n ($(grep -c '^ok' "$T/$n.out") checks)"
  else
    echo "FAIL: $n (exit $rc)"
    tail -5 "$T/$n.out"
    fail=1
  fi
done
# the programs' expectations are an H200's answers: each recording (record.sh)
# must show 0 failures for the program as it is now
for n in capture explicit illegal driver cond; do
  r="$HERE/recorded/$n.txt"
  if [ ! -f "$r" ]; then echo "FAIL: $n has no GPU recording ($r)"; fail=1; continue; fi
  if ! grep -q '^0 failure(s)' "$r"; then echo "FAIL: $n failed on the GPU (recorded/$n.txt)"; fail=1; continue; fi
  if ! grep -q "^source-sha256: $(sha256sum < "$HERE/$n.cu" | cut -d' ' -f1)" "$r"; then
    echo "FAIL: $n.cu changed since it was recorded on the GPU: run record.sh there"; fail=1; continue
  fi
  echo "ok: $n passes on the GPU as recorded ($(grep -c '^ok' "$r") checks, $(sed -n 's/^GPU 0: //p' "$HERE/recorded/gpu.txt" | cut -d'(' -f1))"
done
# more sequences of the stress program (each a different seed)
if [ -x "$T/stress" ]; then
  bad=
  for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
    (cd "$T" && "$B/smemu" run --quiet -- ./stress $seed) > "$T/stress.$seed.out" 2>&1 || bad="$bad $seed"
  done
  if [ -z "$bad" ]; then echo "ok: stress, 30 more seeds"; else echo "FAIL: stress seeds:$bad"; fail=1; fi
fi
exit $fail
