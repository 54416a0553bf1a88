#!/bin/sh
# regen.sh: rebuilds the sample PTX files of test_parser.c from their sources
# (CUDA 13 nvcc and NVRTC, clang-14). The tests check facts of these exact
# files (line numbers included): after regenerating, update the tests.
set -e
cd "$(dirname "$0")"
nvcc -arch=sm_90 -O3 -lineinfo -ptx nvcc_k1.cu -o nvcc_O3_lineinfo.ptx
nvcc -arch=sm_90 -G -ptx nvcc_k1.cu -o nvcc_G.ptx
nvcc -arch=sm_90 -O3 -ptx nvcc_k2.cu -o nvcc_init.ptx
nvcc -arch=sm_90 -O3 -ptx nvcc_k3.cu -o nvcc_packed.ptx
clang-14 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -S -O2 -o clang_opencl.ptx clang_k.cl
clang-14 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -O2 -gline-tables-only -Wno-linker-warnings \
  -Xclang -mlink-builtin-bitcode -Xclang /usr/lib/clc/nvptx64--nvidiacl.bc -S \
  -o clang_opencl_libclc.ptx clang_k.cl
clang-14 -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -g -S \
  -o clang_cuda_g.ptx clang_k.cu
cc -I/usr/local/cuda/include nvrtc_gen.c -L/usr/local/cuda/lib64 -lnvrtc -o /tmp/nvrtc_gen
LD_LIBRARY_PATH=/usr/local/cuda/lib64 /tmp/nvrtc_gen > nvrtc.ptx
