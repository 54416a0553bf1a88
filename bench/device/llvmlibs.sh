#!/bin/sh
# llvmlibs.sh OUT.tar.xz: libLLVM 19 and what it needs, for a host without
# LLVM 19 (the device tool's GPU host): llvm/ with libLLVM.so.19.1, the
# small libraries it links (libffi, libedit, libtinfo, libbsd, libmd,
# libz, libzstd) and stand-ins for libz3.so.4 and libxml2.so.2: every
# symbol libLLVM imports from them as an empty function, with libxml2's
# symbol versions (the compiled tier calls neither; leaving them out keeps
# libicu's 30 MB behind). Run there with LD_LIBRARY_PATH=.../llvm and
# SMEMU_LLVM_LIB=.../llvm/libLLVM.so.19.1. About 26 MB.
set -e
OUT=${1:?usage: llvmlibs.sh OUT.tar.xz}
L=$(llvm-config-19 --libdir)/libLLVM.so.19.1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir "$W/llvm"
objdump -T "$L" | awk '/\*UND\*/ && /\(LIBXML2/ {v = $(NF-1); gsub(/[()]/, "", v); print v, $NF}' > "$W/xml.syms"
objdump -T "$L" | awk '/\*UND\*/ && $NF ~ /^Z3_/ {print $NF}' > "$W/z3.syms"
awk '{print "void " $2 "(void) {}"}' "$W/xml.syms" > "$W/xml.c"
awk '{print "void " $1 "(void) {}"}' "$W/z3.syms" > "$W/z3.c"
for v in $(cut -d' ' -f1 "$W/xml.syms" | sort -u); do
  echo "$v { global: $(awk -v v="$v" '$1 == v {printf "%s; ", $2}' "$W/xml.syms") };"
done > "$W/xml.map"
echo "LIBXML2_LOCAL { local: *; };" >> "$W/xml.map"
gcc -shared -fPIC -fno-builtin -o "$W/llvm/libxml2.so.2" -Wl,-soname,libxml2.so.2 -Wl,--version-script="$W/xml.map" "$W/xml.c"
gcc -shared -fPIC -fno-builtin -o "$W/llvm/libz3.so.4" -Wl,-soname,libz3.so.4 "$W/z3.c"
cp -L "$L" "$W/llvm/"
for l in libffi.so.8 libedit.so.2 libtinfo.so.6 libbsd.so.0 libmd.so.0 libz.so.1 libzstd.so.1; do
  cp -L "/lib/x86_64-linux-gnu/$l" "$W/llvm/"
done
tar cf - -C "$W" llvm | xz -6 > "$OUT"
