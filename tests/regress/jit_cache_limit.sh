#!/bin/sh
# jit_cache_limit.sh BUILD: the compiled tier's disk cache keeps to
# SMEMU_JIT_CACHE_MAX (src/jit/jcache.h), in a cache of the test's own
# (SMEMU_CACHE):
#  - a compile writes one object; a second run of the same kernel reads it
#    (no new object) and refreshes its time (a cache hit marks it used);
#  - a different kernel compiled under a limit of 1 byte leaves no object:
#    the process's first write trims the cache, and both objects exceed it;
#  - with no limit (0) a second module's object stays beside the first.
# Skips (77) where this build has no compiled tier.
B=${1:-build}
. tests/regress/cache_env.sh
fail=0
rev() {
  "$B/smemu" exec examples/reverse.ptx --kernel staticReverse --grid 1 --block 64 \
    --arg buf:s32:64:iota --arg s32:64 --tier jit --quiet --json "$T/r.json" || fail=1
}
objects() { ls "$SMEMU_CACHE/jit" 2>/dev/null | grep -c '^[0-9a-f]\{32\}\.o$'; }
rev
[ $fail = 0 ] || { echo "FAIL: smemu exec"; exit 1; }
grep -q '"tier": "jit"' "$T/r.json" || { echo "SKIP: no compiled tier in this build"; exit 77; }
[ "$(objects)" = 1 ] || { echo "FAIL: one compile, $(objects) objects"; fail=1; }
o=$(ls "$SMEMU_CACHE/jit"/*.o | head -1)
touch -d '2020-01-01' "$o"
rev
[ "$(objects)" = 1 ] || { echo "FAIL: a cache hit wrote an object"; fail=1; }
[ "$(find "$o" -newermt '2021-01-01' | wc -l)" = 1 ] || { echo "FAIL: a cache hit left the object's time"; fail=1; }
SMEMU_JIT_CACHE_MAX=0 "$B/smemu" exec examples/dot.ptx --kernel dotPartial --grid 2 --block 256 \
  --arg buf:f32:512:rand=1 --arg buf:f32:512:rand=2 --arg buf:f32:2 --arg s32:512 --tier jit --quiet || fail=1
[ "$(objects)" = 2 ] || { echo "FAIL: no limit, $(objects) objects (want 2)"; fail=1; }
SMEMU_JIT_CACHE_MAX=1 "$B/smemu" exec examples/matmul.ptx --kernel matmulTiled --grid 2,2 --block 16,16 \
  --arg buf:f32:1024:rand=1 --arg buf:f32:1024:rand=2 --arg buf:f32:1024 --arg s32:32 --tier jit --quiet \
  >/dev/null || fail=1
[ "$(objects)" = 0 ] || { echo "FAIL: limit 1 byte, $(objects) objects left (want 0)"; fail=1; }
[ $fail = 0 ] && echo "ok: jit cache limit"
exit $fail
