#!/bin/sh
# test_arch.sh BUILD: a fatbinary with compute_90 and compute_90a PTX, in
# either order, runs the arch-specific PTX under `smemu run` (as the GPU
# ran the sm_90a code: arch.out in the recording says "arch-specific 1").
# Also: .target sm_90a / sm_100a parse, and `exec --arch sm_90a` runs.
B=${1:-build}
HERE=$(dirname "$0")
fail=0
"$B/smemu" exec "$HERE/arch_target.ptx" --arch sm_90a --kernel k --grid 1 --block 1 \
  --arg buf:s32:1:print > /tmp/smemu_arch_$$.txt 2>&1 || { cat /tmp/smemu_arch_$$.txt; fail=1; }
grep -q "^7" /tmp/smemu_arch_$$.txt || { echo "exec --arch sm_90a: expected 7"; cat /tmp/smemu_arch_$$.txt; fail=1; }
# a family/arch-specific suffix of a newer target parses too (sm_100a)
sed 's/sm_90a/sm_100a/' "$HERE/arch_target.ptx" > /tmp/smemu_arch_$$.ptx
"$B/smemu" exec /tmp/smemu_arch_$$.ptx --kernel k --grid 1 --block 1 --arg buf:s32:1:print > /tmp/smemu_arch_$$.txt 2>&1 ||
  { echo ".target sm_100a:"; cat /tmp/smemu_arch_$$.txt; fail=1; }
grep -q "^7" /tmp/smemu_arch_$$.txt || { echo ".target sm_100a: expected 7"; fail=1; }
rm -f /tmp/smemu_arch_$$.txt /tmp/smemu_arch_$$.ptx
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: the fatbinary half is skipped"; [ $fail = 0 ] && exit 77; exit 1; }
T=$(mktemp -d)
for order in "90 90a" "90a 90"; do
  G=""
  for a in $order; do G="$G -gencode=arch=compute_$a,code=compute_$a"; done
  # shellcheck disable=SC2086
  nvcc -cudart shared $G -o "$T/arch" "$HERE/arch.cu" > "$T/log" 2>&1 || { cat "$T/log"; fail=1; continue; }
  out=$("$B/smemu" run "$T/arch" 2>&1)
  case "$out" in
    *"arch-specific 1"*) echo "ok: PTX order $order runs compute_90a" ;;
    *) echo "FAIL: PTX order $order: $out"; fail=1 ;;
  esac
done
rm -rf "$T"
exit $fail
