#!/bin/sh
# Hostile input and hardening checks of build/smemu (issue 10): no shell
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
echo "cli_harden: ok"
