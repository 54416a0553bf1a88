#!/bin/sh
# numba_test.sh BUILD: unmodified Numba CUDA scripts (tests/numba/*.py)
# under `smemu run`, through numba-cuda from PyPI (installed into
# BUILD/py/numba with pip --target on first use) and the CUDA toolkit's
# NVVM. Each script checks its own result against numpy; this test checks
# that it ran on smemu and what smemu reports, against arithmetic stated
# here from the kernels' source (see each expectation) and the scripts'
# own line numbers for the race. Exit 77, saying why, without python3,
# NVVM (libnvvm and libdevice) or the packages.
B=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
PIP_PKGS="numba-cuda==0.30.4 cuda-bindings==13.5.0"
skip() { echo "numba_test: SKIP: $*"; exit 77; }
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

# NVVM: the toolkit's libnvvm and libdevice (numba-cuda finds them under CUDA_HOME)
home=${CUDA_HOME:-}
if [ -z "$home" ]; then
  nv=$(command -v nvcc 2>/dev/null) && home=$(cd "$(dirname "$nv")/.." && pwd)
fi
[ -n "$home" ] || home=/usr/local/cuda
found=
for f in "$home"/nvvm/lib64/libnvvm.so* "$home"/lib/libnvvm.so* "$home"/lib64/libnvvm.so*; do
  [ -f "$f" ] && found=$f
done
[ -n "$found" ] ||
  skip "no NVVM (libnvvm) under $home: install the CUDA toolkit (nvcc) or set CUDA_HOME"
ls "$home"/nvvm/libdevice/libdevice*.bc >/dev/null 2>&1 || skip "no libdevice under $home/nvvm/libdevice"

# numba-cuda into the build tree
P="$B/py/numba"
if [ ! -f "$P/.installed" ]; then
  rm -rf "$P"
  python3 -m pip install -q --disable-pip-version-check --target "$P" $PIP_PKGS >"$B/py-pip.log" 2>&1 ||
    skip "pip could not install $PIP_PKGS (see $B/py-pip.log)"
  touch "$P/.installed"
fi
# --target skips .pth files; numba-cuda's redirects numba.cuda to itself
mkdir -p "$B/py/site"
printf 'import site\nsite.addsitedir(%s)\n' "'$P'" > "$B/py/site/sitecustomize.py"

T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
bad=0
fail() { echo "numba_test: FAIL: $*"; bad=1; }
run() { # NAME ARGS...: the script under smemu run, from outside the tree
  name=$1; shift
  (cd "$T" && PYTHONPATH="$B/py/site:$P" CUDA_HOME="$home" PYTHONWARNINGS=ignore timeout 300 \
    "$B/smemu" run --check races,sync,banks --report banks --json "$T/$name.json" -- python3 "$root/tests/numba/$name.py" "$@") \
    >"$T/$name.out" 2>&1
  echo "== $name (exit $?)"; cat "$T/$name.out"
}
# one figure of the JSON's kernel totals (of the kernels whose name has $3)
fig() {
  python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels']; print(sum(x[sys.argv[2]] for x in k if sys.argv[3] in x['name']))" \
    "$T/$1.json" "$2" "${3:-}"
}
expect() { # NAME[:KERNEL] FIELD WANT WHY
  got=$(fig "${1%%:*}" "$2" "$(echo "$1" | sed -n 's/^[^:]*://p')" 2>/dev/null)
  [ "$got" = "$3" ] || fail "$1: $2 is $got, want $3 ($4)"
}

run dot
grep -q "^dot: .* ok$" "$T/dot.out" || fail "dot: wrong result"
grep -q "1 launch checked, 0 hazards, 0 barrier errors" "$T/dot.out" || fail "dot: not checked by smemu"
# 32 blocks of 256 threads (8 warps): per block 1 store of the partial sum,
# the tree's steps 128..1 run in 4+2+1+1+1+1+1+1 = 12 warps (2 loads and
# 1 store each), thread 0 loads the result: 25 loads and 20 stores a block
expect dot shared_ld_requests 800 "32 x 25"
expect dot shared_st_requests 640 "32 x 20"
expect dot shared_ld_bank_conflicts 0 "the tree reads consecutive words"

run matmul 64
grep -q "^matmul: .* ok$" "$T/matmul.out" || fail "matmul: wrong result"
# 16 blocks x 8 warps x 4 tiles = 512 warp-tiles; each stores sA and sB
# once and loads sB[j, tx] 16 times (1 wavefront: two half-warps, one row)
# and sA[ty, j] 16 times, 4 consecutive floats of which ptxas (and smemu's
# merge model) makes one 16-byte load of 2 wavefronts: 20 requests, 24
# wavefronts per warp-tile, the H200's figures for the nvcc-built tiled
# product (README, tests/hw/examples)
expect matmul shared_ld_requests 10240 "512 x 20"
expect matmul shared_ld_wavefronts 12288 "512 x 24"
expect matmul shared_st_requests 1024 "512 x 2"
expect matmul shared_ld_bank_conflicts 0 "rows and broadcasts"

run transpose 64
grep -q "^transpose_naive: .* ok$" "$T/transpose.out" || fail "transpose_naive: wrong result"
grep -q "^transpose_padded: .* ok$" "$T/transpose.out" || fail "transpose_padded: wrong result"
# 2 x 2 blocks of 8 warps, 4 row steps: 128 tile stores and 128 tile loads
# per kernel. The naive column read tile[tx, ty + r] of a float[32][32]
# puts lane tx on word 32 tx + c: one bank, 32 words, 32 wavefronts each
# (128 x 31 = 3968 conflicts); the 33-word rows of the padded tile spread
# the lanes over all 32 banks
expect transpose:transpose_naive shared_ld_requests 128 "2 x 2 x 8 x 4"
expect transpose:transpose_naive shared_ld_wavefronts 4096 "128 x 32"
expect transpose:transpose_naive shared_ld_bank_conflicts 3968 "128 x 31"
expect transpose:transpose_naive shared_st_bank_conflicts 0 "row writes"
expect transpose:transpose_padded shared_ld_wavefronts 128 "128 x 1"
expect transpose:transpose_padded shared_ld_bank_conflicts 0 "odd row stride"
c=$(grep -n "# the column read" "$root/tests/numba/transpose.py" | cut -d: -f1)
grep -q "transpose.py:$c  ld .*conflicts 3968  worst 32-way" "$T/transpose.out" ||
  fail "transpose: the bank report does not blame line $c (32-way)"

run race
w=$(grep -n "# the write" "$root/tests/numba/race.py" | cut -d: -f1)
r=$(grep -n "# the read" "$root/tests/numba/race.py" | cut -d: -f1)
grep -q "Race reported between Write access at .*race.py:$w\$" "$T/race.out" || fail "race: no write at line $w"
grep -q "and Read access at .*race.py:$r " "$T/race.out" || fail "race: no read at line $r"
grep -q "1 launch checked, 1 hazard," "$T/race.out" || fail "race: hazard count"
[ $bad = 0 ] && echo "numba_test: ok"
exit $bad
