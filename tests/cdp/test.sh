#!/bin/sh
# test.sh BUILD: dynamic parallelism (kernels that launch kernels). Builds
# each program of this folder with nvcc -rdc=true -arch=sm_90 -lineinfo,
# with -cudart shared and with nvcc's default static runtime, into
# BUILD/cdp, runs both under BUILD/smemu and compares what they print with
# what an H200 printed (recorded/NAME.out, from record.sh): line for line,
# or as sorted lines for depth (the order of device printf output from
# different grids is not fixed on a GPU). Lines the comparison leaves out,
# and why (see recorded/README.md):
#   api "limits:", "attributes", "registers"  formats with %zu, which the
#                      H200's device printf did not expand
#   oob                the H200 without compute-sanitizer does not notice
#                      the bad write; smemu does (cudaErrorIllegalAddress):
#                      smemu's memcheck records are compared with the
#                      H200's compute-sanitizer memcheck instead, and the
#                      faulting child's launch site must be named.
# smemu lint must find every program's kernels decodable (each translation
# unit linted with what the others define), and smemu exec, which has no
# CUDA runtime, must refuse a kernel's device-side launch with a message.
# Exits 77 (skip) without nvcc 13.
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
. "$here/../common/nvcc_suite.sh"
suite_need_smemu cdp "$B"
suite_need_nvcc cdp
out=$B/cdp
mkdir -p "$out/shared" "$out/static" || exit 2
progs="depth tail streams pending oob race api graph reset structarg"
rc=0
for v in "shared|-cudart shared" "static|-cudart static"; do
  d=$out/${v%%|*}
  flags=${v#*|}
  for p in $progs; do
    if [ ! -x "$d/$p" ] || [ "$here/$p.cu" -nt "$d/$p" ]; then
      # shellcheck disable=SC2086
      if ! nice "$NVCC" -rdc=true -arch=sm_90 -lineinfo $flags -o "$d/$p" "$here/$p.cu" >"$d/$p.log" 2>&1; then
        echo "cdp: $d/$p did not build:"
        cat "$d/$p.log"
        rm -f "$d/$p"
        rc=1
        continue
      fi
    fi
    "$B/smemu" run "$d/$p" >"$d/$p.out" 2>"$d/$p.err"
    want=$here/recorded/$p.out
    case $p in
    depth) sort "$d/$p.out" >"$d/$p.got" && sort "$want" >"$d/$p.want" ;;
    api)
      grep -Ev "^(limits|attributes|registers)" "$d/$p.out" >"$d/$p.got"
      grep -Ev "^(limits|attributes|registers)" "$want" >"$d/$p.want"
      ;;
    oob)
      # memcheck's records without addresses, as the H200's compute-sanitizer gave them
      "$B/smemu" run --check memcheck "$d/$p" >"$d/$p.mc" 2>&1
      pat="^=========.*(Invalid __global__|by thread|bytes after)"
      { grep -E "$pat" "$d/$p.mc" | sed 's/0x[0-9a-f]*/ADDR/g' && grep "^oob:" "$d/$p.mc"; } >"$d/$p.got"
      { grep -E "$pat" "$here/recorded/oob.memcheck.txt" | sed 's/0x[0-9a-f]*/ADDR/g' &&
        grep "^oob:" "$here/recorded/oob.memcheck.txt"; } >"$d/$p.want"
      ;;
    *) cp "$d/$p.out" "$d/$p.got" && cp "$want" "$d/$p.want" ;;
    esac
    if ! cmp -s "$d/$p.got" "$d/$p.want"; then
      echo "cdp: $p (${v%%|*} runtime) differs from the H200's output:"
      diff "$d/$p.want" "$d/$p.got" | head -20
      cat "$d/$p.err"
      rc=1
      continue
    fi
    if [ $p = oob ] &&
      ! grep -q "launched from the device by _Z6parentPi, block (1,0,0), thread (2,0,0), at .*oob.cu:9" "$d/$p.err"; then
      echo "cdp: oob (${v%%|*} runtime): the child's fault does not name its launch site:"
      cat "$d/$p.err"
      rc=1
      continue
    fi
    if ! "$B/smemu" lint "$d/$p" >"$d/$p.lint" 2>&1 || ! grep -q "kernels*, 0 problems" "$d/$p.lint"; then
      echo "cdp: smemu lint $p (${v%%|*} runtime) finds problems:"
      cat "$d/$p.lint"
      rc=1
      continue
    fi
    echo "cdp: $p (${v%%|*} runtime): ok"
  done
done
# smemu exec runs one kernel without the CUDA runtime: a device-side launch
# is refused, naming the function
if "$NVCC" -rdc=true -arch=sm_90 -ptx -o "$out/oob.ptx" "$here/oob.cu" >"$out/oob.ptx.log" 2>&1; then
  got=$("$B/smemu" exec "$out/oob.ptx" --kernel _Z6parentPi --grid 2 --block 4 --arg buf:s32:4 2>&1)
  st=$?
  case $st:$got in
  1:*__cudaCDP2GetParameterBufferV2*"needs the CUDA runtime"*) echo "cdp: smemu exec refuses a device launch: ok" ;;
  *)
    echo "cdp: smemu exec of a launching kernel: exit $st, output:"
    echo "$got"
    rc=1
    ;;
  esac
else
  cat "$out/oob.ptx.log"
  rc=1
fi
exit $rc
