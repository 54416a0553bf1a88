#!/bin/sh
# Programs written with warpSize (nvcc 13 emits the PTX constant WARP_SZ for
# it) give the right results under smemu:
#  - `smemu exec` runs each kernel of tests/warpsize/*.ptx (checked-in nvcc
#    output) on iota input, compared with sums stated in closed form;
#  - where nvcc is on the PATH, each whole program (.cu) is built with
#    -cudart shared and run under `smemu run`; it checks itself against a
#    CPU loop and prints PASS.
B=${1:-build}
S="$B/smemu"
D=tests/warpsize
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# the values of a printed buffer, one per line
values() { awk '/^arg /{p = ($2 == "'"$2"'")} p && !/^arg / {for (i = 1; i <= NF; i++) print $i}' "$1"; }

# warpSums: warp w of 4096 iota values sums 32w .. 32w+31 = 1024w + 496
"$S" exec $D/warp_reduce.ptx --kernel warpSums --grid 16 --block 256 --arg buf:s32:4096:iota \
  --arg buf:s32:128:print --arg s32:4096 --quiet > "$T/wr.txt" 2>&1 || fail "warpSums: $(cat "$T/wr.txt")"
values "$T/wr.txt" 1 | awk '{ if ($1 != 1024 * (NR - 1) + 496) { print "warp " NR - 1 ": " $1; bad = 1 } }
  END { if (NR != 128) { print NR " values"; bad = 1 } exit bad }' || fail "warpSums values"

# blockSums, blockDim 256 and 8 warps: dynamic shared 8 * 4 bytes (the
# program sizes it blockDim.x / warpSize); block b of 1000 iota values sums
# 256b .. min(256b+255, 999)
"$S" exec $D/block_reduce.ptx --kernel blockSums --grid 4 --block 256 --shared 32 --arg buf:s32:1000:iota \
  --arg buf:s32:4:print --arg s32:1000 --quiet > "$T/br.txt" 2>&1 || fail "blockSums: $(cat "$T/br.txt")"
values "$T/br.txt" 1 | awk '{ b = NR - 1; lo = 256 * b; hi = lo + 255; if (hi > 999) hi = 999;
  want = (lo + hi) * (hi - lo + 1) / 2; if ($1 != want) { print "block " b ": " $1 " want " want; bad = 1 } }
  END { if (NR != 4) bad = 1; exit bad }' || fail "blockSums values"

# blockScan, 2 blocks of 512: out[i] = sum of 512b .. i = (i - 512b + 1)(512b + i) / 2
"$S" exec $D/warp_scan.ptx --kernel blockScan --grid 2 --block 512 --arg buf:s32:1024:iota \
  --arg buf:s32:1024:print --quiet > "$T/sc.txt" 2>&1 || fail "blockScan: $(cat "$T/sc.txt")"
values "$T/sc.txt" 1 | awk '{ i = NR - 1; b0 = 512 * int(i / 512); want = (i - b0 + 1) * (b0 + i) / 2;
  if ($1 != want) { print "element " i ": " $1 " want " want; bad = 1 } }
  END { if (NR != 1024) bad = 1; exit bad }' || fail "blockScan values"
echo "warpSize kernels under smemu exec: ok"

if ! command -v nvcc > /dev/null 2>&1; then
  echo "nvcc not found: the whole programs under smemu run are not checked"
  exit 0
fi
for p in warp_reduce block_reduce warp_scan; do
  nvcc -arch=sm_90 -cudart shared -lineinfo -o "$T/$p" "$D/$p.cu" > "$T/$p.build" 2>&1 || fail "nvcc $p: $(cat "$T/$p.build")"
  "$S" run -- "$T/$p" > "$T/$p.out" 2>&1 || fail "$p under smemu run: $(cat "$T/$p.out")"
  grep -q '^PASS' "$T/$p.out" || fail "$p: $(cat "$T/$p.out")"
done
echo "warpSize programs under smemu run: ok"
