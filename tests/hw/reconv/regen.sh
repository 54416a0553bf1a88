#!/bin/sh
# regen.sh: regenerates the checked-in reconv.ptx and loops.ptx from their .cu with the
# project's nvcc command line. Run from anywhere.
set -e
cd "$(dirname "$0")"
${NVCC:-nvcc} -arch=sm_90 -O3 -lineinfo -ptx reconv.cu -o reconv.ptx
${NVCC:-nvcc} -arch=sm_90 -O3 -lineinfo -ptx loops.cu -o loops.ptx
