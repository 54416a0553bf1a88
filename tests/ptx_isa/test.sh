#!/bin/sh
# test.sh BUILD: the front end's number checks, `smemu lint`, and the sm_90
# instruction families without a numeric recording (tests/hw/ptx_forms has
# those): griddepcontrol, setmaxnreg and its warpgroup rule, cache hints,
# multimem's error, elect.sync, calls through function pointers. Expected
# values are stated arithmetic. Both tiers where a kernel runs. The parts
# that build programs need nvcc (skipped without it, the rest runs).
B=${1:-build}
S=$B/smemu
H=$(dirname "$0")
C=$H/../fuzz/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect() { # NAME WANT GOT: GOT holds WANT
  case "$3" in *"$2"*) ;; *) bad "$1: wanted '$2' in: $3" ;; esac
}

# --- numbers out of range: an error at line:col, no crash, no time ---
for n in 4294967295 4294967294 2147483648; do
  out=$("$S" exec "$C/file_index_$n.ptx" --kernel k --grid 1 --block 1 --arg buf:s32:1 2>&1); rc=$?
  [ $rc = 1 ] || bad ".file $n: exit $rc (want 1)"
  expect ".file $n" "file_index_$n.ptx:4:7: a file number $n is too large (the limit is 65535)" "$out"
  out=$("$S" lint "$C/file_index_$n.ptx" 2>&1); rc=$?
  [ $rc = 1 ] || bad "lint .file $n: exit $rc"
done
out=$("$S" exec "$C/loc_inlined_file.ptx" --kernel k --grid 1 --block 1 2>&1)
expect "inlined_at file" "loc_inlined_file.ptx:7:24: a file number 4294967295 is too large" "$out"

out=$("$S" lint "$C/target_huge.ptx" 2>&1)
expect ".target sm_4294967296" "target_huge.ptx:2:9: 'sm_4294967296' is no target" "$out"
for d in reqntid maxntid maxnreg; do
  out=$("$S" lint "$C/${d}_zero.ptx" 2>&1)
  expect ".$d 0" "${d}_zero.ptx:5:43: .$d needs a positive" "$out"
done

# --- smemu lint ---
"$S" help | grep -q "lint FILE" || bad "smemu help does not list lint"
"$S" help lint | grep -q "exit status" || bad "smemu help lint"
out=$("$S" lint "$H/lint_bad.ptx" 2>&1); rc=$?
[ $rc = 1 ] || bad "lint_bad: exit $rc (want 1)"
expect "lint modifier" "lint_bad.ptx:18:3: unsupported modifier '.bogus' in 'add.u32.bogus' (kernel two_bad)" "$out"
expect "lint operands" "lint_bad.ptx:19:3: 'ld' takes 2 operands, found 4 (kernel two_bad)" "$out"
expect "lint helper 1" "lint_bad.ptx:9:3: unknown instruction 'frobnicate.u32'" "$out"
expect "lint helper 2" "(kernel calls_helper)" "$out"
expect "lint summary" "3 kernels, 3 problems" "$out"
case "$out" in *"(kernel fine)"*) bad "lint lists the kernel that decodes" ;; esac
out=$("$S" lint "$H/sm90.ptx" 2>&1) || bad "lint sm90.ptx: $out"
expect "lint clean" "8 kernels, 0 problems" "$out"
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k( {\n' > "$T/broken.ptx"
out=$("$S" lint "$T/broken.ptx" 2>&1); rc=$?
[ $rc = 1 ] || bad "lint of unparsable PTX: exit $rc"
expect "lint parse error" "broken.ptx:4:" "$out"
"$S" lint "$T/missing.ptx" > /dev/null 2>&1; [ $? = 2 ] || bad "lint of a missing file: exit not 2"
"$S" lint --bogus x > /dev/null 2>&1; [ $? = 2 ] || bad "lint with a bad option: exit not 2"

for tier in interp jit; do
  export SMEMU_TIER=$tier
  # griddepcontrol, createpolicy, .L2::cache_hint, applypriority, discard: out = 2 * in + 1
  out=$("$S" exec "$H/sm90.ptx" --kernel hints --grid 1 --block 8 --arg buf:s32:8:iota --arg buf:s32:8:print 2>&1)
  expect "hints ($tier)" "1 3 5 7 9 11 13 15" "$out"
  # setmaxnreg: whole warpgroups with one count each run; out[i] = i
  out=$("$S" exec "$H/sm90.ptx" --kernel wg --grid 2 --block 384 --arg buf:s32:384:print --arg u32:0 2>&1) ||
    bad "setmaxnreg ($tier): $out"
  expect "setmaxnreg values ($tier)" "376 377 378 379 380 381 382 383" "$out"
  out=$("$S" exec "$H/sm90.ptx" --kernel wg --grid 1 --block 384 --arg buf:s32:384 --arg u32:1 2>&1)
  expect "setmaxnreg mixed ($tier)" "setmaxnreg.inc 232 in warp 5, but setmaxnreg.inc 240 in warp 4 of the same warpgroup" "$out"
  out=$("$S" exec "$H/sm90.ptx" --kernel wg --grid 1 --block 96 --arg buf:s32:96 --arg u32:0 2>&1)
  expect "setmaxnreg partial warpgroup ($tier)" "whose warpgroup is not whole (the block has 96 threads)" "$out"
  out=$("$S" exec "$H/sm90.ptx" --kernel wg_half --grid 1 --block 128 --arg buf:s32:4 2>&1)
  expect "setmaxnreg half warp ($tier)" "executed by lanes 0x0000ffff of warp 0" "$out"
  out=$("$S" exec "$H/sm90.ptx" --kernel mm --grid 1 --block 32 --arg buf:s32:4 2>&1); rc=$?
  [ $rc = 1 ] || bad "multimem ($tier): exit $rc"
  expect "multimem ($tier)" "multimem needs NVLink multicast hardware" "$out"
  out=$("$S" exec "$H/sm90.ptx" --kernel elect --grid 1 --block 64 --arg buf:s32:64:print 2>&1 | sed -n 2p)
  [ "$out" = "1 0 0 0 0 2 0 0" ] || bad "elect.sync ($tier): $out"
  # alloca / stacksave / stackrestore
  out=$("$S" exec "$H/sm90.ptx" --kernel stk --grid 1 --block 64 --arg buf:s32:4:print --arg u32:0 2>&1 | sed -n 2p)
  [ "$out" = "7 64 0 0" ] || bad "stacksave/alloca ($tier): $out"
  out=$("$S" exec "$H/sm90.ptx" --kernel stk --grid 1 --block 1 --arg buf:s32:4 --arg u32:1 2>&1)
  expect "stackrestore out of the stack ($tier)" "stackrestore to 0x1400, which is no stack top" "$out"
  out=$("$S" exec "$H/alloca.ptx" --kernel va --grid 2 --block 8 --arg buf:s32:8:print --arg s32:10 2>&1 | sed -n 2p)
  [ "$out" = "0 165 330 495 660 825 990 1155" ] || bad "alloca.cu ($tier): $out"
  out=$("$S" exec "$H/alloca.ptx" --kernel va --grid 1 --block 8 --arg buf:s32:8 --arg s32:300 2>&1)
  expect "alloca overflow ($tier)" "stack overflow in alloca of 1200 bytes" "$out"
  # st.async / red.async into the other block of a cluster of 2
  out=$("$S" exec "$H/sm90.ptx" --kernel sasync --grid 2 --block 32 --arg buf:s32:16:print 2>&1 | sed -n 2,3p | tr '\n' ' ')
  [ "$out" = "101 102 103 104 15 0 0 0 1 2 3 4 15 0 0 0 " ] || bad "st.async/red.async ($tier): $out"
  # brx.idx: a divergent jump table, reconverged after it
  want=$(awk 'BEGIN { for (i = 0; i < 40; i++) { v = i % 4; r = v == 0 ? 10 : v == 1 ? 11 : v == 2 ? 1000 + i : 13;
    printf "%d %s ", r, i < 32 ? "4294967295" : "255" } }')
  out=$("$S" exec "$H/sm90.ptx" --kernel brx --grid 1 --block 40 --arg buf:u32:80:print --arg u32:0 2>&1 | sed -n 2,11p | tr '\n' ' ')
  [ "$out" = "$want" ] || bad "brx.idx ($tier): $out"
  out=$("$S" exec "$H/sm90.ptx" --kernel brx --grid 1 --block 40 --arg buf:u32:80 --arg u32:5 2>&1)
  expect "brx.idx past the list ($tier)" "brx.idx with index 8: the target list has 4 labels" "$out"
  # function pointers: warp w of block b calls op[(w + pick) % 3] = add, mul,
  # sub (in[i] = i, the other operand 7), chosen in the kernel or read from
  # a .global table of function addresses
  for k in icall icall_table; do
    out=$("$S" exec "$H/icall.ptx" --kernel $k --grid 1 --block 96 --arg buf:s32:96:iota --arg buf:s32:96:print --arg s32:1 2>&1)
    expect "$k mul ($tier)" "0 7 14 21 28 35 42 49" "$out"
    expect "$k sub ($tier)" "25 26 27 28 29 30 31 32" "$out"
    expect "$k add ($tier)" "71 72 73 74 75 76 77 78" "$out"
  done
done
unset SMEMU_TIER

# --- programs: lint reads their embedded PTX; run points to lint ---
if command -v nvcc > /dev/null 2>&1; then
  G="-gencode=arch=compute_90a,code=compute_90a -cudart shared"
  # shellcheck disable=SC2086
  nvcc $G -o "$T/lint_prog" "$H/lint_prog.cu" > "$T/log" 2>&1 || { cat "$T/log"; exit 1; }
  out=$("$S" lint --save-ptx "$T" "$T/lint_prog" 2>&1); rc=$?
  [ $rc = 1 ] || bad "lint of a program: exit $rc (want 1)"
  expect "lint program" "lint_prog.1.ptx:" "$out"
  expect "lint program form" "tld4 on .cube and .acube textures is not supported" "$out"
  expect "lint program summary" "2 kernels, 1 problem" "$out"
  [ -s "$T/lint_prog.1.ptx" ] && grep -q tld4 "$T/lint_prog.1.ptx" || bad "--save-ptx wrote no PTX"
  out=$("$S" run -- "$T/lint_prog" 2>&1)
  expect "run good" "good: no error" "$out"
  expect "run points to lint" "smemu lint PROGRAM" "$out"
  # programmatic dependent launch (griddepcontrol from the CUDA intrinsics)
  # shellcheck disable=SC2086
  nvcc $G -o "$T/pdl" "$H/pdl.cu" > "$T/log" 2>&1 || { cat "$T/log"; exit 1; }
  "$S" lint --save-ptx "$T" "$T/pdl" > /dev/null 2>&1 || bad "lint pdl"
  grep -q griddepcontrol.wait "$T/pdl.1.ptx" || bad "pdl.cu has no griddepcontrol.wait"
  for tier in interp jit; do
    out=$(SMEMU_TIER=$tier "$S" run -- "$T/pdl" 2>&1)
    expect "pdl ($tier)" "pdl: launch no error, 0 wrong -> PASS" "$out"
  done
  # shellcheck disable=SC2086
  nvcc -gencode=arch=compute_90a,code=sm_90a -cudart shared -o "$T/sass_only" "$H/pdl.cu" > "$T/log" 2>&1 || { cat "$T/log"; exit 1; }
  out=$("$S" lint "$T/sass_only" 2>&1); rc=$?
  [ $rc = 1 ] || bad "lint of a SASS-only program: exit $rc"
  expect "lint SASS only" "holds no PTX smemu can read" "$out"
  out=$("$S" lint "$H/lint_prog.cu" 2>&1); rc=$?
  [ $rc = 1 ] || bad "lint of a .cu: exit $rc"
  expect "lint .cu" "2 kernels, 1 problem" "$out"
else
  echo "(nvcc not on the PATH: the program checks are left out)"
fi
[ $fail = 0 ] && echo "ptx-isa: all passed"
exit $fail
