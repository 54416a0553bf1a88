#!/bin/sh
# regen.sh: regenerates the checked-in reconv.ptx from reconv.cu with the
# project's nvcc command line. Run from anywhere.
set -e
cd "$(dirname "$0")"
${NVCC:-nvcc} -arch=sm_90 -O3 -lineinfo -ptx reconv.cu -o reconv.ptx
