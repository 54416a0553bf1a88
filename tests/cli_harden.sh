#!/bin/sh
# Hostile input and hardening checks of build/smemu: no shell
# ever sees a path, the compile cache is private and keyed by every input,
# numbers are parsed strictly, hangs end quickly, findings survive a
# crashing program and the exit statuses are the documented ones.
# tests/cli_harden/fake-nvcc stands in for nvcc, so nothing here needs CUDA.
B=${1:-build}
S="$PWD/$B/smemu"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FAKE="$PWD/tests/cli_harden/fake-nvcc"
fail() { echo "FAIL: $*"; exit 1; }
# st CMD...: the exit status of CMD (output in $T/o.txt, $T/e.txt)
st() { "$@" > "$T/o.txt" 2> "$T/e.txt"; echo $?; }

# ---- 1. no shell: a quote in nvcc's path (from --nvcc or from PATH) runs nothing
mkdir -p "$T/src" "$T/q'; touch $T/pwned; echo '"
cp "$FAKE" "$T/q'; touch $T/pwned; echo '/nvcc"
printf '#include "h.h"\n__global__ void k() {}\n' > "$T/src/prog.cu"
echo one > "$T/src/h.h"
SMEMU_CACHE="$T/cache1" "$S" run --nvcc "$T/q'; touch $T/pwned; echo '/nvcc" "$T/src/prog.cu" > "$T/o.txt" 2> "$T/e.txt" \
  || fail "run with a quoted nvcc path: $(cat "$T/e.txt")"
[ -e "$T/pwned" ] && fail "the nvcc path went through a shell"
grep -q '^one$' "$T/o.txt" || fail "quoted nvcc path output: $(cat "$T/o.txt")"
rm -rf "$T/cache1"
PATH="$T/q'; touch $T/pwned; echo ':$PATH" SMEMU_CACHE="$T/cache1" "$S" run "$T/src/prog.cu" > "$T/o.txt" 2> "$T/e.txt" \
  || fail "run with nvcc found on a quoted PATH entry: $(cat "$T/e.txt")"
[ -e "$T/pwned" ] && fail "a PATH entry went through a shell"
grep -q '^one$' "$T/o.txt" || fail "PATH nvcc output"

# ---- 2. the compile cache
export FAKE_NVCC_LOG="$T/compiles"
C="$T/cache2"
run_cu() { SMEMU_CACHE="$C" "$S" run --nvcc "$FAKE" "$T/src/prog.cu" > "$T/o.txt" 2> "$T/e.txt"; }
run_cu || fail "first run: $(cat "$T/e.txt")"
run_cu || fail "second run"
[ "$(wc -l < "$T/compiles")" = 1 ] || fail "unchanged inputs compiled again"
[ "$(stat -c %a "$C")" = 700 ] || fail "cache mode $(stat -c %a "$C")"
# editing an included header builds anew, and runs the new program
echo two > "$T/src/h.h"
run_cu || fail "run after a header edit"
grep -q '^two$' "$T/o.txt" || fail "stale program after a header edit: $(cat "$T/o.txt")"
[ "$(wc -l < "$T/compiles")" = 2 ] || fail "header edit not rebuilt"
# back to the first header: that build is still there
echo one > "$T/src/h.h"
run_cu && grep -q '^one$' "$T/o.txt" || fail "first build again"
[ "$(wc -l < "$T/compiles")" = 2 ] || fail "first build not reused"
# a failed compilation leaves no partial files behind
echo FAIL >> "$T/src/prog.cu"
run_cu && fail "failed compile ran"
find "$C" -name '.build.*' -o -name '.deps.*' -o -name 'deps.*' | grep -q . && fail "temporary files left: $(find "$C")"
sed -i '/FAIL/d' "$T/src/prog.cu"
# a cache others may write, a symbolic link, or another user's directory is refused
mkdir -p "$T/open" && chmod 777 "$T/open"
[ "$(SMEMU_CACHE="$T/open" st "$S" run --nvcc "$FAKE" "$T/src/prog.cu")" = 2 ] || fail "world-writable cache used"
grep -q 'refusing the compile cache.*others may write' "$T/e.txt" || fail "world-writable message: $(cat "$T/e.txt")"
ln -s "$C" "$T/link"
[ "$(SMEMU_CACHE="$T/link" st "$S" run --nvcc "$FAKE" "$T/src/prog.cu")" = 2 ] || fail "symlinked cache used"
grep -q 'symbolic link' "$T/e.txt" || fail "symlink message: $(cat "$T/e.txt")"
# a planted program in a cache entry of someone else's is never run
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$T/theirs" && chown nobody "$T/theirs" && chmod 755 "$T/theirs"
  [ "$(SMEMU_CACHE="$T/theirs" st "$S" run --nvcc "$FAKE" "$T/src/prog.cu")" = 2 ] || fail "another user's cache used"
  grep -q 'belongs to another user' "$T/e.txt" || fail "owner message: $(cat "$T/e.txt")"
  # and run as that user, smemu refuses root's cache
  if command -v setpriv > /dev/null 2>&1; then
    chmod 755 "$T" "$T/src"; chmod 644 "$T/src/"*
    [ "$(SMEMU_CACHE="$C" st setpriv --reuid=nobody --regid=nogroup --clear-groups "$S" run --nvcc "$FAKE" "$T/src/prog.cu")" = 2 ] \
      || fail "nobody used root's cache: $(cat "$T/e.txt")"
    grep -q 'belongs to another user\|cannot use the cache' "$T/e.txt" || fail "unprivileged message: $(cat "$T/e.txt")"
  fi
else
  mkdir -p "$T/mine" && chmod 755 "$T/mine"
  # a directory of ours others may read becomes private
  SMEMU_CACHE="$T/mine" "$S" run --nvcc "$FAKE" "$T/src/prog.cu" > /dev/null 2>&1 || fail "own 0755 cache"
  [ "$(stat -c %a "$T/mine")" = 700 ] || fail "own cache not made private"
fi

# ---- 4. strict numbers: each bad value is exit status 2 with a message naming it
R="examples/reverse.ptx --kernel staticReverse --grid 1 --block 64"
bad() { # bad WHAT ARGS...: smemu exec with ARGS must exit 2 and say WHAT
  what=$1; shift
  rc=$(st "$S" exec "$@")
  [ "$rc" = 2 ] || fail "exit $rc, not 2, for: $* ($(cat "$T/e.txt"))"
  grep -q -- "$what" "$T/e.txt" || fail "no '$what' in the message for: $* ($(cat "$T/e.txt"))"
}
bad "'abc' is not" $R --shared abc --arg buf:s32:64 --arg s32:64
bad "'4294967296' is not" $R --shared 4294967296 --arg buf:s32:64 --arg s32:64
bad "'-1' is not" $R --shared -1 --arg buf:s32:64 --arg s32:64
bad "s32:99999999999" $R --arg buf:s32:64 --arg s32:99999999999
bad "s32:2147483648" $R --arg buf:s32:64 --arg s32:2147483648
bad "u32:-1" $R --arg buf:s32:64 --arg u32:-1
bad "s32:64:junk" $R --arg buf:s32:64 --arg s32:64:junk
bad "bad seed 'zz'" $R --arg buf:s32:64:rand=zz --arg s32:64
bad "bad iota start" $R --arg buf:s32:64:iota=x --arg s32:64
bad "bad fill value '300'" $R --arg buf:u8:64:fill=300 --arg s32:64
bad "more items than the buffer's 2" $R --arg buf:s32:2:values=1,2,3 --arg s32:64
bad "bad value ''" $R --arg buf:s32:4:values=1,,2 --arg s32:64
bad "not a regular file" $R --arg buf:s32:64:file=/tmp --arg s32:64
bad "two initialisers" $R --arg buf:s32:64:iota:zeros --arg s32:64
bad "bad buffer" $R --arg buf:s32:-5 --arg s32:64
bad "'abc' is not a thread count" $R --threads abc --arg buf:s32:64 --arg s32:64
bad "'1e9' is not" $R --max-insns 1e9 --arg buf:s32:64 --arg s32:64
bad "bad --grid" examples/reverse.ptx --kernel staticReverse --grid 1,abc --block 64 --arg buf:s32:64 --arg s32:64
bad "bad --grid or --block" examples/reverse.ptx --kernel staticReverse --grid 1 --block 64,-1 --arg buf:s32:64 --arg s32:64
bad "--bank-mode takes 4 or 8" $R --bank-mode 4x --arg buf:s32:64 --arg s32:64
bad "bad seed 'zz'" $R --schedule random:zz --arg buf:s32:64 --arg s32:64
bad "'0' is not a number of seconds" $R --timeout 0 --arg buf:s32:64 --arg s32:64
bad "takes 1 parameter\|takes 2 parameter" $R --arg buf:s32:64
bad "expected local:BYTES" tests/cli/race.ptx --kernel missingBarrier --grid 1 --block 64 --arg local:12x
# and the valid forms still work: hex, negative signed, float extremes
"$S" exec $R --arg buf:s32:64:values=0x10,-5,2147483647,-2147483648:print --arg s32:0x40 --quiet > "$T/o.txt" \
  || fail "valid numbers refused: $(cat "$T/e.txt")"
head -2 "$T/o.txt" | tail -1 | grep -q '^0 0 0 0 0 0 0 0$' || fail "valid numbers output: $(cat "$T/o.txt")"
tail -1 "$T/o.txt" | grep -q -- '-2147483648 2147483647 -5 16$' || fail "valid numbers reversed: $(cat "$T/o.txt")"
runbad() { # runbad WHAT ARGS...: smemu run with ARGS must exit 2 and say WHAT
  what=$1; shift
  rc=$(st "$S" run "$@" -- /bin/true)
  [ "$rc" = 2 ] || fail "run: exit $rc, not 2, for: $*"
  grep -q -- "$what" "$T/e.txt" || fail "run: no '$what' for: $* ($(cat "$T/e.txt"))"
}
runbad "'abc' is not a thread count" --threads abc
runbad "'-1' is not an instruction count" --max-insns -1
runbad "'-3' is not a number of seconds" --timeout -3
runbad "'0' is not an exit status" --error-exitcode 0
runbad "'256' is not an exit status" --error-exitcode 256

# ---- 5. exec --help; dynamic shared memory above 48 KB needs the opt-in
[ "$(st "$S" exec --help)" = 0 ] && grep -q 'usage: smemu exec' "$T/o.txt" || fail "exec --help"
grep -q -- '--max-dynamic-shared' "$T/o.txt" || fail "help names --max-dynamic-shared"
D="examples/reverse.ptx --kernel dynamicReverse --grid 1 --block 64 --arg buf:s32:64:iota:print --arg s32:64"
[ "$(st "$S" exec $D --shared 65536)" = 1 ] || fail "65536 dynamic bytes without the opt-in ran"
grep -q 'allows 49152 dynamic bytes' "$T/e.txt" && grep -q 'hint: --max-dynamic-shared' "$T/e.txt" || fail "no opt-in hint: $(cat "$T/e.txt")"
[ "$(st "$S" exec $D --shared 232448 --max-dynamic-shared 232448 --quiet)" = 0 ] || fail "opt-in to 227 KB: $(cat "$T/e.txt")"
head -2 "$T/o.txt" | tail -1 | grep -q '^63 62 61 60 59 58 57 56$' || fail "opt-in output"
# above sm_90's opt-in limit (232448 bytes) cudaFuncSetAttribute fails
[ "$(st "$S" exec $D --shared 1024 --max-dynamic-shared 232449)" = 1 ] || fail "opt-in above the limit accepted"
grep -q 'exceed the sm_90 opt-in limit of 232448' "$T/e.txt" || fail "opt-in limit message: $(cat "$T/e.txt")"
[ "$(st "$S" exec $D --shared 232449 --max-dynamic-shared 232448)" = 1 ] || fail "launch above the opt-in ran"

# ---- 6. hangs end in seconds, with the looping source line
H="tests/cli_harden/hang.ptx --grid 1 --block 1024 --arg buf:s32:1024"
t0=$(date +%s)
[ "$(st "$S" exec $H --kernel spinFlag)" = 1 ] || fail "spinFlag did not fail: $(cat "$T/e.txt")"
t1=$(date +%s)
grep -q 'SMEMU_ERR_HANG' "$T/e.txt" && grep -q 'tests/cli_harden/hang.cu:7 (PTX line' "$T/e.txt" || fail "hang report: $(cat "$T/e.txt")"
[ $((t1 - t0)) -le 60 ] || fail "a spinning 1024-thread block took $((t1 - t0)) s to stop"
[ "$(st "$S" exec $H --kernel spinShared)" = 1 ] && grep -q 'hang.cu:17 (PTX line' "$T/e.txt" || fail "shared spin: $(cat "$T/e.txt")"
[ "$(st "$S" exec $H --kernel spinBarrier)" = 1 ] && grep -q 'hang.cu:46 (PTX line.*bar.sync' "$T/e.txt" || fail "barrier spin: $(cat "$T/e.txt")"
# a long loop with barriers that ends is no hang (4.5 M warp instructions)
[ "$(st "$S" exec tests/cli_harden/hang.ptx --grid 1 --block 1024 --arg buf:s32:1024:print --arg s32:20000 --kernel barrierLoop)" = 0 ] \
  || fail "barrierLoop: $(cat "$T/e.txt")"
# thread t sums s[t+1] = i + t + 1 over i < 20000: 19999 * 20000 / 2 + 20000 * (t + 1)
head -2 "$T/o.txt" | tail -1 | grep -q '^200010000 200030000 200050000 ' || fail "barrierLoop output: $(head -3 "$T/o.txt")"
# a loop whose state changes: the watchdog, and the launch-wide budget
t0=$(date +%s)
[ "$(st "$S" exec $H --kernel countForever --timeout 1)" = 1 ] || fail "countForever with --timeout"
t1=$(date +%s)
grep -q 'longer than its time limit of 1 s' "$T/e.txt" || fail "timeout message: $(cat "$T/e.txt")"
[ $((t1 - t0)) -le 20 ] || fail "--timeout 1 took $((t1 - t0)) s"
[ "$(st "$S" exec $H --kernel countForever --max-insns 3000000)" = 1 ] && grep -q 'warp instructions without finishing' "$T/e.txt" \
  || fail "budget: $(cat "$T/e.txt")"
# the budget counts the whole launch: 16 blocks of 8 warps, each far below it
M="examples/matmul.ptx --kernel matmulTiled --grid 4,4 --block 16,16 --arg buf:f32:4096 --arg buf:f32:4096 --arg buf:f32:4096 --arg s32:64"
"$S" exec $M 2> "$T/e.txt" || fail "matmul"
total=$(sed -n 's/.*: \([0-9]*\) warp \/.*/\1/p' "$T/e.txt")
[ -n "$total" ] || fail "matmul figures: $(cat "$T/e.txt")"
[ "$(st "$S" exec $M --max-insns $((total / 2)))" = 1 ] || fail "a launch over its budget ran (per-warp limit?)"
[ "$(st "$S" exec $M --max-insns $((total + 1)))" = 0 ] || fail "a launch within its budget failed: $(cat "$T/e.txt")"
# a block waiting for another finishes when they run at once, and is a hang when they cannot
[ "$(st "$S" exec tests/cli_harden/hang.ptx --kernel handoff --grid 2 --block 64 --arg buf:s32:4 --threads 2)" = 0 ] \
  || fail "handoff with 2 workers: $(cat "$T/e.txt")"
[ "$(st "$S" exec tests/cli_harden/hang.ptx --kernel handoff --grid 2 --block 64 --arg buf:s32:4 --threads 1)" = 1 ] \
  && grep -q '1 block(s) have not started' "$T/e.txt" || fail "handoff with 1 worker: $(cat "$T/e.txt")"

# ---- 7. a status line on a terminal only
if command -v script > /dev/null 2>&1; then
  script -qec "$S exec $H --kernel countForever --timeout 3" /dev/null > "$T/tty.txt" 2>&1
  grep -q 'countForever: 0/1 blocks, [0-9.]* M thread instructions/s, [0-9.]* s' "$T/tty.txt" \
    || fail "no status line on a terminal: $(cat -v "$T/tty.txt")"
  "$S" exec $H --kernel countForever --timeout 3 > "$T/o.txt" 2> "$T/e.txt"
  grep -q 'thread instructions/s' "$T/e.txt" && fail "status line without a terminal"
else
  echo "cli_harden: script (util-linux) missing: the status line is not checked"
fi

# ---- 8 and 9. findings survive the program's end; --error-exitcode
CM="$PWD/$B/harden/crash_main"
# under ASan (make MODE=asan) the program's own signals stay its own
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_abort=0:detect_leaks=0"
if [ -x "$CM" ]; then
  for mode in exit abort segv sync; do
    rc=$(st "$S" run --check races --json "$T/$mode.json" -- "$CM" $mode tests/cli/race.ptx)
    case $mode in abort) want=134 ;; segv) want=139 ;; *) want=0 ;; esac
    [ "$rc" = $want ] || fail "$mode: exit $rc, not $want ($(cat "$T/e.txt"))"
    grep -q '^launched$' "$T/o.txt" || fail "$mode: program output"
    grep -q 'Race reported between Write access at tests/cli/race.cu:7' "$T/o.txt" || fail "$mode: findings lost: $(cat "$T/o.txt" "$T/e.txt")"
    grep -q '"launch_count": 1' "$T/$mode.json" || fail "$mode: JSON lost: $(cat "$T/$mode.json")"
  done
  # a termination request runs nothing more but still writes the reports
  rc=$(st "$S" run --check races --json "$T/term.json" -- "$CM" term tests/cli/race.ptx)
  [ "$rc" = 143 ] && grep -q '== smemu checks: 0 launches checked' "$T/o.txt" && grep -q '"launch_count": 0' "$T/term.json" \
    || fail "term: $rc $(cat "$T/o.txt" "$T/e.txt")"
  # ^C during a long launch: the program dies of SIGINT, smemu run still prints the reports
  if command -v pgrep > /dev/null 2>&1; then
    "$S" run --check races -- "$CM" sync tests/cli_harden/hang.ptx countForever > "$T/o.txt" 2> "$T/e.txt" &
    rp=$!
    sleep 2
    kill -INT "$(pgrep -P $rp)"
    wait $rp
    rc=$?
    [ $rc = 130 ] && grep -q '== smemu checks:' "$T/o.txt" || fail "^C: exit $rc, $(cat "$T/o.txt" "$T/e.txt")"
  fi
  # --error-exitcode: N when the checks found errors, the program's status otherwise
  [ "$(st "$S" run --check races --error-exitcode 7 -- "$CM" sync tests/cli/race.ptx)" = 7 ] || fail "--error-exitcode with a race"
  [ "$(st "$S" run --error-exitcode 7 -- "$CM" sync tests/cli/race.ptx)" = 0 ] || fail "--error-exitcode without findings"
  [ "$(st "$S" run --check races -- "$CM" sync tests/cli/race.ptx)" = 0 ] || fail "findings without --error-exitcode"
  # a hang or the watchdog in a program: cudaErrorLaunchTimeout, counted as an error
  [ "$(st "$S" run --error-exitcode 9 -- "$CM" sync tests/cli_harden/hang.ptx spinFlag)" = 9 ] || fail "run: hang status"
  grep -q 'sync: cudaErrorLaunchTimeout' "$T/o.txt" && grep -q 'hang: no warp can make progress' "$T/e.txt" \
    || fail "run: hang: $(cat "$T/o.txt" "$T/e.txt")"
  [ "$(st "$S" run --timeout 1 -- "$CM" sync tests/cli_harden/hang.ptx countForever)" = 0 ] || fail "run --timeout"
  grep -q 'sync: cudaErrorLaunchTimeout' "$T/o.txt" && grep -q 'time limit of 1 s' "$T/e.txt" \
    || fail "run --timeout: $(cat "$T/o.txt" "$T/e.txt")"
  # smemu run: the program's launches show the status line on a terminal too
  if command -v script > /dev/null 2>&1; then
    script -qec "$S run --timeout 3 -- $CM sync tests/cli_harden/hang.ptx countForever" /dev/null > "$T/tty.txt" 2>&1
    grep -q 'countForever: 0/1 blocks, [0-9.]* M thread instructions/s' "$T/tty.txt" || fail "run: no status line: $(cat -v "$T/tty.txt")"
  fi
else
  echo "cli_harden: $CM not built: findings after a crash not checked"
fi
"$S" help | grep -q 'exit status of smemu exec' || fail "help: exit statuses"
"$S" help | grep -q '3  the kernel ran but --check found errors' || fail "help: status 3"
"$S" help run | grep -q -- '--error-exitcode N' || fail "help run: --error-exitcode"
echo "cli_harden: ok"
