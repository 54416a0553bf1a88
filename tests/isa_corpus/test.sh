#!/bin/sh
# test.sh BUILD [--full]: the corpus lint. Compiles corpus.txt's sources
# (cub and thrust algorithms for common types, CuTe tutorials, CUTLASS
# examples of the nvidia-cutlass wheel) to PTX for compute_90a, cached in
# BUILD/isa_corpus, and lints them with every nvcc-made .ptx checked in:
# every kernel must decode, or be named in known_gaps.txt. `make
# isa-corpus` passes --full (the whole list and every tests/**/*.cu).
B=${1:-build}
H=$(dirname "$0")
command -v python3 > /dev/null 2>&1 || { echo "python3 missing: skipped"; exit 77; }
W="$B/cutlass-wheel"
if command -v nvcc > /dev/null 2>&1; then
  # the wheel the CuTe suites install (one at a time, the other waits)
  # shellcheck disable=SC2016
  flock "$B/cutlass.lock" sh -c '[ -d "$1/cutlass_library/source/include/cute" ] ||
    python3 -m pip install --quiet --no-deps --target "$1" nvidia-cutlass==4.2.0.0 > "$2" 2>&1' sh "$W" "$B/cutlass-pip.log" ||
    echo "note: pip could not install nvidia-cutlass (log: $B/cutlass-pip.log)"
fi
# shellcheck disable=SC2086
python3 "$H/corpus.py" --smemu "$B/smemu" --out "$B/isa_corpus" --cutlass "$W/cutlass_library/source" \
  --gaps "$H/known_gaps.txt" $2
