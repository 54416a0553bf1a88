#!/bin/sh
# jit_cache_vars.sh BUILD: a kernel that names module variables (a
# .global counter, a .const table) finds its compiled code in the disk
# cache on its second run, in a new process: the variables are placed at
# the same addresses again (src/api/api.c vars_block), which the code and
# its key hold. Both runs give the table's values, checked against the
# table in the PTX. Skips (77) where this build has no compiled tier.
B=${1:-build}
. tests/regress/cache_env.sh
fail=0
run() {
  SMEMU_JIT_STATS=1 "$B/smemu" exec tests/regress/jit_cache_vars/vars.ptx --kernel vars --grid 1 --block 64 \
    --arg buf:u32:64:save="$T/out$1" --tier jit --quiet --json "$T/r$1.json" 2> "$T/err$1" || fail=1
}
run 1
[ $fail = 0 ] || { echo "FAIL: smemu exec"; cat "$T/err1"; exit 1; }
grep -q '"tier": "jit"' "$T/r1.json" || { echo "SKIP: no compiled tier in this build"; exit 77; }
grep -q 'compiled;' "$T/err1" || { echo "FAIL: the first run did not compile"; cat "$T/err1"; fail=1; }
run 2
grep -q 'from the disk cache' "$T/err2" || { echo "FAIL: the second run did not find its code in the cache"; cat "$T/err2"; fail=1; }
n=$(ls "$SMEMU_CACHE/jit" | grep -c '\.o$')
[ "$n" = 1 ] || { echo "FAIL: $n objects after two runs (want 1)"; fail=1; }
# out[i] = table[i % 4] with table = {3, 5, 7, 11}
want=$(awk 'BEGIN { split("3 5 7 11", t); for (i = 0; i < 64; i++) printf "%d\n", t[i % 4 + 1] }')
for k in 1 2; do
  got=$(od -An -v -tu4 -w4 "$T/out$k" | tr -d ' ')
  [ "$got" = "$want" ] || { echo "FAIL: run $k wrote other values than the table's"; fail=1; }
done
[ $fail = 0 ] && echo "ok: jit cache with module variables"
exit $fail
