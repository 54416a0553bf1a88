#!/bin/sh
# test.sh BUILD: smemu against the H100 recording of af.cu and pipe.cu
# (recorded/, made by record.sh): F6 (16 threads init one fresh mbarrier
# with the same count), F7 (a cp.async destination read while the copy is in
# flight), F8 (cp.async.mbarrier.arrive and .noinc; cuda::pipeline with a
# block-scope pipeline_shared_state). Runs both tiers (interpreter, JIT).
# Skips (77) without nvcc.
B=${1:-build}
HERE=$(dirname "$0")
R=$HERE/recorded
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
G="-gencode=arch=compute_90a,code=compute_90a -lineinfo -O3 -cudart shared"
# k_cnt's bounded poll (100000 rounds on the H100) would outlast smemu's
# deadlock detection (MBAR_SPIN_ROUNDS = 65536 rounds with no barrier
# change): compiled here with 50000, which changes no result (the phase
# either completes at the arrive or never does by itself)
sed 's/spins < 100000/spins < 50000/' "$HERE/af.cu" > "$T/af.cu"
cp "$HERE/pipe.cu" "$HERE/pipe1.cu" "$T/"
for p in af pipe pipe1; do
  # (pipe1 with its sm_90a SASS too: smemu run maps the PTX onto it)
  X=""; [ $p = pipe1 ] && X="-gencode=arch=compute_90a,code=sm_90a"
  # shellcheck disable=SC2086
  nvcc $G $X -o "$T/$p" "$T/$p.cu" > "$T/$p.log" 2>&1 || { cat "$T/$p.log"; exit 1; } &
done
wait
[ -x "$T/af" ] && [ -x "$T/pipe" ] && [ -x "$T/pipe1" ] || exit 1
bad() { echo "FAIL ($tier): $*"; fail=1; }
# the program's own lines of a recorded output (no rc=, no sanitizer lines)
prog() { grep -v -e '^rc=' -e '^=========' "$1"; }
for tier in interp jit; do
  export SMEMU_TIER=$tier
  # F8 counts and F6/F8 results: the very lines the H100 printed
  for c in init cnt mt; do
    "$B/smemu" run -- "$T/af" $c > "$T/o" 2>&1
    prog "$R/af_$c.out" | cmp -s - "$T/o" || { bad "af $c differs from the H100:"; diff "$R/af_$c.out" "$T/o"; }
  done
  for c in unified partitioned; do
    "$B/smemu" run -- "$T/pipe" $c > "$T/o" 2>&1
    prog "$R/pipe_$c.out" | cmp -s - "$T/o" || { bad "pipe $c differs:"; diff "$R/pipe_$c.out" "$T/o"; }
  done
  "$B/smemu" run -- "$T/pipe1" > "$T/o" 2>&1
  grep -q "^pipe1: sync=no error mismatches=0 -> PASS" "$T/o" || { bad "pipe1:"; cat "$T/o"; }
  # PTX level (counts.ptx): .noinc counts as an arrival, the default nets none
  for m in 0 1; do
    out=$("$B/smemu" exec "$HERE/counts.ptx" --kernel k --grid 1 --block 1 --arg buf:s32:2:print \
      --arg buf:s32:1:fill=42 --arg u32:$m 2>&1 | tr '\n' ' ')
    case "$m:$out" in
      "0:arg 0 (s32[2]): 0 42"*|"1:arg 0 (s32[2]): 1 42"*) ;;
      *) bad "counts.ptx mode $m: $out" ;;
    esac
  done
  # an arrive-on on a barrier never initialised is a fault naming it
  sed -e '/mbarrier.init/d' "$HERE/counts.ptx" > "$T/noinit.ptx"
  out=$("$B/smemu" exec "$T/noinit.ptx" --kernel k --grid 1 --block 1 --arg buf:s32:2 --arg buf:s32:1 --arg u32:1 2>&1)
  case "$out" in
    *"cp.async.mbarrier.arrive.noinc on the mbarrier at shared 0x"*"(bar), which is not initialised"*"PTX line"*) ;;
    *) bad "noinit: $out" ;;
  esac
  # checks: clean where racecheck/synccheck/memcheck found nothing on these
  # (synccheck's "Missing wait" on mt/pipe is not modelled: known_differences.txt)
  for c in "af init" "af cnt" "af mt" "pipe unified" "pipe partitioned" pipe1; do
    # shellcheck disable=SC2086
    "$B/smemu" run --check all -- "$T"/$c > "$T/o" 2>&1
    grep -q "0 hazards, 0 barrier errors" "$T/o" && grep -q "ERROR SUMMARY: 0 errors" "$T/o" ||
      { bad "$c under --check all is not clean:"; cat "$T/o"; }
    grep -q -e "FAIL" -e "launch failure" "$T/o" && bad "$c failed under --check all"
  done
  # F7: the copier's own read of its in-flight destination (af.cu:68, 4 bytes
  # x 256 blocks), a warning as racecheck gives it (san_racecheck_default_rd)
  grep -q "and Read access at .*af.cu:68 \[1024 hazards\]" "$R/san_racecheck_default_rd.txt" || bad "recording lacks the hazard"
  for c in rd wr own ok; do
    "$B/smemu" run --check races -- "$T/af" $c > "$T/o" 2>&1
    grep -A1 "^Warning: Race reported between Write access at .*af.cu:66" "$T/o" | grep -q "and Read access at .*af.cu:68 \[1024 hazards\]" ||
      { bad "af $c: no in-flight own-read warning like racecheck's"; cat "$T/o"; }
  done
  # other threads' accesses while the copy is in flight (racecheck does not
  # report them; the H100 read -1 in rd and let the copy overwrite the 7 in
  # wr): in the PTX every thread loads s[0] at line 71, so 2048 = the
  # copier's own 1024 + thread 0's
  "$B/smemu" run --check races -- "$T/af" rd > "$T/o" 2>&1
  grep -q "and Read access at .*af.cu:71 \[2048 hazards\]" "$T/o" || { bad "af rd: in-flight read at line 71"; cat "$T/o"; }
  "$B/smemu" run --check races -- "$T/af" wr > "$T/o" 2>&1
  grep -A1 "Write access at .*af.cu:66" "$T/o" | grep -q "and Write access at .*af.cu:72 \[1024 hazards\]" ||
    { bad "af wr: in-flight write at line 72"; cat "$T/o"; }
  grep -q "saw7=256" "$T/o" || bad "af wr: smemu's copy lands at issue, so the later 7 stays"
done
[ $fail = 0 ] && echo "async_f: smemu matches the H100 recording (F6, F7, F8) on both tiers"
exit $fail
