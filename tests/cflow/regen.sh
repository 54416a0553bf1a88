#!/bin/sh
# regen.sh: regenerates the control-flow corpus: the .cu files (gen.py), their
# PTX (nvcc -arch=sm_90 -O3 -lineinfo -ptx) and the host reference outputs
# (the same f compiled for and run on the CPU). Run from tests/cflow.
set -e
python3 gen.py 7 12
for f in cflow*.cu; do
  b=${f%.cu}
  nvcc -arch=sm_90 -O3 -lineinfo -ptx "$f" -o "$b.ptx"
  sed -i "s|\"$(pwd)/|\"tests/cflow/|" "$b.ptx"
  nvcc -O2 -o /tmp/$b.host "$f" && /tmp/$b.host > "$b.expected"
done
