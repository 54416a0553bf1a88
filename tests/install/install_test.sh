#!/bin/sh
# install_test.sh BUILD: `make install` from a fresh clone of this
# repository's HEAD into a DESTDIR, then, with the clone moved away, the
# installed tool runs a kernel (exec) and a CUDA program (run, where nvcc
# can build one) from outside any tree, a program builds against the
# installed library (pkg-config; shared and static), the man page holds
# the help text; `make demo` would build every demo (mk/*.mk's too);
# `make uninstall` must leave no file behind.
B=$(cd "${1:-build}" && pwd) || exit 2
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
command -v git >/dev/null 2>&1 || { echo "install_test: git is missing" >&2; exit 77; }
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }
git clone -q "$root" "$T/src" || fail "git clone"
P=/opt/smemu-test
D="$T/dest"
I="$D$P"
(cd "$T/src" && nice make -j2 install PREFIX=$P DESTDIR="$D" >"$T/make.log" 2>&1) ||
  { tail -20 "$T/make.log"; fail "make install"; }
for f in bin/smemu lib/smemu/libcudart.so.13 lib/smemu/libcuda.so.1 include/smemu.h lib/libsmemu.a \
         lib/libsmemu.so lib/pkgconfig/smemu.pc share/man/man1/smemu.1 share/doc/smemu/LICENSE; do
  [ -e "$I/$f" ] || fail "not installed: $f"
done
ver=$(sed -n 's/^#define SMEMU_VERSION "\(.*\)"/\1/p' "$root/include/smemu.h")
[ -f "$I/lib/libsmemu.so.$ver" ] || fail "no lib/libsmemu.so.$ver"
if command -v readelf >/dev/null 2>&1; then
  readelf -d "$I/lib/libsmemu.so.$ver" | grep -q "SONAME.*\[libsmemu\.so\.${ver%%.*}\]" || fail "soname"
fi
# the man page carries every line of `smemu help exec` (roff-escaped: \ is \e)
"$I/bin/smemu" help exec | sed 's/\\/\\e/g' > "$T/help.txt"
grep -F -x -f "$T/help.txt" "$I/share/man/man1/smemu.1" > "$T/found.txt"
[ "$(sort -u "$T/help.txt" | wc -l)" = "$(sort -u "$T/found.txt" | wc -l)" ] || fail "man page lacks help lines"

# `make demo` builds every demo's prerequisites, mk/*.mk's included (the
# OpenCL drivers, the nvcc-built programs): a dry run lists their commands
(cd "$T/src" && make -n demo > "$T/demo-n.txt" 2>&1) || { tail "$T/demo-n.txt"; fail "make -n demo"; }
for ex in "$root"/examples/cl/*.c; do
  n=$(basename "$ex" .c)
  grep -q "examples/cl_$n " "$T/demo-n.txt" || fail "make demo does not build cl_$n"
done
grep -q "tests/runtime/build.sh" "$T/demo-n.txt" || fail "make demo does not build the CUDA programs"

# nothing of the build tree is left where it was
mv "$T/src" "$T/moved"
mkdir "$T/work" && cp "$root/examples/reverse.ptx" "$T/work/" && cd "$T/work" || exit 2
"$I/bin/smemu" exec reverse.ptx --kernel staticReverse --grid 1 --block 64 \
  --arg buf:s32:64:iota:print --arg s32:64 --quiet > out.txt 2>&1 || { cat out.txt; fail "installed exec"; }
grep -q '^63 62 61 60 59 58 57 56$' out.txt || { cat out.txt; fail "exec output"; }
echo "install_test: exec ok"

if command -v nvcc >/dev/null 2>&1; then
  # (reverse_main.cu includes ../reverse.cu)
  mkdir -p prog/programs && cp "$root/examples/reverse.cu" prog/ && cp "$root/examples/programs/reverse_main.cu" prog/programs/ &&
    nvcc -arch=sm_90 -cudart shared -lineinfo -o reverse prog/programs/reverse_main.cu >nvcc.log 2>&1 ||
    { cat nvcc.log; fail "nvcc"; }
  env -u LD_LIBRARY_PATH -u SMEMU_RUNTIME_DIR "$I/bin/smemu" run --check races,sync -- ./reverse > run.txt 2>&1 ||
    { cat run.txt; fail "installed run"; }
  grep -q "smemu checks" run.txt || { cat run.txt; fail "run: no smemu report"; }
  echo "install_test: run ok"
else
  echo "install_test: nvcc is not on the PATH: the run part is skipped"
fi

cc_ok=1
if command -v pkg-config >/dev/null 2>&1; then
  flags=$(PKG_CONFIG_PATH="$I/lib/pkgconfig" pkg-config --define-variable=prefix="$I" --cflags --libs smemu) || fail "pkg-config"
else
  flags="-I$I/include -L$I/lib -lsmemu"
fi
cc -std=c11 -o use_shared "$root/tests/install/use_lib.c" $flags -Wl,-rpath,"$I/lib" -lm -pthread || fail "link shared"
./use_shared reverse.ptx || fail "shared library program"
ldd ./use_shared | grep -q "libsmemu.so.${ver%%.*} => $I/lib" || fail "not linked to the installed libsmemu.so"
# a static link also takes the private libraries (-ldl: the compiled tier
# loads LLVM when it first compiles)
if command -v pkg-config >/dev/null 2>&1; then
  extra=$(PKG_CONFIG_PATH="$I/lib/pkgconfig" pkg-config --define-variable=prefix="$I" --static --libs smemu | sed 's/-lsmemu//') ||
    fail "pkg-config --static"
else
  extra=-ldl
fi
cc -std=c11 -o use_static "$root/tests/install/use_lib.c" -I"$I/include" "$I/lib/libsmemu.a" $extra -lm -pthread || fail "link static"
./use_static reverse.ptx || fail "static library program"

cd "$T" && mv "$T/moved" "$T/src"
(cd "$T/src" && make uninstall PREFIX=$P DESTDIR="$D" >"$T/un.log" 2>&1) || { cat "$T/un.log"; fail "make uninstall"; }
left=$(find "$D" ! -type d)
[ -z "$left" ] || fail "uninstall left: $left"
[ ! -d "$I/lib/smemu" ] || fail "uninstall left lib/smemu"
echo "install_test: install, exec, run, library, uninstall ok"
