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
# build PROG ARCH: the two-module program for ARCH, unless up to date
build() {
  if [ ! -x "$1" ] || [ "$here/sass_ahead/main.cu" -nt "$1" ] || [ "$here/sass_ahead/pairs.cu" -nt "$1" ]; then
    nice "$NVCC" -arch="$2" -cudart shared -lineinfo -o "$1" "$here/sass_ahead/main.cu" "$here/sass_ahead/pairs.cu" \
      > "$1.log" 2>&1 || { cat "$1.log"; fail "nvcc -arch=$2"; }
  fi
}
P="$B/sass_ahead/prog"
build "$P" sm_90
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

# side_by_side N PROG: with the bank model, in an empty cache CN, one
# nvdisasm per module, both started before either ended (at registration,
# side by side), and both kernels counted by the SASS
side_by_side() {
  rm -f "$T/log"
  mkdir -m 700 "$T/c$1"
  SMEMU_CACHE="$T/c$1" "$S" run --check banks --json "$T/$1.json" -- "$2" > "$T/$1.out" 2> "$T/$1.err" ||
    fail "$2: banks run: $(cat "$T/$1.err")"
  grep -q OK "$T/$1.out" || fail "$2: banks run output: $(cat "$T/$1.out")"
  [ "$(runs)" = 2 ] || fail "$2: expected 2 nvdisasm runs (2 modules): $(cat "$T/log")"
  awk '$1 == "start" {s[++ns] = $2} $1 == "end" {e[++ne] = $2} END {exit !(s[2] < e[1])}' "$T/log" ||
    fail "$2: the modules were disassembled one after the other: $(cat "$T/log")"
  [ "$(grep -o '"counting": "sass", "counting_mapped"' "$T/$1.json" | wc -l)" = 2 ] ||
    fail "$2: not counted by the SASS: $(cat "$T/$1.json")"
}

# 2: the program as built (sm_90 cubins: nvdisasm only)
side_by_side 2 "$P"

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
build "$P80" sm_80
side_by_side 5 "$P80"
ls "$T/c5" | grep -v -E '^[0-9a-f]{16}\.(cubin|sass)$|^jit$' && fail "temporary files left in the cache"
echo "sass-ahead: all checks passed"
