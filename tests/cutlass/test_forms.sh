#!/bin/sh
# test_forms.sh BUILD: forms.cu (the integer mma.sync shapes and the
# cvt.pack.sat forms of CUTLASS's sub-byte kernels) under `smemu run`, every
# result word equal to the H200's (recorded/forms.out, by gpu_run.sh).
# Skips (77) without nvcc.
B=${1:-build}
HERE=$(dirname "$0")
command -v nvcc > /dev/null 2>&1 || { echo "nvcc not on the PATH: skipped"; exit 77; }
. "$HERE/../common/out_dir.sh"
P="$O/cutlass-forms"
if [ ! -x "$P" ] || [ "$HERE/forms.cu" -nt "$P" ]; then
  nvcc -std=c++17 -cudart shared -gencode=arch=compute_90a,code=compute_90a -o "$P" "$HERE/forms.cu" || exit 1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/smemu" run "$P" > "$T/got" 2>&1
echo "exit $?" >> "$T/got"
if diff "$HERE/recorded/forms.out" "$T/got" > "$T/diff"; then
  echo "ok: $(grep -c '^[mp]' "$T/got") lanes' results (forms x trials x 32 lanes) equal the H200's"
  exit 0
fi
echo "FAIL: forms.cu under smemu differs from the H200 (< H200, > smemu):"
head -40 "$T/diff"
exit 1
