#!/bin/sh
# sass_retry.sh BUILD: SASS-informed counting survives a tool that fails
# once (a spawn failure or a killed ptxas/nvdisasm on a loaded machine used
# to switch the run to PTX rules silently), and a tool that is there but
# always fails is said on stderr, in `smemu exec` and in `smemu run`'s
# runtime. The kernel is counting.sh's lay_cross_block, whose shared load
# requests are 3 by PTX rules and 2 by the SASS. Each case has its own
# empty cache (SMEMU_CACHE), so the tools really run. Exits 77 without
# ptxas or nvdisasm.
B=${1:-build}
S="$B/smemu"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PX=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas "$B"/pydeps/nvidia/*/bin/ptxas 2>/dev/null | head -1)
ND=$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm "$B"/pydeps/nvidia/*/bin/nvdisasm 2>/dev/null | head -1)
[ -n "$PX" ] && [ -n "$ND" ] || { echo "sass-retry: ptxas or nvdisasm not found: skipped"; exit 77; }
P=tests/hw/model/model.ptx
A="--kernel lay_cross_block --grid 1 --block 32 --arg buf:u32:160:fill=1000 --arg buf:u32:160"

# flaky TOOL REAL MARK HOW: a wrapper failing (HOW: exit 1, or killed by
# SIGKILL as the OOM killer does) the first time it runs, then the real tool
flaky() {
  cat > "$T/$1" <<EOF
#!/bin/sh
if [ ! -e "$3" ]; then : > "$3"; $4; fi
exec "$2" "\$@"
EOF
  chmod +x "$T/$1"
}
flaky ptxas1 "$PX" "$T/p.mark" 'kill -9 $$'
flaky nvdisasm1 "$ND" "$T/n.mark" 'exit 1'
flaky nvdisasm2 "$ND" "$T/n2.mark" 'exit 1'
printf '#!/bin/sh\nexit 3\n' > "$T/broken"
chmod +x "$T/broken"

# 0: the real tools give the SASS counting (else this test checks nothing)
SMEMU_CACHE="$T/c0" "$S" exec $P $A 2> "$T/0.txt" || fail "plain run"
grep -q 'shared ld 2 req .*; counting sass' "$T/0.txt" || fail "no sass counting with the real tools: $(cat "$T/0.txt")"

# 1: ptxas killed once, nvdisasm failing once: still counted by the SASS
SMEMU_CACHE="$T/c1" SMEMU_PTXAS="$T/ptxas1" SMEMU_NVDISASM="$T/nvdisasm1" "$S" exec $P $A 2> "$T/1.txt" ||
  fail "flaky-tool run"
grep -q 'shared ld 2 req .*; counting sass' "$T/1.txt" || fail "a tool failing once changed the counting: $(cat "$T/1.txt")"
[ -e "$T/p.mark" ] && [ -e "$T/n.mark" ] || fail "the flaky tools did not run"

# 2: an nvdisasm that always fails: PTX rules, and stderr says why
SMEMU_CACHE="$T/c2" SMEMU_NVDISASM="$T/broken" "$S" exec $P $A 2> "$T/2.txt" || fail "broken-tool run"
grep -q 'shared ld 3 req .*; counting ptx' "$T/2.txt" || fail "broken nvdisasm: $(cat "$T/2.txt")"
grep -q "note: SASS counting: $T/broken failed on .*; counting by PTX rules" "$T/2.txt" ||
  fail "a failing nvdisasm was not said: $(cat "$T/2.txt")"

# 3: a missing tool stays quiet (the summary says ptx)
SMEMU_CACHE="$T/c3" SMEMU_NVDISASM="$T/none" "$S" exec $P $A 2> "$T/3.txt" || fail "missing-tool run"
grep -q 'counting ptx' "$T/3.txt" || fail "missing nvdisasm: $(cat "$T/3.txt")"
grep -q 'note:' "$T/3.txt" && fail "a missing nvdisasm was said: $(cat "$T/3.txt")"

# 4: the runtime (smemu run) says it too, unless --quiet
if command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
  cat > "$T/k.cu" <<'EOF'
#include <cstdio>
__global__ void k(int *o) { __shared__ int s[32]; s[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = s[31 - threadIdx.x]; }
int main() { int *o; cudaMalloc(&o, 128); k<<<1, 32>>>(o); int h[32]; cudaMemcpy(h, o, 128, cudaMemcpyDeviceToHost); printf("%d\n", h[0]); return h[0] != 31; }
EOF
  "${NVCC:-nvcc}" -arch=sm_90 -cudart shared -o "$T/k" "$T/k.cu" || fail "nvcc"
  SMEMU_CACHE="$T/c4" SMEMU_NVDISASM="$T/broken" "$S" run --check banks -- "$T/k" > "$T/4.out" 2> "$T/4.txt" ||
    fail "run with a broken nvdisasm: $(cat "$T/4.txt")"
  grep -q "smemu: SASS counting: $T/broken failed on .*is counted by PTX rules" "$T/4.txt" ||
    fail "smemu run did not say the failing nvdisasm: $(cat "$T/4.txt")"
  SMEMU_CACHE="$T/c5" SMEMU_NVDISASM="$T/nvdisasm2" "$S" run --check banks -- "$T/k" > "$T/5.out" 2> "$T/5.txt" ||
    fail "run with a flaky nvdisasm"
  [ -e "$T/n2.mark" ] || fail "the flaky nvdisasm did not run under smemu run"
  grep -q "SASS counting" "$T/5.txt" && fail "smemu run: a tool failing once was not retried: $(cat "$T/5.txt")"
fi
echo "sass-retry: all checks passed"
