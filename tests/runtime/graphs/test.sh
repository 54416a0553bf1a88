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
B=$(cd "${1:-build}" && pwd) || exit 2
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for n in capture explicit illegal driver cond; do
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
exit $fail
