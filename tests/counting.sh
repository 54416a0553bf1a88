#!/bin/sh
# counting.sh BUILD: smemu exec's --counting. A kernel where
# ptxas loads two neighbouring __shared__ scalars from two basic blocks
# with one LDS.64 (tests/hw/model lay_cross_block): PTX rules count 3 load
# requests, the SASS 2 (the lanes all pass the branch: a = 1000). Checks the
# summary line, the bank report and the JSON; the sass half is skipped (77)
# when ptxas or nvdisasm is missing.
B=${1:-build}
S="$B/smemu"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
P=tests/hw/model/model.ptx
A="--kernel lay_cross_block --grid 1 --block 32 --arg buf:u32:160:fill=1000 --arg buf:u32:160"
"$S" exec $P $A --counting bogus 2> "$T/e.txt" && fail "bogus --counting accepted"
grep -q 'takes sass or ptx' "$T/e.txt" || fail "bogus --counting message"
"$S" exec $P $A --counting ptx --json "$T/p.json" 2> "$T/p.txt" || fail "ptx run"
grep -q 'shared ld 3 req 0 conflicts.*; counting ptx' "$T/p.txt" || fail "ptx summary: $(cat "$T/p.txt")"
grep -q '"counting": "ptx"' "$T/p.json" || fail "ptx json"
"$S" exec $P $A --counting sass --report banks --json "$T/s.json" > "$T/r.txt" 2> "$T/s.txt" || fail "sass run"
if grep -q 'note: --counting sass' "$T/s.txt"; then
  echo "counting: $(cat "$T/s.txt" | head -1): sass half skipped"
  exit 77
fi
grep -q 'shared ld 2 req 0 conflicts.*; counting sass' "$T/s.txt" || fail "sass summary: $(cat "$T/s.txt")"
grep -q '"counting": "sass", "counting_mapped": 6, "counting_fallback": 0' "$T/s.json" || fail "sass json: $(cat "$T/s.json")"
grep -q 'counting: per SASS instruction (6 of 6 shared accesses mapped, 3 changed' "$T/r.txt" || fail "sass report: $(cat "$T/r.txt")"
echo "counting: all checks passed"
