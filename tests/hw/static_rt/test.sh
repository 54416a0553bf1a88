#!/bin/sh
# test.sh BUILD: programs linked with NVIDIA's static CUDA runtime (nvcc's
# default) under `smemu run`. The programs of progs/ were recorded on an
# H200 (recorded/NAME.gpu: their output there; record.sh, which also
# records what the static runtime asks of the driver); built the same way
# here, each must print what it printed on the GPU (props: all but the
# device's name). selfcheck.cu checks more runtime functions itself; a
# program that dlopens libcuda.so.1 itself must find smemu's
# (dlopen_driver.c). Exits 77 (skip) without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "static_rt: nvcc not found: test skipped"; exit 77; }
"$NVCC" --version 2>/dev/null | grep -q "release 1[3-9]\." ||
  { echo "static_rt: $NVCC is not CUDA 13 or newer: test skipped"; exit 77; }
[ -x "$B/smemu" ] || { echo "static_rt: $B/smemu not built"; exit 1; }
mkdir -p "$B/static_rt" || exit 2
out=$(cd "$B/static_rt" && pwd)
smemu=$(cd "$B" && pwd)/smemu
# build what is missing or older than its sources, two at a time
for p in hello memcpy streams dynsmem props launchex fault two; do
  src="$here/progs/$p.cu"
  [ $p = two ] && src="$here/progs/two_a.cu $here/progs/two_b.cu"
  new=0
  for s in $src; do [ "$s" -nt "$out/$p" ] && new=1; done
  if [ ! -x "$out/$p" ] || [ $new = 1 ]; then
    echo "'$NVCC' -arch=sm_90 -lineinfo -o '$out/$p' $src > '$out/$p.log' 2>&1 || cat '$out/$p.log'"
  fi
done | xargs -r -P 2 -I CMD sh -c CMD
fail=0
for p in hello memcpy streams dynsmem props launchex fault two; do
  [ -x "$out/$p" ] || { echo "FAIL $p: not built"; fail=1; continue; }
  (cd "$out" && "$smemu" run -- "./$p" > "$p.out" 2> "$p.err"; echo "exit=$?" >> "$p.out")
  want="$here/recorded/$p.gpu"
  if [ $p = props ]; then
    # the device's name is smemu's, not the H200's
    sed '/^name=/d' "$want" > "$out/$p.want"
    sed -i '/^name=/d' "$out/$p.out"
    want="$out/$p.want"
  fi
  if cmp -s "$out/$p.out" "$want"; then
    echo "ok   $p"
  else
    echo "FAIL $p: differs from the H200's output"
    diff "$want" "$out/$p.out" | head -10
    head -5 "$out/$p.err"
    fail=1
  fi
done
# more runtime functions, checked by the program itself (selfcheck.cu)
if [ ! -x "$out/selfcheck" ] || [ "$here/selfcheck.cu" -nt "$out/selfcheck" ]; then
  "$NVCC" -arch=sm_90 -lineinfo -o "$out/selfcheck" "$here/selfcheck.cu" > "$out/selfcheck.log" 2>&1 || cat "$out/selfcheck.log"
fi
if (cd "$out" && "$smemu" run -- ./selfcheck > selfcheck.out 2>&1) && grep -q "^selfcheck: [0-9]* checks passed" "$out/selfcheck.out"; then
  echo "ok   selfcheck"
else
  echo "FAIL selfcheck:"
  head -20 "$out/selfcheck.out"
  fail=1
fi
# the driver found through dlopen
cc -o "$out/dlopen_driver" "$here/dlopen_driver.c" -ldl || exit 2
"$smemu" run -- "$out/dlopen_driver" > "$out/dlopen.out" 2>&1
rc=$?
cat > "$out/dlopen.want" <<'WANT'
empty symbol: 0 none
cuInit: 0
cuDeviceGetCount: 0, 1 device(s)
cuDeviceGetName: 0
smemu's driver: yes
cuCtxCreate: 0, context made
cuDriverGetVersion: 0, 13000
WANT
if [ $rc = 0 ] && cmp -s "$out/dlopen.out" "$out/dlopen.want"; then
  echo "ok   dlopen_driver"
else
  echo "FAIL dlopen_driver (exit $rc):"
  diff "$out/dlopen.want" "$out/dlopen.out"
  fail=1
fi
# the fault program's report: the kernel, its source line, as a shared build's
grep -q "fault.cu:3:" "$out/fault.err" || { echo "FAIL fault: no source line in smemu's report"; head -5 "$out/fault.err"; fail=1; }
exit $fail
