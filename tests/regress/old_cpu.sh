#!/bin/sh
# old_cpu.sh BUILD: the release build runs on an x86-64 older than the one
# that built it. qemu-user emulates a Nehalem (SSE4.2, no AVX): smemu must
# pick its baseline copies there (mk/dispatch.sh) and print what it prints
# natively, figures and results alike, with every check on. (A build for
# AVX2 only stops there with an illegal instruction.) Exit 77 off x86-64
# or without qemu-x86_64.
B=${1:-build}
[ "$(uname -m)" = x86_64 ] || { echo "old_cpu.sh: not x86-64: skipped"; exit 77; }
Q=$(command -v qemu-x86_64) || { echo "old_cpu.sh: qemu-x86_64 not found (Debian's qemu-user): skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
set -- exec examples/matmul.ptx --kernel matmulTiled --grid 4,4 --block 16,16 --arg buf:f32:4096:rand=2 \
  --arg buf:f32:4096:rand=3 --arg buf:f32:4096:print --arg s32:64 --check all --report banks --tier interp
"$B/smemu" "$@" > "$T/native" 2>&1 || { echo "FAIL: native run"; cat "$T/native"; exit 1; }
"$Q" -cpu Nehalem-v1 "$B/smemu" "$@" > "$T/old" 2>&1 || { echo "FAIL: smemu on an emulated Nehalem (exit $?)"; tail "$T/old"; exit 1; }
norm() { sed -E 's/in [0-9.]+ s \([^)]*\)/in T s/' "$1"; }
norm "$T/native" > "$T/a"
norm "$T/old" > "$T/b"
cmp -s "$T/a" "$T/b" || { echo "FAIL: the Nehalem run differs:"; diff "$T/a" "$T/b" | head; exit 1; }
grep -q "0 bank conflicts\|no bank conflicts" "$T/b" || { echo "FAIL: no bank report"; exit 1; }
echo "old_cpu: an emulated Nehalem gives the native output ($(wc -l < "$T/b") lines)"
