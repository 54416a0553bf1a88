#!/bin/sh
# bank_cache_kepler.sh BUILD: the bank model's pattern cache must not take
# one pattern for another. tests/regress/bank_cache_kepler.ptx: warp 0 reads
# words at a stride of 128 bytes from byte 0, warp 1 the same from byte 136
# (0 modulo 8, as the cache's key once had it). Every lane is in one bank:
#  - 3.x in 4-byte mode serves words i and i + 32 of a 256-byte segment in
#    one pass: warp 0 covers 16 segments (16 wavefronts), warp 1 starts in
#    the middle of one and ends in the middle of another (17): 33 (the old
#    cache gave warp 1 warp 0's 16: 32);
#  - 9.0: every lane a distinct word of one bank, 32 each: 64.
B=${1:-build}
ptx=$(dirname "$0")/bank_cache_kepler.ptx
fail=0
check() { # ARCH WAVEFRONTS CONFLICTS
  line=$("$B/smemu" exec "$ptx" --kernel k --grid 1 --block 64 --arch "$1" --report banks 2>&1 | grep '^ *loads ')
  want="2 requests $2 wavefronts $3 bank conflicts"
  got=$(echo "$line" | tr -s ' ' | sed 's/^ *loads //')
  if [ "$got" = "$want" ]; then echo "ok $1: $got"; else echo "FAIL $1: got '$got', want '$want'"; fail=1; fi
}
check sm_35 33 31
check sm_90 64 62
exit $fail
