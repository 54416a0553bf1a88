#!/bin/sh
# test.sh BUILD: forms.cu under `smemu run` against the H200's recording
# (recorded/forms.out, made by record.sh): cvt to .tf32 and packed halves
# with .relu/.satfinite, fp8 pairs, set/setp/min/max on .f16x2/.bf16x2 with
# .NaN and .xorsign.abs, fma.relu, ex2/tanh .approx, the scalar video
# instructions and szext, vset2/vset4, a single f16/bf16 from f32 with
# .relu/.satfinite, bf16 to f32 with a rounding modifier, f16 <-> bf16,
# mad24.hi.sat, 144 inputs each (compare.py says how the .approx forms are
# compared). Both tiers. Skips (77) without nvcc or python3.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH"; exit 77; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
nvcc -gencode=arch=compute_90a,code=compute_90a -cudart shared -o "$T/forms" "$HERE/forms.cu" > "$T/log" 2>&1 || { cat "$T/log"; exit 1; }
fail=0
for tier in interp jit; do
  SMEMU_TIER=$tier "$B/smemu" run -- "$T/forms" > "$T/out" 2>&1
  if ! python3 "$HERE/compare.py" "$HERE/recorded/forms.out" "$T/out" > "$T/cmp"; then
    echo "FAIL ($tier):"; head -40 "$T/cmp"; fail=1
  else
    echo "ok ($tier): $(tail -1 "$T/cmp")"
  fi
done
exit $fail
