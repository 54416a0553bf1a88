#!/bin/sh
# test.sh BUILD: memory pools and stream-ordered allocation under
# `smemu run`.
#   pools.cu   every pool call, its results checked against arithmetic by
#              the program; what it prints (pool figures, address reuse,
#              error codes) compared with an H200's (pools.expected,
#              recorded by record.sh)
#   checks.cu  bugs in pool memory, found by the checks as in cudaMalloc'd
#              memory: a write past the end, a read after cudaFreeAsync,
#              reads of fresh and of reused pool memory nothing wrote
# Exit 77 without nvcc 13.
B=$(cd "${1:-build}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc 2>/dev/null)}
[ -n "$nvcc" ] || { echo "pools: SKIP: no nvcc"; exit 77; }
"$nvcc" --version 2>/dev/null | grep -q "release 1[3-9]\." || { echo "pools: SKIP: nvcc is not CUDA 13"; exit 77; }
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
for p in pools checks; do
  "$nvcc" -arch=sm_90 -cudart shared -lineinfo -o "$T/$p" "$here/$p.cu" || exit 2
done
bad=0
fail() { echo "pools: FAIL: $*"; bad=1; }

(cd "$T" && timeout 120 "$B/smemu" run -- ./pools) >"$T/pools.out" 2>"$T/pools.err"
rc=$?
[ $rc = "$(cat "$here/pools.rc")" ] || fail "pools exits $rc, want $(cat "$here/pools.rc")"
diff "$here/pools.expected" "$T/pools.out" >"$T/diff" || { fail "pools prints what the GPU did not:"; cat "$T/diff"; }
[ -s "$T/pools.err" ] && { echo "pools: stderr:"; cat "$T/pools.err"; }

# the kernels' lines in checks.cu: write_n's store and copy_n's load
w=$(grep -n "p\[i\] = i;" "$here/checks.cu" | cut -d: -f1)
r=$(grep -n "dst\[i\] = src\[i\];" "$here/checks.cu" | cut -d: -f1)
check() { # MODE: the run's output in $T/MODE.out
  (cd "$T" && timeout 120 "$B/smemu" run --check init -- ./checks "$1") >"$T/$1.out" 2>&1
}
check clean
grep -q "^clean: cudaSuccess" "$T/clean.out" || fail "clean: $(head -3 "$T/clean.out")"
grep -q "0 uninitialized global reads" "$T/clean.out" || fail "clean: reads reported"
grep -q "ERROR SUMMARY: 0 errors" "$T/clean.out" || fail "clean: errors reported"
check oob
# thread 100 writes int 100 of 100: byte 400 of a 400-byte allocation
grep -q "thread (100,0,0): out-of-bounds write of 4 bytes .*(1 bytes after the allocation of 400 bytes at 0x" "$T/oob.out" ||
  fail "oob: no out-of-bounds write at offset 400"
grep -q "checks.cu:$w:" "$T/oob.out" || fail "oob: not blamed on line $w"
grep -q "^oob: cudaErrorIllegalAddress" "$T/oob.out" || fail "oob: the launch did not fail"
check freed
grep -q "out-of-bounds read of 4 bytes" "$T/freed.out" || fail "freed: the read after cudaFreeAsync is not reported"
grep -q "checks.cu:$r:" "$T/freed.out" || fail "freed: not blamed on line $r"
for m in uninit reused; do
  check $m
  # 256 threads read one int each of memory nothing wrote
  grep -q "256 uninitialized global reads" "$T/$m.out" || fail "$m: want 256 uninitialized global reads"
  grep -q "checks.cu:$r by thread" "$T/$m.out" || fail "$m: not blamed on line $r"
done
[ $bad = 0 ] && echo "pools: ok"
exit $bad
