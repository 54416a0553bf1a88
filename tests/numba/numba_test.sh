#!/bin/sh
# numba_test.sh BUILD: unmodified Numba CUDA scripts (tests/numba/*.py)
# and a fast part of numba-cuda's own test suite under `smemu run`, with
# the toolkit's NVVM, twice: with the pinned versions of
# requirements-pinned.txt and with the newest releases (`pip install -U
# numba-cuda`, refreshed once a day), each in its own virtual environment
# under BUILD/py (venv-pinned, venv-latest). A newer release that breaks
# smemu fails here. Each script checks its own results against numpy
# ("NAME: ok" lines); this test checks that they ran on smemu and what
# smemu reports, against arithmetic stated here from the kernels' source
# (see each expectation) and the scripts' own line numbers for the race.
# Exit 77, saying why, without python3 (with venv), NVVM (libnvvm and
# libdevice) or the packages (pip offline).
B=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
here=$root/tests/numba
# the packages numba-cuda's tests import, besides numba-cuda
TEST_PKGS="pytest filecheck cffi ml_dtypes"
# the fast part of numba-cuda's suite run here (suite.sh runs all of it)
SUITE_FAST="test_sm test_sync"
skip() { echo "numba_test: SKIP: $*"; exit 77; }
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
python3 -c "import venv, ensurepip" 2>/dev/null || skip "python3 has no venv/ensurepip (Debian: python3-venv)"

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

# venv NAME KEY PIP-ARGS...: BUILD/py/venv-NAME holding PIP-ARGS,
# installed again (pip install into the same environment) when KEY, what
# it was installed for, changed. Fails when pip cannot install; an older
# installation then stays as it was.
venv() {
  name=$1 key=$2
  shift 2
  V="$B/py/venv-$name"
  [ -x "$V/bin/python" ] && [ "$(cat "$V/.installed" 2>/dev/null)" = "$key" ] && return 0
  mkdir -p "$B/py"
  { [ -x "$V/bin/python" ] || python3 -m venv "$V"; } >"$B/py/pip-$name.log" 2>&1 &&
    "$V/bin/python" -m pip install -q --disable-pip-version-check "$@" >>"$B/py/pip-$name.log" 2>&1 &&
    echo "$key" >"$V/.installed"
}
pinned_key=$(cksum <"$here/requirements-pinned.txt")
variants=
if venv pinned "$pinned_key" -r "$here/requirements-pinned.txt"; then
  variants="pinned"
else
  echo "numba_test: pip could not install the pinned versions (see $B/py/pip-pinned.log)"
fi
if venv latest "$(date -u +%F)" -U numba-cuda $TEST_PKGS; then
  variants="$variants latest"
elif [ -x "$B/py/venv-latest/bin/python" ] && [ -s "$B/py/venv-latest/.installed" ]; then
  echo "numba_test: pip could not update the newest versions (see $B/py/pip-latest.log): using those of $(cat "$B/py/venv-latest/.installed")"
  variants="$variants latest"
else
  echo "numba_test: pip could not install the newest versions (see $B/py/pip-latest.log)"
fi
[ -n "$variants" ] || skip "pip could not install numba-cuda (offline?)"
# the newest releases may be the pinned ones: then once is enough
freeze() { "$B/py/venv-$1/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null; }
if [ "$variants" = "pinned latest" ] && [ "$(freeze pinned)" = "$(freeze latest)" ]; then
  echo "numba_test: the newest releases are the pinned versions: run once"
  variants=pinned
fi

T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
bad=0
fail() { echo "numba_test: FAIL: ${V:+$V: }$*"; bad=1; }
run() { # NAME ARGS...: the script under smemu run, from outside the tree
  name=$1; shift
  (cd "$T" && CUDA_HOME="$home" PYTHONWARNINGS=ignore timeout 300 \
    "$B/smemu" run --check races,sync,banks --report banks --json "$T/$name.json" -- "$PY" "$here/$name.py" "$@") \
    >"$T/$name.out" 2>&1
  echo "== $V: $name (exit $?)"; cat "$T/$name.out"
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
oks() { # NAME COUNT: the script printed COUNT "...: ok" lines and nothing WRONG
  got=$(grep -c ": ok$" "$T/$1.out")
  [ "$got" = "$2" ] || fail "$1: $got results ok, want $2"
  ! grep -q "WRONG" "$T/$1.out" || fail "$1: $(grep WRONG "$T/$1.out" | head -3)"
}

for V in $variants; do
PY="$B/py/venv-$V/bin/python"
echo "numba_test: $V: $("$PY" -m pip list --disable-pip-version-check 2>/dev/null |
  awk '$1 ~ /^(numba-cuda|numba|cuda-core|cuda-bindings|numpy)$/ {printf "%s %s  ", $1, $2}')"

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

# the Numba features, each result checked by its script
run numpy_args
oks numpy_args 2
# NumPy arguments: two copies in and one out per launch, through the pool
grep -q "2 launches checked" "$T/numpy_args.out" || fail "numpy_args: not checked by smemu"
run device_arrays
oks device_arrays 8
run streams_events
oks streams_events 5
run memories
oks memories 3
run atomics
oks atomics 4
run grid_sync
oks grid_sync 3
# device functions of a CUDA C++ file: the JIT linker joins two PTX inputs
run link
oks link 2
# a cooperative launch with a grid barrier (libcudadevrt's calls are built in)
run coop
oks coop 2

# numba-cuda's own tests, the fast part
(cd "$T" && CUDA_HOME="$home" timeout 600 python3 "$here/suite.py" "$B/smemu" "$PY" "$T/suite-$V.txt" $SUITE_FAST) \
  >"$T/suite-$V.out" 2>&1 || fail "$V: numba-cuda's tests $SUITE_FAST: $(cat "$T/suite-$V.txt.failures" 2>/dev/null | head -5)"
cat "$T/suite-$V.out"
done
[ $bad = 0 ] && echo "numba_test: ok"
exit $bad
