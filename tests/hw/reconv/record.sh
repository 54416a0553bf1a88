#!/bin/sh
# record.sh OUTDIR: records the reconvergence kernels on a GPU. Run from the
# repository root: sh tests/hw/reconv/record.sh OUTDIR
# Assembles the checked-in reconv.ptx into a cubin (ptxas -arch=sm_90, so
# the GPU runs the PTX smemu runs), builds driver.cu, and runs every kernel
# three times from the cubin (OUTDIR/run1..run3) and once from the PTX
# through the driver's JIT (OUTDIR/jit), so that joins whose results vary
# from run to run show up (OUTDIR/stability.txt). Also saves the SASS, the
# versions, and whether this machine's nvcc makes the same PTX.
# loops.ptx (loops.cu) is run the same way, its kernels named on the
# driver's command line. Copy OUTDIR/run1/*, stability.txt, versions.txt,
# reconv.sass and loops.sass to
# tests/hw/reconv/recorded/ (test_reconv reads recorded/KERNEL.bin).
OUT=${1:?usage: sh tests/hw/reconv/record.sh OUTDIR}
. "$(dirname "$0")/../common.sh"
mkdir -p "$OUT/build"
{
  date -u
  nvcc --version | tail -2
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
} > "$OUT/versions.txt" 2>&1
timeout 60 ptxas -arch=sm_90 -O3 -lineinfo "$HERE/reconv.ptx" -o "$OUT/build/reconv.cubin" > "$OUT/build.txt" 2>&1
timeout 60 nvcc -arch=sm_90 -o "$OUT/build/driver" "$HERE/driver.cu" -lcuda >> "$OUT/build.txt" 2>&1
timeout 30 nvdisasm -g -c "$OUT/build/reconv.cubin" > "$OUT/reconv.sass" 2>&1 ||
  timeout 30 cuobjdump -sass "$OUT/build/reconv.cubin" > "$OUT/reconv.sass" 2>&1
timeout 60 nvcc -arch=sm_90 -O3 -lineinfo -ptx "$HERE/reconv.cu" -o "$OUT/build/regen.ptx" >> "$OUT/build.txt" 2>&1
if cmp -s "$HERE/reconv.ptx" "$OUT/build/regen.ptx"; then echo "same PTX" > "$OUT/ptx_diff.txt"
else diff "$HERE/reconv.ptx" "$OUT/build/regen.ptx" > "$OUT/ptx_diff.txt" 2>&1; fi
for r in run1 run2 run3; do
  mkdir -p "$OUT/$r"
  timeout 60 "$OUT/build/driver" "$OUT/build/reconv.cubin" "$OUT/$r" > "$OUT/$r/driver.log" 2>&1
  echo "rc $?" >> "$OUT/$r/driver.log"
done
# loops.ptx: more loop shapes, into the same run folders
LOOPS="while_top break_else nested_break return_break do_continue"
timeout 60 ptxas -arch=sm_90 -O3 -lineinfo "$HERE/loops.ptx" -o "$OUT/build/loops.cubin" >> "$OUT/build.txt" 2>&1
timeout 30 nvdisasm -g -c "$OUT/build/loops.cubin" > "$OUT/loops.sass" 2>&1 ||
  timeout 30 cuobjdump -sass "$OUT/build/loops.cubin" > "$OUT/loops.sass" 2>&1
for r in run1 run2 run3; do
  timeout 60 "$OUT/build/driver" "$OUT/build/loops.cubin" "$OUT/$r" $LOOPS >> "$OUT/$r/driver.log" 2>&1
  echo "loops rc $?" >> "$OUT/$r/driver.log"
done
mkdir -p "$OUT/jit"
timeout 60 "$OUT/build/driver" "$HERE/loops.ptx" "$OUT/jit" $LOOPS > "$OUT/jit/loops.log" 2>&1
timeout 60 "$OUT/build/driver" "$HERE/reconv.ptx" "$OUT/jit" > "$OUT/jit/driver.log" 2>&1
echo "rc $?" >> "$OUT/jit/driver.log"
ls "$OUT"/run1/*.bin > /dev/null 2>&1 || echo "record: run1 made no recordings (see run1/driver.log)"
for b in "$OUT"/run1/*.bin; do
  [ -f "$b" ] || continue
  k=$(basename "$b" .bin)
  for r in run2 run3 jit; do
    if cmp -s "$b" "$OUT/$r/$k.bin"; then echo "$k $r same"
    else echo "$k $r DIFFERENT"; diff "$OUT/run1/$k.txt" "$OUT/$r/$k.txt" | head -40; fi
  done
done > "$OUT/stability.txt" 2>&1
cat "$OUT/build.txt" "$OUT/stability.txt"
rm -f "$OUT/build/driver"
