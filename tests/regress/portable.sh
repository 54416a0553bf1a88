#!/bin/sh
# portable.sh BUILD: the release build runs on any x86-64. Its executor,
# checks and models exist twice, for the baseline and for x86-64-v3, and
# ifuncs pick one at load time (Makefile, mk/dispatch.sh); BUILD/smemu-base
# is the same build with every ifunc held to the baseline copy.
#  1. No code reachable in BUILD/smemu-base uses a register wider than SSE
#     (ymm/zmm), and nothing in BUILD/smemu uses AVX-512 (zmm, k masks):
#     a CPU without AVX2 (or valgrind on an AVX-512 machine) can run them.
#  2. Both copies give the same output, figures and reports, on kernels
#     with every check on (the timings aside).
# Exit 77 where the build has one copy (not x86-64, NATIVE=1, MODE=debug).
B=${1:-build}
[ -x "$B/smemu-base" ] || { echo "portable.sh: no $B/smemu-base (not a dual build)"; exit 77; }
command -v objdump >/dev/null 2>&1 || { echo "portable.sh: objdump not found"; exit 77; }
fail=0
n=$(objdump -d --no-show-raw-insn "$B/smemu-base" | grep -cE '%[yz]mm[0-9]')
[ "$n" -eq 0 ] || { echo "FAIL: $B/smemu-base has $n instructions on ymm/zmm registers"; fail=1; }
n=$(objdump -d --no-show-raw-insn "$B/smemu" | grep -cE '%zmm[0-9]|%k[1-7]')
[ "$n" -eq 0 ] || { echo "FAIL: $B/smemu has $n AVX-512 instructions"; fail=1; }
n=$(objdump -d --no-show-raw-insn "$B/smemu" | grep -cE '%ymm[0-9]')
[ "$n" -gt 0 ] || { echo "FAIL: $B/smemu has no AVX2 copy (no ymm register used)"; fail=1; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() { # NAME ARGS...: the same command on both builds, outputs compared
  name=$1
  shift
  for s in smemu smemu-base; do
    SMEMU_TIER=interp "$B/$s" "$@" > "$T/$s.out" 2>&1
    echo "exit $?" >> "$T/$s.out"
    sed -E 's/in [0-9.]+ s \([^)]*\)/in T s/; s/[0-9.]+ ?(s|ms|us)\b/T/g' "$T/$s.out" > "$T/$s.norm"
  done
  if cmp -s "$T/smemu.norm" "$T/smemu-base.norm"; then
    echo "ok $name"
  else
    echo "FAIL: $name differs between the AVX2 and the baseline copies:"
    diff "$T/smemu.norm" "$T/smemu-base.norm" | head -20
    fail=1
  fi
}
run transpose-banks exec examples/transpose.ptx --kernel transposeCoalesced --grid 8,8 --block 32,8 \
  --arg buf:f32:65536 --arg buf:f32:65536:rand=1 --arg s32:256 --arg s32:256 --report banks
run matmul-all exec examples/matmul.ptx --kernel matmulTiled --grid 4,4 --block 16,16 \
  --arg buf:f32:4096:rand=2 --arg buf:f32:4096:rand=3 --arg buf:f32:4096:print --arg s32:64 --check all --report banks
run dot-races exec examples/dot.ptx --kernel dotPartial --grid 8 --block 256 \
  --arg buf:f32:65536:rand=4 --arg buf:f32:65536:rand=5 --arg buf:f32:8:print --arg s32:65536 --check all
run reverse-fault exec examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 --arg buf:s32:64 --arg s32:64
run odd-shared exec tests/regress/odd_shared.ptx --kernel oddShared --grid 1 --block 64 --arg buf:s32:64:print --check all
[ $fail -eq 0 ] && echo "portable: both copies agree"
exit $fail
