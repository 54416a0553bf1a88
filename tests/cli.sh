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
"$S" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 \
  --arg buf:s32:64:iota:save="$T/out.bin" --arg s32:64 --json "$T/r.json" --quiet || fail "exec reverse"
exp=$(seq 63 -1 0 | tr '\n' ' ')
got=$(od -An -v -t d4 -w4 "$T/out.bin" | tr -s ' \n' '  ' | sed 's/^ //')
[ "$got" = "$exp" ] || fail "reverse output: $got"
grep -q '"kernel": "_Z13staticReversePii"' "$T/r.json" || fail "json kernel"
grep -q '"name": "staticReverse(int\*, int)"' "$T/r.json" || fail "json name: $(cat "$T/r.json")"
grep -q '"block": \[64, 1, 1\]' "$T/r.json" || fail "json block"
grep -q '"shared_static_bytes": 256' "$T/r.json" || fail "json static shared"
grep -q '"thread_instructions": [1-9]' "$T/r.json" || fail "json thread instructions"

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
echo "cli: all checks passed"
