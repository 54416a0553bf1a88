#!/bin/sh
# The bank report's advice fits the access pattern. Each
# kernel of tests/bank_hint/patterns.ptx reads shared memory with a pattern
# whose conflicts follow from arithmetic (bank = word % 32):
#   stride2    s[2t]          words 2t: lanes t and t+16 share a bank, 2-way;
#                             stride 3 (odd) or one float2 per thread fixes it,
#                             padding to [32][33] does nothing for it
#   col32      tile[t][0]     words 32t: all in bank 0, 32-way; [..][33] or
#                             col ^ row fix it
#   stride16   s[16t]         words 16t: banks 0 and 16, 16-way; [..][17]
#   tile16     tile[tx][ty]   block (16,2): words 16tx+ty, 8-way; [..][17]
#                             leaves 17*15+1 = 256 on bank 0 with word 0
#                             (2-way), [..][18] none
#   irregular  s[32t+t*t%7]   bank t*t%7: residue 1 for t = 1,6,8,...,29:
#                             9-way, no constant stride: no advice
#   stride3    s[3t]          odd stride: no conflicts, no advice
#   dcol32     double [32][32] column: 64 words apart, 16 lanes per
#                             half-warp on banks 0-1: 16-way; [..][33]
B=${1:-build}
S="$B/smemu"
P=tests/bank_hint/patterns.ptx
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # KERNEL BLOCK
  "$S" exec "$P" --kernel "$1" --grid 1 --block "$2" --arg buf:u32:64 --report banks --quiet > "$T/$1.txt" 2>&1 ||
    fail "$1 did not run: $(cat "$T/$1.txt")"
}
has() { grep -qF -- "$2" "$T/$1.txt" || fail "$1: no '$2' in: $(cat "$T/$1.txt")"; }
hasnt() { grep -qF -- "$2" "$T/$1.txt" && fail "$1: '$2' in: $(cat "$T/$1.txt")"; return 0; }

run stride2 32
has stride2 "worst 2-way"
has stride2 "hint: the lanes step by 2 elements of 4 bytes"
has stride2 "[..][3] instead of [..][2]"
has stride2 "one 8-byte access (float2, int2): no conflicts"
hasnt stride2 "[32][33]"
hasnt stride2 "swizzle"

run col32 32
has col32 "worst 32-way"
has col32 "[..][33] instead of [..][32]"
has col32 "col ^ (row % 32), in 4-byte units: no conflicts"
hasnt col32 "float"

run stride16 32
has stride16 "worst 16-way"
has stride16 "[..][17] instead of [..][16] (for 1-D indexing, a stride of 17): no conflicts"
hasnt stride16 "swizzle"
hasnt stride16 "float"

run tile16 16,2
has tile16 "worst 8-way"
has tile16 "and by 1 every 16 lanes"
has tile16 "[..][18] instead of [..][16]"

run irregular 32
has irregular "worst 9-way"
has irregular "lanes 1, 6, 8, 13, 15, 20, 22, 27, 29 hit bank 1"
hasnt irregular "hint:"
hasnt irregular "fix:"

run stride3 32
has stride3 "no bank conflicts"
hasnt stride3 "hint:"

run dcol32 32
has dcol32 "worst 16-way"
has dcol32 "[..][33] instead of [..][32]"
has dcol32 "col ^ (row % 16), in 8-byte units: no conflicts"
echo "bank hints: ok"

# Accesses ptxas merges: the report names the wide
# instruction it counts. merged4: four 4-byte loads at 128t+0..12 of a
# 16-byte-aligned base become one LDS.128 per warp. The tiled matmul
# (grid 4x4 of 16x16 threads, 64x64 floats, 16-wide tiles): per warp and
# tile 16 loads of Bs and 4 LDS.128 of As (16 / 4); 128 warps x 4 tiles x 4
# = 2048 merged requests of 128 x 4 x 20 = 10240 on that line.
run merged4 32
has merged4 "4 ld.shared.u32 merged into one LDS.128: 1 of the line's 1 requests"
has merged4 "ld (4 ld.shared.u32 merged into one LDS.128)"
has merged4 "[..][36] instead of [..][32]"
"$S" exec examples/matmul.ptx --kernel matmulTiled --grid 4,4 --block 16,16 --arg buf:f32:4096:rand=1 \
  --arg buf:f32:4096:rand=2 --arg buf:f32:4096 --arg s32:64 --report banks --json "$T/m.json" --quiet > "$T/matmul.txt" 2>&1 ||
  fail "matmul: $(cat "$T/matmul.txt")"
has matmul "matmul.cu:24  4 ld.shared.f32 merged into one LDS.128: 2048 of the line's 10240 requests"
grep -q '"merged": 4' "$T/m.json" || fail "json merged: $(cat "$T/m.json")"
echo "merged accesses: ok"
