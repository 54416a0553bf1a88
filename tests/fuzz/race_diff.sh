#!/bin/sh
# Compares the shared race, sync and init reports of two builds of the
# library on random kernels (tests/fuzz/race_diff.c), e.g. main's checker
# against a changed one:
#   sh tests/fuzz/race_diff.sh OLD_BUILD NEW_BUILD [FIRST_SEED [COUNT [interp|jit]]]
# OLD_BUILD and NEW_BUILD are build directories (each with libsmemu.a).
# Exit status 0 when every report agrees.
set -e
old=$1 new=$2 s0=${3:-1} n=${4:-300} tier=${5:-interp}
[ -f "$old/libsmemu.a" ] && [ -f "$new/libsmemu.a" ] || { echo "usage: $0 OLD_BUILD NEW_BUILD [SEED [N [TIER]]]"; exit 2; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for b in old new; do
  eval lib=\$$b/libsmemu.a
  cc -std=c11 -D_GNU_SOURCE -O1 -Iinclude -Isrc -Itests/common -o "$d/$b" tests/fuzz/race_diff.c tests/common/tiers.c \
    "$lib" -pthread -lm -ldl 2>"$d/$b.cc" ||
    { cat "$d/$b.cc"; exit 2; }
  "$d/$b" "$s0" "$n" "$tier" >"$d/$b.out"
done
if cmp -s "$d/old.out" "$d/new.out"; then
  echo "race_diff: $n kernels x 4 modes agree ($(grep -c '^Hazard\|WAR\|RAW\|WAW' "$d/new.out" || true) hazard lines)"
else
  diff "$d/old.out" "$d/new.out" | head -40
  exit 1
fi
