#!/bin/sh
# test.sh BUILD: every PTX instruction form of forms.txt (the ISA grammar of
# grammar.txt and CCCL's cuda::ptx templates, as far as ptxas -arch=sm_90a
# accepts them) must decode in `smemu lint`, or be named with a reason in
# known_gaps.txt. Prints the coverage. With ptxas on the PATH it also checks
# that ptxas still accepts every form of the table.
B=${1:-build}
H=$(dirname "$0")
command -v python3 > /dev/null 2>&1 || { echo "python3 missing: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
P=
command -v ptxas > /dev/null 2>&1 && P="--ptxas ptxas"
# shellcheck disable=SC2086
python3 "$H/forms.py" check --smemu "$B/smemu" --out "$B/isa_forms" --gaps "$H/known_gaps.txt" $P \
  --readme "$H/../../README.md" \
  "$H/forms.txt" > "$T/out" 2>&1 || fail=1
cat "$T/out"
grep -q "^isa forms: [0-9]* of [0-9]* forms" "$T/out" || { echo "FAIL: no coverage line"; fail=1; }

# stated FILE KERNEL BLOCK LINES WANT ARGS...: on both tiers, `smemu exec`
# of FILE's KERNEL (one block) prints WANT on output lines LINES (sed range)
stated() {
  f=$1 kernel=$2 block=$3 lines=$4 want=$5
  shift 5
  for tier in interp jit; do
    out=$(SMEMU_TIER=$tier "$B/smemu" exec "$H/$f" --kernel "$kernel" --grid 1 --block "$block" "$@" 2>&1 |
      sed -n "${lines}p" | tr '\n' ' ' | sed 's/ $//')
    [ "$out" = "$want" ] || { echo "FAIL: $f ($tier): $out"; fail=1; }
  done
}
# the fences restricted to shared memory and pmevent.mask run
stated nops.ptx nops 8 2 "0 3 6 9 12 15 18 21" --arg buf:u32:8:iota --arg buf:u32:8:print
# tensormap.cp_fenceproxy and vector registers (stated in the files)
stated tmapcp.ptx k 32 2 "0 7 14 21 28 35 42 49" --arg buf:u32:32:print
stated vecreg.ptx k 1 2 "1073741824 5" --arg buf:u32:2:print
# vector atomics (atomv.ptx states the values: 32.0 64.0, 0.5 0.25 3 4, the
# old values 0, the bf16x2 pairs)
stated atomv.ptx k 32 2,3 "1107296256 1115684864 0 0 1056964608 1048576000 1077936128 1082130432 0 0 0 0 1075855296 3212853312" \
  --arg buf:u32:14:print
# mov.b128 from a constant, from and to four .b32 pieces (b128mov.ptx)
stated b128mov.ptx k 1 2 "18446744073709551609 18446744073709551615 8589934593 17179869187 3" \
  --arg buf:u64:5:print
# mbarrier.arrive_drop.expect_tx (mbdrop.ptx: both phases end)
stated mbdrop.ptx k 32 2 "1 1" --arg buf:u32:2:print

# the recorded matrix, texture-reference and .b128 kernels of tests/hw/sparse
# decode; texref_q.ptx's queries do not (the GPU's driver refuses them too)
for f in "$H"/../hw/sparse/*.ptx; do
  case "$f" in
  *texref_q.ptx) "$B/smemu" lint "$f" > "$T/lint" 2>&1 && { echo "FAIL: smemu lint $f decodes"; fail=1; } ;;
  *) "$B/smemu" lint "$f" > "$T/lint" 2>&1 || { echo "FAIL: smemu lint $f:"; cat "$T/lint"; fail=1; } ;;
  esac
done

# the check itself: a form smemu cannot decode fails it, unless a gap names it
printf 'x\tadd.u32 %%r_u32_0, %%r_u32_1, %%r_u32_2;\nx\tfrobnicate.u32 %%r_u32_0;\n' > "$T/forms.txt"
out=$(python3 "$H/forms.py" check --smemu "$B/smemu" --out "$T/o" "$T/forms.txt" 2>&1) &&
  { echo "FAIL: an undecodable form passed: $out"; fail=1; }
case "$out" in *"isa forms: 1 of 2 forms"*"1 unexpected"*) ;; *) echo "FAIL: self-check: $out"; fail=1 ;; esac
echo '^frobnicate\. not an instruction' > "$T/gaps"
out=$(python3 "$H/forms.py" check --smemu "$B/smemu" --out "$T/o" --gaps "$T/gaps" "$T/forms.txt" 2>&1) ||
  { echo "FAIL: a known gap failed: $out"; fail=1; }
exit $fail
