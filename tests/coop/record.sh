#!/bin/sh
# record.sh OUTDIR: on a GPU machine, builds grid_sync and plain_sync as
# test.sh does and writes what they print to OUTDIR/NAME.gpu (copy them to
# tests/coop/recorded/). uneven_sync is not run: it never ends on a GPU.
here=$(cd "$(dirname "$0")" && pwd) || exit 2
out=${1:?usage: record.sh OUTDIR}
mkdir -p "$out"
for p in grid_sync plain_sync; do
  nvcc -arch=sm_90 -lineinfo -o "$out/$p" "$here/$p.cu" || exit 1
  "$out/$p" >"$out/$p.gpu" 2>&1
  rm -f "$out/$p"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/device.txt"
