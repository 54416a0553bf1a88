#!/usr/bin/env python3
"""gen_corpus.py: writes the instruction-selection corpus
(shared accesses as ptxas compiles them) for recording on a GPU.

Produces, next to this script:
  model.cu    one CUDA program.  Every "atom" case is a single-warp kernel (1
              block of 32 threads) that makes exactly one shared-memory atomic
              in plain CUDA (atomicAdd/Inc/Or/.../CAS on u32, u64, float,
              double), so that ptxas chooses the SASS it chooses for real
              code: ATOMS.POPC.INC for an unused +1, a VOTEU/POPC warp
              aggregation for a used add on a provably uniform address, an
              LDS + ATOMS.CAST.SPIN loop for float/double/64-bit add, plain
              ATOMS otherwise.  "layout" cases store and load neighbouring
              __shared__ scalars (item 5: ptxas merges them into STS.64/128)
              and print each variable's shared address.  "busy" cases are
              multi-block kernels (histograms, transpose, reduction) for the
              noise tolerance of item 6.
  cases.tsv   per atom case: what the PTX atomic is (op, type, operand,
              result used, address statically uniform) and its 32 lanes'
              byte offsets and mask, as the C test feeds them to the model.

Inputs come from a table in global memory (one row per kernel): t[0..31]
element index per lane, t[32..63] operand per lane, t[64] lane mask,
t[65] a uniform index.  Standard library only.
Run: python3 tests/hw/model/gen_corpus.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = 128
OUTROW = 160
L = range(32)

# ---------------------------------------------------------------- atoms ----
# body: CUDA statement(s); a = index, v = operand, u = uniform index,
# r0 = result kept.  (op, type, operand, used, uniform-address)
BODIES = {
    "add1":        ("atomicAdd(&s[a], 1u);", "add", "u32", "1", 0, 0),
    "add1_used":   ("r0 = atomicAdd(&s[a], 1u);", "add", "u32", "1", 1, 0),
    "add1_su":     ("atomicAdd(&s[u], 1u);", "add", "u32", "1", 0, 1),
    "add1_used_su": ("r0 = atomicAdd(&s[u], 1u);", "add", "u32", "1", 1, 1),
    "addreg":      ("atomicAdd(&s[a], v);", "add", "u32", "reg", 0, 0),
    "addreg_used": ("r0 = atomicAdd(&s[a], v);", "add", "u32", "reg", 1, 0),
    "addreg_su":   ("atomicAdd(&s[u], v);", "add", "u32", "reg", 0, 1),
    "addreg_used_su": ("r0 = atomicAdd(&s[u], v);", "add", "u32", "reg", 1, 1),
    "add2":        ("atomicAdd(&s[a], 2u);", "add", "u32", "2", 0, 0),
    "sub1":        ("atomicSub(&s[a], 1u);", "add", "u32", "-1", 0, 0),
    "inc_max":     ("atomicInc(&s[a], 0xffffffffu);", "inc", "u32", "-1", 0, 0),
    "inc_100":     ("atomicInc(&s[a], 100u);", "inc", "u32", "100", 0, 0),
    "or1":         ("atomicOr(&s[a], 1u);", "or", "b32", "1", 0, 0),
    "and1":        ("atomicAnd(&s[a], 1u);", "and", "b32", "1", 0, 0),
    "xor1":        ("atomicXor(&s[a], 1u);", "xor", "b32", "1", 0, 0),
    "min1":        ("atomicMin(&s[a], 1u);", "min", "u32", "1", 0, 0),
    "max1":        ("atomicMax(&s[a], 1u);", "max", "u32", "1", 0, 0),
    "exch1":       ("atomicExch(&s[a], 1u);", "exch", "b32", "1", 0, 0),
    "cas":         ("atomicCAS(&s[a], v, v + 1u);", "cas", "b32", "reg", 0, 0),
    "add64":       ("atomicAdd((unsigned long long *)s + a, 1ull);", "add", "u64", "1", 0, 0),
    "max64":       ("atomicMax((unsigned long long *)s + a, (unsigned long long)v);", "max", "u64", "reg", 0, 0),
    "or64":        ("atomicOr((unsigned long long *)s + a, 1ull);", "or", "b64", "1", 0, 0),
    "exch64":      ("atomicExch((unsigned long long *)s + a, 1ull);", "exch", "b64", "1", 0, 0),
    "fadd":        ("atomicAdd((float *)s + a, 1.0f);", "add", "f32", "1", 0, 0),
    "fadd_used":   ("r0 = __float_as_uint(atomicAdd((float *)s + a, 1.0f));", "add", "f32", "1", 1, 0),
    "dadd":        ("atomicAdd((double *)s + a, 1.0);", "add", "f64", "1", 0, 0),
    "or1_su":      ("atomicOr(&s[u], 1u);", "or", "b32", "1", 0, 1),
    "and1_su":     ("atomicAnd(&s[u], 1u);", "and", "b32", "1", 0, 1),
    "xor1_su":     ("atomicXor(&s[u], 1u);", "xor", "b32", "1", 0, 1),
    "min1_su":     ("atomicMin(&s[u], 1u);", "min", "u32", "1", 0, 1),
    "max1_su":     ("atomicMax(&s[u], 1u);", "max", "u32", "1", 0, 1),
    "exch1_su":    ("atomicExch(&s[u], 1u);", "exch", "b32", "1", 0, 1),
    "add2_su":     ("atomicAdd(&s[u], 2u);", "add", "u32", "2", 0, 1),
    "add2_used_su": ("r0 = atomicAdd(&s[u], 2u);", "add", "u32", "2", 1, 1),
    "orreg_su":    ("atomicOr(&s[u], v);", "or", "b32", "reg", 0, 1),
    "maxreg_su":   ("atomicMax(&s[u], v);", "max", "u32", "reg", 0, 1),
    "maxreg_used_su": ("r0 = atomicMax(&s[u], v);", "max", "u32", "reg", 1, 1),
    "inc_max_su":  ("atomicInc(&s[u], 0xffffffffu);", "inc", "u32", "-1", 0, 1),
    "add64_su":    ("atomicAdd((unsigned long long *)s + u, 1ull);", "add", "u64", "1", 0, 1),
    "sadd_su":     ("atomicAdd((int *)s + u, (int)v);", "add", "s32", "reg", 0, 1),
    "cnt_used":    ("r0 = atomicAdd(&cnt, 1u);", "add", "u32", "1", 1, 1),
    "cnt":         ("atomicAdd(&cnt, 1u);", "add", "u32", "1", 0, 1),
    "warp_agg":    ("{ unsigned m = __activemask(); unsigned ld = __ffs(m) - 1u, b = 0;"
                    " if (lane == ld) b = atomicAdd(&s[u], (unsigned)__popc(m));"
                    " b = __shfl_sync(m, b, ld); r0 = b + __popc(m & ((1u << lane) - 1u)); }",
                    "add", "u32", "reg", 1, 1),
}

rng = random.Random(9)
R256 = [rng.randrange(256) for _ in L]
R64 = [rng.randrange(64) for _ in L]
R64B = [rng.randrange(64) for _ in L]
R8 = [rng.randrange(8) for _ in L]
PATS = {
    "s0": [0] * 32, "s1": list(L), "s32": [32 * l for l in L],
    "g2": [l // 2 for l in L], "g4": [l // 4 for l in L], "g16": [l // 16 for l in L],
    "mc2sb": [32 * (l // 2) for l in L], "mc4sb": [32 * (l // 4) for l in L],
    "half": [32 * (l // 16) for l in L], "pair": [32 * (l % 2) for l in L],
    "rand256": R256, "rand64": R64, "rand64b": R64B, "rand8": R8,
    "s16": [16 * l for l in L],
}

atoms = []


def atom(body, pat, mask=0xFFFFFFFF, u=0):
    name = "%s_%s" % (body, pat) + ("" if mask == 0xFFFFFFFF else "_m%08x" % mask)
    assert all(a["name"] != name for a in atoms), name
    atoms.append(dict(name=name, body=body, idx=PATS[pat], mask=mask, u=u))


for p in ["s0", "s1", "s32", "g2", "g4", "g16", "mc2sb", "mc4sb", "half", "pair",
          "rand256", "rand64", "rand64b", "rand8"]:
    atom("add1", p)
for p, m in [("s0", 0x0000FFFF), ("s0", 0x55555555), ("s0", 0x00000001),
             ("s32", 0x0000FFFF), ("mc4sb", 0x0F0F0F0F), ("rand64", 0x55555555)]:
    atom("add1", p, m)
atom("add1_su", "s0")
atom("add1_su", "s0", 0x0000FFFF)
atom("add1_su", "s0", 0x00000001)
for p in ["s0", "s1", "g4", "mc4sb"]:
    atom("add1_used", p)
atom("add1_used_su", "s0")
atom("add1_used_su", "s0", 0x0000FFFF)
for p in ["s0", "g4", "rand64"]:
    atom("addreg", p)
atom("addreg_used", "s0")
atom("addreg_su", "s0")
atom("addreg_su", "s0", 0x0000FFFF)
atom("addreg_used_su", "s0")
atom("addreg_used_su", "s0", 0x0000FFFF)
atom("addreg_used_su", "s0", 0x00000001)
atom("add2", "s0")
atom("add2", "g4")
atom("sub1", "s0")
for p in ["s0", "g4", "rand64"]:
    atom("inc_max", p)
atom("inc_100", "s0")
for b in ["or1", "and1", "xor1", "min1", "max1", "exch1"]:
    atom(b, "s0")
    atom(b, "g4")
atom("cas", "s0")
for p in ["s1", "s0", "g2", "s16"]:
    atom("add64", p)
atom("max64", "s1")
atom("max64", "s0")
atom("or64", "s1")
atom("exch64", "s0")
for p in ["s1", "s0", "g2", "rand64"]:
    atom("fadd", p)
atom("fadd", "s1", 0x0000FFFF)
atom("fadd_used", "s1")
for p in ["s1", "s0", "g2"]:
    atom("dadd", p)
for b in ["or1_su", "and1_su", "xor1_su", "min1_su", "max1_su", "exch1_su", "add2_su",
          "add2_used_su", "orreg_su", "maxreg_su", "maxreg_used_su", "inc_max_su", "add64_su",
          "sadd_su"]:
    atom(b, "s0")
atom("add2_used_su", "s0", 0x0000FFFF)
atom("orreg_su", "s0", 0x0000FFFF)
atom("cnt_used", "s0")
atom("cnt_used", "s0", 0x0000FFFF)
atom("cnt", "s0")
atom("warp_agg", "s0")
atom("warp_agg", "s0", 0x55555555)

# --------------------------------------------------------------- layout ----
# Neighbouring __shared__ scalars: thread 0 stores them from t[0..], then
# every thread loads them all.  (decls, names in store order)
LAYOUTS = {
    "lay_six_u32": ("unsigned a, b, c, d, e, f;", "a b c d e f", "unsigned"),
    "lay_six_u32_rev": ("unsigned a, b, c, d, e, f;", "f e d c b a", "unsigned"),
    "lay_two_u32": ("unsigned a, b;", "a b", "unsigned"),
    "lay_three_u32": ("unsigned a, b, c;", "a b c", "unsigned"),
    "lay_four_f32": ("float a, b, c, d;", "a b c d", "float"),
    "lay_mixed": ("unsigned a; float b; int c; unsigned d;", "a b c d", "unsigned"),
    "lay_u64_mid": ("unsigned a; unsigned long long b; unsigned c;", "a b c", "unsigned long long"),
    "lay_u16x4": ("unsigned short a, b, c, d;", "a b c d", "unsigned short"),
    "lay_arr_scalar": ("unsigned a[3]; unsigned b;", "a[0] a[1] a[2] b", "unsigned"),
    "lay_two_decls": ("unsigned a; unsigned b; unsigned c; unsigned d;", "a b c d", "unsigned"),
    "lay_u8x8": ("unsigned char a, b, c, d, e, f, g, h;", "a b c d e f g h", "unsigned char"),
    "lay_two_u16": ("unsigned short a, b;", "a b", "unsigned short"),
    "lay_two_u64": ("unsigned long long a, b;", "a b", "unsigned long long"),
    "lay_five_u32": ("unsigned a, b, c, d, e;", "a b c d e", "unsigned"),
    "lay_after_array": ("unsigned x[5]; unsigned a; unsigned b;", "a b", "unsigned"),
}

# ----------------------------------------------------------------- busy ----
BUSY = {
    "busy_hist256": ("h[x & 255]", 256, "x"),
    "busy_hist64": ("h[x & 63]", 64, "x"),
    "busy_hist256_skew": ("h[(x & 0x0f0f) % 256]", 256, "x"),
    "busy_hist256_reg": ("h[x & 255]", 256, "(x >> 28) + 1u"),
}
BUSY_GRID, BUSY_BLOCK, BUSY_ITERS = 32, 256, 16

HEAD = r'''// model.cu: GENERATED by gen_corpus.py; do not edit.
// Build: nvcc -arch=sm_90 -O3 -lineinfo -o model model.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROW %(ROW)d
#define OUTROW %(OUTROW)d
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%%s:%%d: %%s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
  exit(1); } } while (0)
#define SADDR(p) ((unsigned)__cvta_generic_to_shared((const void *)(p)))

// t: the case's table row (t[lane] index, t[32 + lane] operand, t[64] lane
// mask, t[65] uniform index); out[lane] result, out[128] array address.
#define PROLOGUE \
  __shared__ __align__(1024) unsigned s[2048]; \
  __shared__ unsigned cnt; \
  const unsigned lane = threadIdx.x; \
  const unsigned a = t[lane], v = t[32 + lane], u = t[65]; \
  unsigned r0 = 0; \
  (void)a; (void)v; (void)u;
#define EPILOGUE \
  out[lane] = r0; \
  if (lane == 0) { out[128] = SADDR(s); out[129] = SADDR(&cnt); }

// A cheap hash for the busy kernels' data (the emulator test computes the
// same values, so no input file is needed).
__device__ __forceinline__ unsigned mix(unsigned x)
{
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

'''


def atom_kernel(c):
    body = BODIES[c["body"]][0]
    return ('extern "C" __global__ void __launch_bounds__(32)\n'
            '%s(const unsigned *__restrict__ t, unsigned *__restrict__ out)\n{\n'
            '  PROLOGUE\n  if ((t[64] >> lane) & 1u) {\n    %s\n  }\n  EPILOGUE\n}\n'
            % (c["name"], body))


def layout_kernel(name):
    decls, order, ty = LAYOUTS[name]
    names = order.split()
    decls = " ".join("__shared__ %s;" % d.strip() for d in decls.split(";") if d.strip())
    st = " ".join("%s = (%s)t[%d];" % (n, ty, i) for i, n in enumerate(names))
    ld = " + ".join("(unsigned)%s" % n for n in names)
    addrs = " ".join("out[%d] = SADDR(&%s);" % (129 + i, n) for i, n in enumerate(names))
    return ('extern "C" __global__ void __launch_bounds__(32)\n'
            '%s(const unsigned *__restrict__ t, unsigned *__restrict__ out)\n{\n'
            '  %s\n  const unsigned lane = threadIdx.x;\n'
            '  if (lane == 0) { %s }\n  __syncthreads();\n'
            '  out[lane] = %s;\n  if (lane == 0) { out[128] = SADDR(&%s); %s }\n}\n'
            % (name, decls, st, ld, names[0], addrs))


def busy_kernel(name):
    slot, nb, val = BUSY[name]
    return ('extern "C" __global__ void __launch_bounds__(%d)\n'
            '%s(const unsigned *__restrict__ t, unsigned *__restrict__ out)\n{\n'
            '  __shared__ unsigned h[%d];\n'
            '  for (unsigned i = threadIdx.x; i < %du; i += blockDim.x) h[i] = 0;\n'
            '  __syncthreads();\n'
            '  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  for (unsigned k = 0; k < %du; k++) {\n'
            '    const unsigned x = mix(g * %du + k + t[0]);\n'
            '    atomicAdd(&%s, %s);\n  }\n  __syncthreads();\n'
            '  for (unsigned i = threadIdx.x; i < %du; i += blockDim.x)\n'
            '    atomicAdd(&out[i], h[i]);\n}\n'
            % (BUSY_BLOCK, name, nb, nb, BUSY_ITERS, BUSY_ITERS, slot,
               "1u" if val == "x" else val, nb))


BUSY_EXTRA = r'''
// Busy kernels without atomics: a naive transpose through a 32x32 tile
// (column reads: 32-way conflicts) and a padded one, and a tree reduction.
extern "C" __global__ void __launch_bounds__(1024)
busy_transpose(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ unsigned tile[32][32];
  tile[threadIdx.y][threadIdx.x] = mix(blockIdx.x * 1024u + threadIdx.y * 32u + threadIdx.x + t[0]);
  __syncthreads();
  out[blockIdx.x * 1024u + threadIdx.y * 32u + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void __launch_bounds__(1024)
busy_transpose_pad(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ unsigned tile[32][33];
  tile[threadIdx.y][threadIdx.x] = mix(blockIdx.x * 1024u + threadIdx.y * 32u + threadIdx.x + t[0]);
  __syncthreads();
  out[blockIdx.x * 1024u + threadIdx.y * 32u + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
extern "C" __global__ void __launch_bounds__(256)
busy_reduce(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ unsigned r[256];
  r[threadIdx.x] = mix(blockIdx.x * 256u + threadIdx.x + t[0]);
  __syncthreads();
  for (unsigned k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) r[threadIdx.x] += r[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = r[0];
}
'''


LAYOUT_EXTRA = r'''
// 64-bit min/max loops on initialised memory: ptxas's loop compares after
// the LDS and skips the CAS in lanes whose value would not change the word.
extern "C" __global__ void __launch_bounds__(32)
max64_init_s1(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ __align__(1024) unsigned long long q[64];
  const unsigned lane = threadIdx.x;
  q[lane] = lane;
  __syncthreads();
  atomicMax(&q[lane], 16ull + (t[32 + lane] - 1u));
  if (lane == 0) out[128] = SADDR(q);
}
extern "C" __global__ void __launch_bounds__(32)
min64_init_s1(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ __align__(1024) unsigned long long q[64];
  const unsigned lane = threadIdx.x;
  q[lane] = lane;
  __syncthreads();
  atomicMin(&q[lane], 16ull + (t[32 + lane] - 1u));
  if (lane == 0) out[128] = SADDR(q);
}
extern "C" __global__ void __launch_bounds__(32)
max64_init_s0(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ __align__(1024) unsigned long long q[64];
  const unsigned lane = threadIdx.x;
  if (lane == 0) q[0] = 0;
  __syncthreads();
  atomicMax(&q[t[lane]], (unsigned long long)lane);
  if (lane == 0) out[128] = SADDR(q);
}

// Two neighbouring scalars loaded in different basic blocks: `a` by every
// thread, `b` only under the branch on `a`. ptxas hoists `b` and loads both
// with one LDS.64 (as in a stream compaction's count/gbase); PTX rules see
// two loads in two blocks, the SASS one.
extern "C" __global__ void __launch_bounds__(32)
lay_cross_block(const unsigned *__restrict__ t, unsigned *__restrict__ out)
{
  __shared__ unsigned arr[32];
  __shared__ unsigned a;
  __shared__ unsigned b;
  const unsigned lane = threadIdx.x;
  if (lane == 0) { a = t[0]; b = t[1] & 7u; }
  arr[lane] = t[2 + lane];
  __syncthreads();
  if (lane < a) out[b + lane] = arr[lane];
  if (lane == 0) { out[128] = SADDR(&a); out[129] = SADDR(&a); out[130] = SADDR(&b); }
}
'''


INIT_KERNELS = ["max64_init_s1", "min64_init_s1", "max64_init_s0"]


def table_row(c):
    row = [0] * ROW
    row[0:32] = c["idx"]
    row[32:64] = [1] * 32
    row[64] = c["mask"]
    row[65] = c["u"]
    return row


def layout_row(name):
    return [0x11111111 * (i + 1) & 0xFFFF if "u16" in name else 1000 + i for i in range(ROW)]


def write_cu(path):
    out = [HEAD % dict(ROW=ROW, OUTROW=OUTROW)]
    for c in atoms:
        out.append(atom_kernel(c) + "\n")
    for n in LAYOUTS:
        out.append(layout_kernel(n) + "\n")
    out.append(LAYOUT_EXTRA + "\n")
    for n in BUSY:
        out.append(busy_kernel(n) + "\n")
    out.append(BUSY_EXTRA)
    out.append("typedef void (*kfn)(const unsigned *, unsigned *);\n")
    out.append("static const struct { const char *name; kfn fn; } cases[] = {\n")
    for c in atoms:
        out.append('  {"%s", %s},\n' % (c["name"], c["name"]))
    for n in LAYOUTS:
        out.append('  {"%s", %s},\n' % (n, n))
    out.append('  {"lay_cross_block", lay_cross_block},\n')
    for n in INIT_KERNELS:
        out.append('  {"%s", %s},\n' % (n, n))
    out.append("};\n#define NCASES %d\n" % (len(atoms) + len(LAYOUTS) + 1 + len(INIT_KERNELS)))
    out.append("static const unsigned table[NCASES][ROW] = {\n")
    for c in atoms:
        out.append("  {" + ",".join(str(x) for x in table_row(c)) + "},\n")
    for n in LAYOUTS:
        out.append("  {" + ",".join(str(x) for x in layout_row(n)) + "},\n")
    out.append("  {" + ",".join(str(x) for x in layout_row("lay_cross_block")) + "},\n")
    for n in INIT_KERNELS:
        out.append("  {" + ",".join(str(x) for x in table_row(dict(idx=[0] * 32, mask=0xFFFFFFFF, u=0)))
                   + "},\n")
    out.append("};\n")
    out.append("static const struct { const char *name; kfn fn; unsigned grid, block; } busy[] = {\n")
    for n in BUSY:
        out.append('  {"%s", %s, %d, %d},\n' % (n, n, BUSY_GRID, BUSY_BLOCK))
    out.append('  {"busy_transpose", busy_transpose, 64, 1024},\n')
    out.append('  {"busy_transpose_pad", busy_transpose_pad, 64, 1024},\n')
    out.append('  {"busy_reduce", busy_reduce, 64, 256},\n')
    out.append("};\n#define NBUSY %d\n\n" % (len(BUSY) + 3))
    out.append(r'''int main(void)
{
  unsigned *d_tab = 0, *d_out = 0, *d_big = 0;
  static unsigned h_out[NCASES][OUTROW];
  CHECK(cudaMalloc(&d_tab, sizeof table));
  CHECK(cudaMalloc(&d_out, sizeof h_out));
  CHECK(cudaMalloc(&d_big, 64 * 1024 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_tab, table, sizeof table, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, sizeof h_out));
  for (int i = 0; i < NCASES; i++) {
    cases[i].fn<<<1, 32>>>(d_tab + (size_t)i * ROW, d_out + (size_t)i * OUTROW);
    CHECK(cudaGetLastError());
  }
  for (int i = 0; i < NBUSY; i++) {
    CHECK(cudaMemset(d_big, 0, 64 * 1024 * sizeof(unsigned)));
    dim3 blk = busy[i].block == 1024 ? dim3(32, 32) : dim3(busy[i].block);
    busy[i].fn<<<busy[i].grid, blk>>>(d_tab, d_big);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
  // Per kernel: name, the shared address of its array (atoms) or of each
  // variable in store order (layouts), and the lanes' results.
  for (int i = 0; i < NCASES; i++) {
    printf("%s\t0x%x", cases[i].name, h_out[i][128]);
    for (int k = 129; k < 137; k++) printf(" 0x%x", h_out[i][k]);
    printf("\tout");
    for (int l = 0; l < 32; l++) printf(" %u", h_out[i][l]);
    printf("\n");
  }
  return 0;
}
''')
    with open(path, "w") as f:
        f.write("".join(out))


def write_tsv(path):
    with open(path, "w") as f:
        f.write("# cases.tsv: GENERATED by gen_corpus.py; do not edit.\n")
        f.write("# One line per single-warp atomic kernel of model.cu: the PTX atomic\n")
        f.write("# it makes (op, type, operand: an immediate or 'reg', result used,\n")
        f.write("# address provably uniform), its lane mask and byte offsets from the\n")
        f.write("# start of the (1024-byte aligned) array; cnt_* kernels use the\n")
        f.write("# scalar `cnt` (offsets are then from cnt).\n")
        f.write("# kernel\top\ttype\toperand\tused\tuniform\tmask\toffsets\n")
        for c in atoms:
            _, op, ty, opd, used, uni = BODIES[c["body"]]
            esz = 8 if ty in ("u64", "b64", "f64") else 4
            idx = [c["u"]] * 32 if uni else c["idx"]
            if c["body"].startswith("cnt"):
                idx = [0] * 32
            mask = c["mask"]
            if c["body"] == "warp_agg":
                mask &= -mask  # the atomic runs in the leader lane alone
            f.write("%s\t%s\t%s\t%s\t%d\t%d\t0x%08x\t%s\n" % (
                c["name"], op, ty, opd, used, uni, mask,
                ",".join(str(i * esz) for i in idx)))


if __name__ == "__main__":
    write_cu(os.path.join(HERE, "model.cu"))
    write_tsv(os.path.join(HERE, "cases.tsv"))
    print("model corpus: %d atom kernels, %d layout kernels, %d busy kernels"
          % (len(atoms), len(LAYOUTS), len(BUSY) + 3))
