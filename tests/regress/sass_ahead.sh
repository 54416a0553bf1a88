#!/bin/sh
# sass_ahead.sh BUILD: when `smemu run` starts the SASS mapping's tools.
# They only change the bank model's counts, so a run without it must not
# start nvdisasm (its start-up is most of a small program's first run); a
# run with it starts nvdisasm at registration for every module that has a
# cubin, all at once beside the program, and counts by the SASS, as a run
# that finds the disassembly cached does. The program (sass_ahead/) has two
# modules; a wrapper nvdisasm logs its start and end times. Exits 77
# without nvcc or nvdisasm.
B=${1:-build}
S="$B/smemu"
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_nvcc sass-ahead
suite_need_smemu sass-ahead "$B"
ND=$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$B"/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)
[ -n "$ND" ] || { echo "sass-ahead: nvdisasm not found: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$B/sass_ahead" || exit 2
P="$B/sass_ahead/prog"
if [ ! -x "$P" ] || [ "$here/sass_ahead/main.cu" -nt "$P" ] || [ "$here/sass_ahead/pairs.cu" -nt "$P" ]; then
  nice "$NVCC" -arch=sm_90 -cudart shared -lineinfo -o "$P" "$here/sass_ahead/main.cu" "$here/sass_ahead/pairs.cu" \
    > "$P.log" 2>&1 || { cat "$P.log"; fail "nvcc"; }
fi
cat > "$T/nvdisasm" <<W
#!/bin/sh
echo "start \$(date +%s.%N)" >> "$T/log"
"$ND" "\$@"
rc=\$?
echo "end \$(date +%s.%N)" >> "$T/log"
exit \$rc
W
chmod +x "$T/nvdisasm"
export SMEMU_NVDISASM="$T/nvdisasm"
runs() { grep -c start "$T/log" 2>/dev/null || echo 0; }

# 1: no bank model: no tool, same output
mkdir -m 700 "$T/c1"
SMEMU_CACHE="$T/c1" "$S" run --json "$T/1.json" -- "$P" > "$T/1.out" 2> "$T/1.err" || fail "plain run: $(cat "$T/1.err")"
grep -q OK "$T/1.out" || fail "plain run output: $(cat "$T/1.out")"
[ "$(runs)" = 0 ] || fail "nvdisasm ran without the bank model: $(cat "$T/log")"
grep -q '"counting"' "$T/1.json" && fail "bank counts without the bank model: $(cat "$T/1.json")"

# 2: the bank model: one nvdisasm per module, both started before either
# ended (at registration, side by side), and the counting is by the SASS
mkdir -m 700 "$T/c2"
SMEMU_CACHE="$T/c2" "$S" run --check banks --json "$T/2.json" -- "$P" > "$T/2.out" 2> "$T/2.err" ||
  fail "banks run: $(cat "$T/2.err")"
grep -q OK "$T/2.out" || fail "banks run output: $(cat "$T/2.out")"
[ "$(runs)" = 2 ] || fail "expected 2 nvdisasm runs (2 modules): $(cat "$T/log")"
awk '$1 == "start" {s[++ns] = $2} $1 == "end" {e[++ne] = $2} END {exit !(s[2] < e[1])}' "$T/log" ||
  fail "the modules were disassembled one after the other: $(cat "$T/log")"
[ "$(grep -o '"counting": "sass", "counting_mapped"' "$T/2.json" | wc -l)" = 2 ] || fail "not counted by the SASS: $(cat "$T/2.json")"

# 3: again with the disassembly cached: no tool, the same counts
SMEMU_CACHE="$T/c2" "$S" run --check banks --json "$T/3.json" -- "$P" > "$T/3.out" 2> "$T/3.err" ||
  fail "cached run: $(cat "$T/3.err")"
[ "$(runs)" = 2 ] || fail "nvdisasm ran again with its output cached: $(cat "$T/log")"
strip() { sed 's/"seconds": [0-9.e-]*//g; s/"jit_seconds": [0-9.e-]*//g; s/"tier": "[a-z]*"//g' "$1"; }
[ "$(strip "$T/2.json")" = "$(strip "$T/3.json")" ] || fail "counts differ: $(cat "$T/2.json") / $(cat "$T/3.json")"

# 4: --counting sass named without the bank model still runs the tools
mkdir -m 700 "$T/c4"
SMEMU_CACHE="$T/c4" "$S" run --counting sass -- "$P" > "$T/4.out" 2> "$T/4.err" || fail "counting sass run"
[ "$(runs)" = 4 ] || fail "--counting sass did not run nvdisasm: $(cat "$T/log")"
# 5: built for sm_80 and emulated as sm_90, each module's PTX goes
# through ptxas first: that too starts at registration, side by side
P80="$B/sass_ahead/prog80"
if [ ! -x "$P80" ] || [ "$here/sass_ahead/main.cu" -nt "$P80" ] || [ "$here/sass_ahead/pairs.cu" -nt "$P80" ]; then
  nice "$NVCC" -arch=sm_80 -cudart shared -lineinfo -o "$P80" "$here/sass_ahead/main.cu" "$here/sass_ahead/pairs.cu" \
    > "$P80.log" 2>&1 || { cat "$P80.log"; fail "nvcc sm_80"; }
fi
rm -f "$T/log"
mkdir -m 700 "$T/c5"
SMEMU_CACHE="$T/c5" "$S" run --check banks --json "$T/5.json" -- "$P80" > "$T/5.out" 2> "$T/5.err" ||
  fail "sm_80 banks run: $(cat "$T/5.err")"
grep -q OK "$T/5.out" || fail "sm_80 run output: $(cat "$T/5.out")"
[ "$(runs)" = 2 ] || fail "sm_80: expected 2 nvdisasm runs: $(cat "$T/log")"
awk '$1 == "start" {s[++ns] = $2} $1 == "end" {e[++ne] = $2} END {exit !(s[2] < e[1])}' "$T/log" ||
  fail "sm_80: the modules were compiled one after the other: $(cat "$T/log")"
[ "$(grep -o '"counting": "sass", "counting_mapped"' "$T/5.json" | wc -l)" = 2 ] ||
  fail "sm_80: not counted by the SASS: $(cat "$T/5.json")"
ls "$T/c5"/*.ptx "$T/c5"/*.tmp 2>/dev/null && fail "temporary files left in the cache"
echo "sass-ahead: all checks passed"
