#!/bin/sh
# test.sh BUILD: the block's reserved shared memory against an H100's
# recording (recorded/, made by record.sh in this directory, CUDA 13.0):
#  - rsvsmem.cu, unmodified under `smemu run`: %reserved_smem_offset_begin,
#    _end, _cap, _0, _1 for five static/dynamic sizes, where the static and
#    dynamic arrays start, and the reserved words a fresh block reads: the
#    whole output equal to the H100's;
#  - tests/runtime/corpus/cg_tiles.cu (cooperative groups' tiles of 64 and
#    128 threads, whose barriers live in the reserved area): output equal
#    to the H100's; under --check races smemu finds no hazard in the clean
#    run. compute-sanitizer's racecheck reports 12 there
#    (recorded/cg_tiles.racecheck.txt): it does not see the tiles' barrier
#    (a release/acquire protocol on reserved words) and pairs accesses the
#    barrier orders; smemu models the barrier (README: reserved shared
#    memory). The racy run ("race": a read before tile.sync()) is reported
#    by both.
# The recorded ncu counters (recorded/cg_tiles.ncu.csv) include the tiles'
# spin loops, whose counts depend on timing: kept for reference, not
# compared.
B=${1:-build}
HERE=$(dirname "$0")
R="$HERE/recorded"
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for p in rsvsmem:"$HERE/rsvsmem.cu" cg_tiles:"$HERE/../../runtime/corpus/cg_tiles.cu"; do
  n=${p%%:*}
  nvcc -arch=sm_90 -lineinfo -cudart shared -o "$T/$n" "${p#*:}" > "$T/build.log" 2>&1 || { cat "$T/build.log"; exit 1; }
done
same() { # same NAME MINE RECORDED
  if diff "$2" "$3" > "$T/diff" 2>&1; then echo "ok: $1"; else echo "FAIL: $1 differs from the H100's:"; head -20 "$T/diff"; fail=1; fi
}
"$B/smemu" run --quiet -- "$T/rsvsmem" > "$T/rsvsmem.txt" 2>&1; echo "rc=$?" >> "$T/rsvsmem.txt"
same rsvsmem "$T/rsvsmem.txt" "$R/rsvsmem.txt"
"$B/smemu" run --quiet -- "$T/cg_tiles" > "$T/cg_tiles.out" 2>&1; echo "rc=$?" >> "$T/cg_tiles.out"
same cg_tiles "$T/cg_tiles.out" "$R/cg_tiles.out"
h=$("$B/smemu" run --check races -- "$T/cg_tiles" 2>&1 | sed -n 's/^== smemu checks: .* checked, \([0-9]*\) hazard.*/\1/p')
g=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$R/cg_tiles.racecheck.txt")
if [ "$h" = 0 ] && [ "$g" = 12 ]; then echo "ok: cg_tiles clean: smemu 0 hazards (racecheck: $g, unaware of the tiles' barrier)"
else echo "FAIL: cg_tiles clean: smemu '$h' hazards (want 0), recording '$g' (want 12)"; fail=1; fi
h=$("$B/smemu" run --check races -- "$T/cg_tiles" race 2>&1 | sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' | tail -1)
if [ -n "$h" ] && [ "$h" -gt 0 ]; then echo "ok: cg_tiles race: $h hazards"; else echo "FAIL: cg_tiles race: smemu '$h' hazards"; fail=1; fi
exit $fail
