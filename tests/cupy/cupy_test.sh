#!/bin/sh
# cupy_test.sh BUILD: CuPy (cupy-cuda13x, with NVRTC from PyPI) under
# `smemu run`, twice: with the pinned versions of requirements-pinned.txt
# and with the newest releases (refreshed once a day), each in its own
# virtual environment under BUILD/py (venv-cupy-pinned, venv-cupy-latest),
# so that a newer release that breaks smemu fails here. Each script
# (tests/cupy/*.py) checks its results against NumPy on the CPU and prints
# "NAME: ok" lines; this checks that they ran on smemu, what smemu's checks
# report (bank conflicts and a planted race, against arithmetic stated here
# from the kernels' source), that the reductions ran with and without
# CUB, and that what needs cuBLAS, cuFFT or cuSPARSE stops with a message
# naming the library. CuPy keeps the kernels NVRTC compiled in
# BUILD/py/cupy-cache-VARIANT (its cache keys hold CuPy's and NVRTC's
# versions), so that a run after the first takes seconds. Exit 77, saying
# why, without python3 (with venv) or the packages (pip offline).
B=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
here=$root/tests/cupy
skip() {
  echo "cupy_test: SKIP: $*"
  exit 77
}
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
python3 -c "import venv, ensurepip" 2>/dev/null || skip "python3 has no venv/ensurepip (Debian: python3-venv)"
. "$root/tests/common/pyvenv.sh"

# the newest CuPy for CUDA 13 and the newest NVRTC of CUDA 13
pyvenv_pair "$B" cupy "$here/requirements-pinned.txt" cupy-cuda13x "nvidia-cuda-nvrtc==13.*"
variants=$pyvenv_list
[ -n "$variants" ] || skip "pip could not install cupy-cuda13x (offline?)"

T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
bad=0
fail() {
  echo "cupy_test: FAIL: $V: $*"
  bad=1
}
# run [VAR=VALUE...] NAME SCRIPT [ARGS...]: the script under smemu run with
# every check and those variables (no spaces in them), from outside the
# tree, output in T/NAME.out, figures in T/NAME.json
run() {
  vars=
  while case $1 in *=*) true ;; *) false ;; esac; do
    vars="$vars $1"
    shift
  done
  name=$1 script=$2
  shift 2
  # shellcheck disable=SC2086
  (cd "$T" && env $vars CUPY_CACHE_DIR="$B/py/cupy-cache-$V" PYTHONWARNINGS=ignore timeout 300 \
    "$B/smemu" run --check races,sync,banks --report banks --json "$T/$name.json" -- "$PY" "$here/$script.py" "$@") \
    >"$T/$name.out" 2>&1
  echo "== $V: $name (exit $?)"
  cat "$T/$name.out"
}
# fig NAME FIELD [PART]: the sum of a JSON kernel figure over the kernels
# whose name holds PART
fig() {
  python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels']; print(sum(x[sys.argv[2]] for x in k if sys.argv[3] in x['name']))" \
    "$T/$1.json" "$2" "${3:-}"
}
expect() { # NAME FIELD PART WANT WHY
  got=$(fig "$1" "$2" "$3" 2>/dev/null)
  [ "$got" = "$4" ] || fail "$1: ${3:+$3 }$2 is $got, want $4 ($5)"
}
# oks NAME COUNT [warnings]: COUNT "...: ok" lines, nothing WRONG, no
# hazard in CuPy's own kernels (with "warnings": none but warnings)
oks() {
  got=$(grep -c ": ok$" "$T/$1.out")
  [ "$got" = "$2" ] || fail "$1: $got results ok, want $2"
  ! grep -q "WRONG" "$T/$1.out" || fail "$1: $(grep WRONG "$T/$1.out" | head -3)"
  if [ "${3:-}" = warnings ]; then
    grep -q "launches checked, .* 0 barrier errors" "$T/$1.out" && ! grep -q "^Error: " "$T/$1.out" ||
      fail "$1: smemu's checks found errors"
  else
    grep -q "launches checked, 0 hazards, 0 barrier errors" "$T/$1.out" || fail "$1: not checked clean by smemu"
  fi
}

for V in $variants; do
  PY="$B/py/venv-cupy-$V/bin/python"
  echo "cupy_test: $V: $("$PY" -m pip list --disable-pip-version-check 2>/dev/null |
    awk '$1 ~ /^(cupy-cuda13x|nvidia-cuda-nvrtc|numpy)$/ {printf "%s %s  ", $1, $2}')"

  run basics basics
  oks basics 22
  # ptxas older than NVRTC's PTX (13.0 against 13.5's .version 9.5) is
  # said once, not tried and said again for each of CuPy's modules
  [ "$(grep -c "SASS counting: " "$T/basics.out")" -le 1 ] || fail "basics: SASS counting failed more than once"

  # CUPY_ACCELERATORS=cub: whole-array reductions by the CUB kernels of
  # CuPy's cub module (whose fatbinary holds compute_120 PTX and SASS for
  # sm_75..sm_120), reductions along an axis by NVRTC-compiled CUB
  run CUPY_ACCELERATORS=cub reductions-cub reductions cub
  oks reductions-cub 11
  [ "$(fig reductions-cub launches cub::)" -gt 0 ] 2>/dev/null || fail "reductions-cub: no CUB kernel ran"
  run CUPY_ACCELERATORS= reductions-plain reductions none
  oks reductions-plain 11
  expect reductions-plain launches cub:: 0 "CUB is off"

  # cupy_nonzero_kernel_incomplete_scan's warp-synchronous scan is
  # reported as a warning (lanes of one warp, no __syncwarp between them)
  run sorting sorting
  oks sorting 6 warnings
  grep -q "^device: smemu sm_90 (H100 SXM5), compute capability 9.0$" "$T/sorting.out" ||
    fail "sorting: CuPy's getDeviceProperties is not the emulated sm_90"

  run streams streams
  oks streams 7

  run kernels kernels
  oks kernels 8
  # CuPy's reduction kernels reduce through shared memory
  [ "$(fig kernels shared_st_requests l2norm)" -gt 0 ] 2>/dev/null ||
    fail "kernels: the ReductionKernel l2norm made no shared-memory stores"

  run shared shared
  grep -q "^transpose<32>: ok$" "$T/shared.out" || fail "shared: transpose<32> wrong"
  grep -q "^transpose<33>: ok$" "$T/shared.out" || fail "shared: transpose<33> wrong"
  # 64 x 64 floats: 2 x 2 blocks of 8 warps, 4 row steps each: 128 tile
  # stores and 128 tile loads per kernel. The column read tile[tx * 32 + row]
  # puts lane tx on word 32 tx + row, all in one bank: 32 wavefronts a
  # load (128 x 31 = 3968 conflicts); rows of 33 words spread the lanes
  # over the 32 banks
  expect shared shared_ld_requests "transpose<32>" 128 "2 x 2 x 8 x 4"
  expect shared shared_ld_wavefronts "transpose<32>" 4096 "128 x 32"
  expect shared shared_ld_bank_conflicts "transpose<32>" 3968 "128 x 31"
  expect shared shared_st_bank_conflicts "transpose<32>" 0 "row writes"
  expect shared shared_ld_wavefronts "transpose<33>" 128 "128 x 1"
  expect shared shared_ld_bank_conflicts "transpose<33>" 0 "odd row stride"
  c=$(sed -n 's/^lines: column read //p' "$T/shared.out")
  grep -q "\.cu:$c  ld .*conflicts 3968  worst 32-way" "$T/shared.out" ||
    fail "shared: the bank report does not blame the column read (line $c of the source, 32-way)"
  w=$(sed -n 's/^lines: write \([0-9]*\) read .*/\1/p' "$T/shared.out")
  r=$(sed -n 's/^lines: write [0-9]* read //p' "$T/shared.out")
  grep -q "Race reported between Write access at .*\.cu:$w\$" "$T/shared.out" || fail "shared: no race write at line $w"
  grep -q "and Read access at .*\.cu:$r " "$T/shared.out" || fail "shared: no race read at line $r"
  grep -q "3 launches checked, 1 hazard, 0 barrier errors" "$T/shared.out" || fail "shared: hazard count"

  # NVIDIA's libraries: installed, each is refused by name; not installed,
  # the loader's error names its file
  run libs libs
  for l in cublas:cuBLAS cufft:cuFFT cusparse:cuSPARSE; do
    op=${l%%:*} lib=${l#*:}
    grep -q "^$op: stopped: " "$T/libs.out" || fail "libs: $op did not stop"
    grep -q "NVIDIA's $lib, which smemu does not provide" "$T/libs.out" ||
      grep -q "^$op: stopped: .*lib$op" "$T/libs.out" || fail "libs: $op stopped without naming $lib"
  done
  grep -q "^curand: ok$" "$T/libs.out" || grep -q "^curand: stopped: .*libcurand" "$T/libs.out" ||
    fail "libs: cuRAND neither matched its host generator nor stopped naming libcurand"
  ! grep -q "WRONG" "$T/libs.out" || fail "libs: $(grep WRONG "$T/libs.out" | head -3)"

  # the user's CUPY_COMPILE_WITH_PTX=0 is kept: CuPy hands over a cubin,
  # which smemu refuses, naming the variable
  run CUPY_COMPILE_WITH_PTX=0 cubin cubin
  grep -q "^cubin: stopped: .*CUDA_ERROR_INVALID_IMAGE" "$T/cubin.out" || fail "cubin: CuPy's cubin was not refused"
  grep -q "cubin (SASS only).*CUPY_COMPILE_WITH_PTX=1" "$T/cubin.out" || fail "cubin: the refusal does not name CUPY_COMPILE_WITH_PTX"
done
[ $bad = 0 ] && echo "cupy_test: ok"
exit $bad
