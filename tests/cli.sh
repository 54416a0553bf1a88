#!/bin/sh
# Command-line checks of build/smemu: version, help, a run whose output is
# known by arithmetic (reversal of 0..63), the JSON figures, and the errors
# for malformed PTX, unknown instructions and bad launches.
B=${1:-build}
S="$B/smemu"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$S" --version | grep -q '^smemu [0-9]' || fail "--version"
"$S" help exec | grep -q 'buf:TYPE:COUNT' || fail "help exec"
"$S" archs | grep -q 'sm_90' || fail "archs"

# reversal: element i becomes 63 - i
SMEMU_CACHE="$T/cache" "$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 \
  --arg buf:s32:64:iota:save="$T/out.bin" --arg s32:64 --json "$T/r.json" --quiet || fail "exec reverse"
exp=$(seq 63 -1 0 | tr '\n' ' ')
got=$(od -An -v -t d4 -w4 "$T/out.bin" | tr -s ' \n' '  ' | sed 's/^ //')
[ "$got" = "$exp" ] || fail "reverse output: $got"
grep -q '"kernel": "_Z13staticReversePii"' "$T/r.json" || fail "json kernel"
grep -q '"name": "staticReverse(int\*, int)"' "$T/r.json" || fail "json name: $(cat "$T/r.json")"
grep -q '"block": \[64, 1, 1\]' "$T/r.json" || fail "json block"
grep -q '"shared_static_bytes": 256' "$T/r.json" || fail "json static shared"
grep -q '"thread_instructions": [1-9]' "$T/r.json" || fail "json thread instructions"
[ -n "$SMEMU_TIER" ] || grep -q '"tier": "interp"' "$T/r.json" || fail "json tier (a short run stays interpreted under auto)"

# the tiers: the same output and counts; the JSON names the tier that ran
if "$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 \
     --arg buf:s32:64:iota:save="$T/out2.bin" --arg s32:64 --json "$T/r2.json" --quiet --tier jit; then
  cmp -s "$T/out.bin" "$T/out2.bin" || fail "--tier jit output"
  grep -q '"tier": "jit"' "$T/r2.json" || grep -q '"tier": "interp"' "$T/r2.json" || fail "json tier jit"
  [ "$(grep -o '"warp_instructions": [0-9]*' "$T/r.json")" = "$(grep -o '"warp_instructions": [0-9]*' "$T/r2.json")" ] ||
    fail "--tier jit warp instructions"
else
  fail "--tier jit"
fi
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 --arg buf:s32:64 --arg s32:64 \
  --tier fast --quiet 2>/dev/null; [ $? -eq 2 ] || fail "--tier fast is bad usage"

# the dynamic version needs its shared bytes
"$S" exec examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 --shared 256 \
  --arg buf:s32:64:iota:print --arg s32:64 --quiet > "$T/d.txt" || fail "exec dynamic"
head -2 "$T/d.txt" | tail -1 | grep -q '^63 62 61 60 59 58 57 56$' || fail "dynamic output"
# without them the kernel reads outside the block's shared memory
"$S" exec examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 \
  --arg buf:s32:64:iota --arg s32:64 --quiet 2> "$T/e.txt" && fail "missing shared bytes accepted"
grep -q 'out-of-bounds' "$T/e.txt" || fail "missing shared bytes message: $(cat "$T/e.txt")"
grep -q 'thread (0,0,0)' "$T/e.txt" || fail "fault names the thread"
grep -q 'reverse.cu:' "$T/e.txt" || fail "fault names the source line"

# malformed PTX: file:line:col
"$S" exec tests/cli/bad_syntax.ptx --kernel k --grid 1 --block 1 --arg u64:0 2> "$T/e.txt" && fail "bad syntax accepted"
grep -q 'bad_syntax.ptx:9:2:' "$T/e.txt" || fail "syntax error position: $(cat "$T/e.txt")"
"$S" exec tests/cli/unknown_insn.ptx --kernel k --grid 1 --block 1 --arg u64:0 2> "$T/e.txt" && fail "unknown instruction accepted"
grep -q "unknown_insn.ptx:9:2: unknown instruction 'frobnicate.u32'" "$T/e.txt" || fail "unknown instruction: $(cat "$T/e.txt")"

# launches CUDA refuses
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 0 --arg buf:s32:64 --arg s32:64 2> "$T/e.txt" && fail "zero block accepted"
grep -q 'invalid configuration' "$T/e.txt" || fail "zero block message"
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 2048 --arg buf:s32:64 --arg s32:64 2> "$T/e.txt" && fail "oversized block accepted"
grep -q 'invalid configuration' "$T/e.txt" || fail "oversized block message"
"$S" exec examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 --shared 60000 --arg buf:s32:64 --arg s32:64 2> "$T/e.txt" && fail "too much shared accepted"
grep -q 'too much shared memory' "$T/e.txt" || fail "too much shared message"
# bank report: the naive transpose's column read is 32-way, the padded one clean
TA="--grid 8,8 --block 32,8 --arg buf:f32:65536 --arg buf:f32:65536:rand=1 --arg s32:256 --arg s32:256"
"$S" exec examples/transpose.ptx --kernel transposeCoalesced $TA --report banks --quiet > "$T/b.txt" || fail "bank report run"
grep -q 'loads  *2048 requests  *65536 wavefronts  *63488 bank conflicts' "$T/b.txt" || fail "naive totals: $(cat "$T/b.txt")"
grep -q 'transpose.cu:33  ld (ld.shared.f32).*worst 32-way' "$T/b.txt" || fail "naive line"
grep -q 'tile\[tx\]\[ty + r\]' "$T/b.txt" || fail "source text"
grep -q 'fix: pad each row of 32 elements by 1: \[..\]\[33\]' "$T/b.txt" || fail "padding hint"
"$S" exec examples/transpose.ptx --kernel transposeNoBankConflicts $TA --report banks --quiet > "$T/p.txt" || fail "padded run"
grep -q 'no bank conflicts' "$T/p.txt" || fail "padded report: $(cat "$T/p.txt")"
"$S" exec examples/transpose.ptx --kernel transposeCoalesced $TA --json "$T/b.json" --quiet || fail "bank json"
grep -q '"shared_ld_bank_conflicts": 63488' "$T/b.json" || fail "json conflicts"
grep -q '"op": "ld", "requests": 2048, "wavefronts": 65536, "bank_conflicts": 63488, "worst_degree": 32' "$T/b.json" || fail "json line: $(cat "$T/b.json")"
# an 8-byte bank mode is a no-op on sm_90 and says so; sm_35 has it
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 --arg buf:s32:64 --arg s32:64 --bank-mode 8 --quiet 2> "$T/n.txt" || fail "bank mode run"
grep -q 'no 8-byte bank mode' "$T/n.txt" || fail "bank mode notice"
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 --arg buf:s32:64 --arg s32:64 --bank-mode 8 --arch sm_35 --quiet 2> "$T/n.txt" || fail "sm_35 run"
grep -q 'no 8-byte bank mode' "$T/n.txt" && fail "sm_35 has the 8-byte mode"

# race checks: the examples are clean, a missing barrier is found
for k in staticReverse; do
  "$S" exec examples/reverse.ptx --kernel $k --grid 1 --block 64 --arg buf:s32:64:iota --arg s32:64 --check all --quiet 2> "$T/r.txt" || fail "check all on $k: $(cat "$T/r.txt")"
done
"$S" exec tests/cli/race.ptx --kernel missingBarrier --grid 1 --block 64 --arg buf:s32:64:iota --check races --quiet 2> "$T/r.txt" && fail "race not found"
grep -q 'Error: Race reported between Write access at .*race.cu:7' "$T/r.txt" || fail "race report: $(cat "$T/r.txt")"
grep -q 'and Read access at .*race.cu:8 \[' "$T/r.txt" || fail "race second line"
# warp A reads, warp B reads and writes: a WAR that racecheck's one access
# per byte misses (tests/hw/races); racecheck-compat reports as racecheck
WR="--kernel war_readers_two_warps --grid 1 --block 64 --arg buf:s32:8192 --arg buf:s32:8192:iota --arg s32:32 --quiet"
"$S" exec tests/hw/races/war_readers_two_warps.ptx $WR --check races 2> "$T/w.txt"
grep -q 'Read access at .*war_readers_two_warps.cu:16' "$T/w.txt" || fail "multi-reader WAR: $(cat "$T/w.txt")"
"$S" exec tests/hw/races/war_readers_two_warps.ptx $WR --check racecheck-compat 2> "$T/w.txt"
grep -q '0 hazards displayed' "$T/w.txt" || fail "racecheck-compat: $(cat "$T/w.txt")"
# PTX from Numba: a reversal whose array is 7 parameters
NB=$(grep '^.visible .entry' tests/unit/ptx/numba_reverse.ptx | sed 's/.*entry \(.*\)(/\1/')
"$S" exec tests/unit/ptx/numba_reverse.ptx --kernel "$NB" --grid 1 --block 64 --arg u64:0 --arg u64:0 --arg u64:64 \
  --arg u64:4 --arg buf:s32:64:iota:save="$T/nb.bin" --arg u64:64 --arg u64:4 --arg s32:64 --check races --quiet || fail "numba"
got=$(od -An -v -t d4 -w4 "$T/nb.bin" | tr -s ' \n' '  ' | sed 's/^ //')
[ "$got" = "$exp" ] || fail "numba output: $got"

# cp.async: out[t] = 2 * in[255 - t] through shared memory, no races
"$S" exec tests/cli/cpasync.ptx --kernel cpasync --grid 1 --block 256 --arg buf:f32:256:iota \
  --arg buf:f32:256:print --check races --quiet > "$T/c.txt" 2> "$T/ce.txt" || fail "cp.async: $(cat "$T/ce.txt")"
head -2 "$T/c.txt" | tail -1 | grep -q '^510 508 506 504 502 500 498 496$' || fail "cp.async output"
grep -q '0 hazards' "$T/ce.txt" || fail "cp.async races"
# Nsight Compute on an H200 (tests/hw/shared_counters): LDGSTS is no shared store;
# the 8 warps' LDS are 8 requests of one wavefront
"$S" exec tests/cli/cpasync.ptx --kernel cpasync --grid 1 --block 256 --arg buf:f32:256:iota \
  --arg buf:f32:256 --report banks --quiet > "$T/c.txt" || fail "cp.async banks"
grep -q 'loads  *8 requests  *8 wavefronts  *0 bank conflicts' "$T/c.txt" || fail "cp.async loads: $(cat "$T/c.txt")"
grep -q 'stores  *0 requests' "$T/c.txt" || fail "cp.async stores"
# elect.sync over lanes 4..31: the leader is lane 4, which alone gets the predicate
"$S" exec tests/cli/cpasync.ptx --kernel electLeader --grid 1 --block 32 --arg buf:s32:32:print --quiet > "$T/e.txt" || fail "elect"
head -2 "$T/e.txt" | tail -1 | grep -q '^0 0 0 0 401 400 400 400$' || fail "elect output"

# a generic ld that lands in shared memory is a shared request (32-way here);
# the same ld into global memory is not
"$S" exec tests/cli/generic.ptx --kernel genericStride --grid 1 --block 32 --arg buf:f32:1024 --arg s32:1 \
  --report banks --quiet > "$T/g.txt" || fail "generic run"
grep -q 'loads  *1 requests  *32 wavefronts  *31 bank conflicts' "$T/g.txt" || fail "generic shared: $(cat "$T/g.txt")"
grep -q 'generic.cu:11  ld (ld.f32)' "$T/g.txt" || fail "generic line"
"$S" exec tests/cli/generic.ptx --kernel genericStride --grid 1 --block 32 --arg buf:f32:1024 --arg s32:0 \
  --report banks --quiet > "$T/g.txt" || fail "generic global run"
grep -q 'loads  *0 requests' "$T/g.txt" || fail "generic global counted: $(cat "$T/g.txt")"

# global memory: the neighbour update races, the element-wise one does not
"$S" exec tests/cli/global.ptx --kernel gshift --grid 4 --block 64 --arg buf:s32:256:iota --arg s32:256 \
  --check global-races --quiet 2> "$T/gr.txt" && fail "global race not found"
grep -q 'Race reported between Write access at tests/cli/global.cu:6' "$T/gr.txt" || fail "global race: $(cat "$T/gr.txt")"
grep -q 'in global memory' "$T/gr.txt" || fail "global race space"
"$S" exec tests/cli/global.ptx --kernel gok --grid 4 --block 64 --arg buf:s32:256:iota --arg s32:256 \
  --check global-races --quiet 2> "$T/gr.txt" || fail "global false positive: $(cat "$T/gr.txt")"

# a .cu file is compiled with nvcc where the toolkit is present
if command -v nvcc > /dev/null 2>&1; then
  "$S" exec examples/reverse.cu --kernel staticReverse --grid 1 --block 64 --arg buf:s32:64:iota:save="$T/cu.bin" \
    --arg s32:64 --quiet || fail "exec .cu"
  cmp -s "$T/cu.bin" "$T/out.bin" || fail "exec .cu output"
else
  echo "[  SKIPPED ] cli_exec_cu (nvcc not found, exec of a .cu file not checked)"
fi

# a race-free kernel gives the same bytes in every warp order
for sch in fixed random:1 random:7; do
  "$S" exec examples/matmul.ptx --kernel matmulTiled --grid 4,4 --block 16,16 --arg buf:f32:4096:rand=1 \
    --arg buf:f32:4096:rand=2 --arg buf:f32:4096:save="$T/mm_$sch.bin" --arg s32:64 --schedule $sch --quiet || fail "schedule $sch"
done
cmp -s "$T/mm_fixed.bin" "$T/mm_random:1.bin" && cmp -s "$T/mm_fixed.bin" "$T/mm_random:7.bin" || fail "schedules disagree"

# an endless loop ends with a limit error, not a hang
"$S" exec tests/cli/spin.ptx --kernel spin --grid 1 --block 32 --arg buf:s32:4 --max-insns 100000 --quiet 2> "$T/s.txt" && fail "endless loop"
grep -q 'SMEMU_ERR_LIMIT' "$T/s.txt" && grep -q 'endless loop' "$T/s.txt" || fail "limit message: $(cat "$T/s.txt")"

# a barrier that can never complete: a deadlock naming every waiting line
"$S" exec tests/cli/deadlock.ptx --kernel twoBarriers --grid 1 --block 64 --arg buf:s32:64 --quiet 2> "$T/d.txt" && fail "deadlock not reported"
grep -q 'SMEMU_ERR_DEADLOCK' "$T/d.txt" || fail "deadlock status: $(cat "$T/d.txt")"
grep -q '32 thread(s) at barrier 1 (32 of 64 arrived) at tests/cli/deadlock.cu:8' "$T/d.txt" || fail "deadlock line 8"
grep -q '32 thread(s) at barrier 2 (32 of 64 arrived) at tests/cli/deadlock.cu:9' "$T/d.txt" || fail "deadlock line 9"
echo "cli: all checks passed"
