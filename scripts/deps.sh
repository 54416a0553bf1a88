#!/bin/sh
# Installs the Debian packages the tests need, when they are missing:
# cmocka (unit tests), clang-14 and libclc-14 (OpenCL C to PTX), PoCL and
# the OpenCL headers (the PoCL comparison), libzstd (compressed fatbinaries),
# python3 and python3-venv (README and Numba tests), chromium (the HTML report's test),
# llvm-19-dev (the compiled tier, mk/jit.mk), libthrust-dev and libcub-dev
# (their example programs are the third-party corpus, tests/corpus).
# NVIDIA's disassembler for SASS-informed counting (src/sass/tool.c looks in
# build/pydeps): the PyPI wheel, when no CUDA toolkit provides it; offline,
# smemu counts by PTX rules and the SASS tests use checked-in disassembly.
if ! command -v nvdisasm >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvdisasm ] &&
   ! ls build/pydeps/nvidia/*/bin/nvdisasm >/dev/null 2>&1; then
  python3 -m pip install -q --disable-pip-version-check --target build/pydeps nvidia-cuda-nvdisasm \
    >/dev/null 2>&1 || echo "deps: nvidia-cuda-nvdisasm not installed (SASS counting needs nvdisasm)" >&2
fi
need=""
[ -f /usr/include/cmocka.h ] || need="$need libcmocka-dev"
command -v clang-14 >/dev/null 2>&1 || need="$need clang-14"
{ command -v clang-format >/dev/null 2>&1 || command -v clang-format-14 >/dev/null 2>&1; } || need="$need clang-format"
[ -f /usr/lib/clc/nvptx64--nvidiacl.bc ] || need="$need libclc-14"
{ [ -f /usr/include/CL/cl.h ] && ls /usr/lib/*/libOpenCL.so >/dev/null 2>&1; } || need="$need ocl-icd-opencl-dev"
[ -f /etc/OpenCL/vendors/pocl.icd ] || need="$need pocl-opencl-icd"
ls /usr/lib/*/libzstd.so.1 >/dev/null 2>&1 || need="$need libzstd1"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# the Numba tests install numba-cuda into virtual environments
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || need="$need python3-venv"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v llvm-config-19 >/dev/null 2>&1 || need="$need llvm-19-dev"
command -v qemu-x86_64 >/dev/null 2>&1 || need="$need qemu-user"
[ -d /usr/share/doc/libthrust-dev/examples ] || need="$need libthrust-dev"
[ -d /usr/share/doc/libcub-dev/examples ] || need="$need libcub-dev"
[ -z "$need" ] && exit 0
echo "deps: installing$need" >&2
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
# Where the packages cannot be had (no network, no root), the tests that
# need them skip and say so (CI, SMEMU_CI_NO_SKIP=1, counts each as failed).
$SUDO apt-get update -qq >/dev/null 2>&1 && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null ||
  echo "deps: could not install$need: the tests that need them will skip" >&2
exit 0
