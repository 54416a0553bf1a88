#!/bin/sh
# Runs every test: the unit and end-to-end test programs, the examples, the
# command-line checks and the fuzz corpus replay. Exit status 0 when none
# failed.
#
# Skips are counted, never passed off as passes: a test that cannot run
# (a tool missing) exits 77 and is a SKIP; a test that ran but skipped some
# of its cases prints one "[  SKIPPED ] CASE" line per case (cmocka's
# skip() does) and is a PASS with those cases named. Every skip is listed
# in BUILD/test-skips.txt. With SMEMU_CI_NO_SKIP=1 (.ci/run sets it, on a
# machine where the build installs every tool) any skip is a failure.
B=${1:-build}
. "$(dirname "$0")/test_run.sh"
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  run "$(basename "$t")" "$t"
done
# the CUDA examples also compare with the outputs an H200 gave
for e in "$B"/examples/*; do
  [ -x "$e" ] || continue
  case $(basename "$e") in
    cl_*) run "example-$(basename "$e")" "$e" ;;
    *) run "example-$(basename "$e")" "$e" --gpu tests/hw/examples ;;
  esac
done
run cli sh tests/cli.sh "$B"
run banks-examples sh tests/banks_examples.sh "$B"
run bank-hints sh tests/bank_hints.sh "$B"
run warpsize sh tests/warpsize.sh "$B"
run counting sh tests/counting.sh "$B"
run sanitizer-hw sh -c 'command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }; exec python3 tests/hw/sanitizer/check.py "$0"' "$B"
run install sh tests/install/install_test.sh "$B"
run html sh tests/html/html_test.sh "$B"
run runtime-pools sh tests/runtime/pools/test.sh "$B"
run numba sh tests/numba/numba_test.sh "$B"
run readme python3 tests/readme/readme_test.py "$B"
run odd-shared sh tests/regress/odd_shared.sh "$B"
run portable sh tests/regress/portable.sh "$B"
run format sh tests/regress/format.sh
run races-hw-wide env SMEMU_GRACE_WIDE=1 "$B/tests/test_races_hw"
run global-sync-wide env SMEMU_GRACE_WIDE=1 "$B/tests/test_global_sync"
run bank-cache-kepler sh tests/regress/bank_cache_kepler.sh "$B"
run jit-cache-limit sh tests/regress/jit_cache_limit.sh "$B"
run sass-retry sh tests/regress/sass_retry.sh "$B"
run fuzz-replay "$B/fuzz_replay" tests/fuzz/corpus
run fuzz-tiers "$B/fuzz_tiers_replay" tests/fuzz/corpus_tiers
run cli-harden sh tests/cli_harden.sh "$B"
run fuzz-rtapi "$B/fuzz_rtapi_replay" tests/fuzz/corpus_rtapi
run fuzz-rtarray "$B/fuzz_rtarray_replay" tests/fuzz/corpus_rtarray
run fuzz-rtnew "$B/fuzz_rtnew_replay" tests/fuzz/corpus_rtnew
run fuzz-fatbin "$B/fuzz_fatbin_replay" tests/fuzz/corpus_fatbin
run runtime-coverage sh tests/runtime/coverage.sh "$B"
run programs sh tests/programs/test.sh "$B"
run static-rt sh tests/hw/static_rt/test.sh "$B"
run sass-cases sh tests/sass/test.sh "$B"
run sass2 sh tests/hw/sass2/test.sh "$B"
run modern-arch sh tests/hw/modern/test_arch.sh "$B"
run modern-cute sh tests/hw/modern/test_cute.sh "$B"
run async-f-hw sh tests/hw/async_f/test.sh "$B"
run cute-tma sh tests/hw/tma/test_cute_tma.sh "$B"
run tma-hw sh tests/hw/tma/test_tma.sh "$B"
run cluster-program sh tests/hw/cluster/test_program.sh "$B"
run rsvsmem-hw sh tests/hw/rsvsmem/test.sh "$B"
run ptx-forms-hw sh tests/hw/ptx_forms/test.sh "$B"
run ptx-isa sh tests/ptx_isa/test.sh "$B"
run textures-hw sh tests/hw/textures/test.sh "$B"
run graphs sh tests/runtime/graphs/test.sh "$B"
run qa sh tests/qa/run.sh "$B"
run qa-static env QA_RUNTIME=static sh tests/qa/run.sh "$B"
run test-sh-counting sh tests/test_sh.sh
# the suites that build whole programs for the shared runtime, once more
# with nvcc's default static runtime (programs, qa and sass2 build both
# ways themselves; static-rt is static only)
static_path="$(cd "$(dirname "$0")/.." && pwd)/tests/hw/static_rt/nvcc_static:$PATH"
run warpsize-static env PATH="$static_path" sh tests/warpsize.sh "$B"
run async-f-hw-static env PATH="$static_path" sh tests/hw/async_f/test.sh "$B"
run cute-tma-static env PATH="$static_path" sh tests/hw/tma/test_cute_tma.sh "$B"
run tma-hw-static env PATH="$static_path" sh tests/hw/tma/test_tma.sh "$B"
run cluster-program-static env PATH="$static_path" sh tests/hw/cluster/test_program.sh "$B"
run rsvsmem-hw-static env PATH="$static_path" sh tests/hw/rsvsmem/test.sh "$B"
run modern-arch-static env PATH="$static_path" sh tests/hw/modern/test_arch.sh "$B"
run modern-cute-static env PATH="$static_path" sh tests/hw/modern/test_cute.sh "$B"
run layers sh -c 'sh scripts/layers.sh --self-test && sh scripts/layers.sh "$0"' "$B"
summary
