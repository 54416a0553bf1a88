#!/bin/sh
# regen_ptx.sh: the checked-in PTX of sregs.cu, warpmask.cu and smemcfg.cu
# (what test_fidelity_hw runs), from the repository root, with nvcc 13:
# the same PTX the recording's binaries embed (record.sh saves its own copy
# under OUTDIR/ptx to compare). Source paths are made repository-relative.
set -e
for p in sregs warpmask smemcfg; do
  nvcc -arch=sm_90 -lineinfo -ptx -o tests/hw/fidelity/$p.ptx tests/hw/fidelity/$p.cu
  sed -i "s|\"$(pwd)/tests/hw/fidelity/|\"tests/hw/fidelity/|" tests/hw/fidelity/$p.ptx
done
