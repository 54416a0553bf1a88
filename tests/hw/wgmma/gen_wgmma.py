#!/usr/bin/env python3
"""gen_wgmma.py: writes wgmma.cu, one kernel per wgmma configuration.

Each kernel is one or two warpgroups; block b is trial b. Every input
element comes from an integer hash of (seed, matrix, row, column), so smemu
runs the same PTX and gets the same inputs. The kernel first fills the whole
shared tiles with hash "poison" (so that bytes a descriptor reaches outside
the laid-out elements are still deterministic), then stores each logical
element at the address the canonical layout gives (CUTLASS's GMMA canonical
layouts, swizzle applied to the absolute shared address), builds the
descriptors, runs the wgmma chain and writes the logical A, B, C and D
matrices (one 32-bit word per element) to global memory.

    python3 gen_wgmma.py > wgmma.cu
"""
import sys

# type codes (match the .cu)
TY = {"f16": 0, "bf16": 1, "tf32": 2, "e4m3": 3, "e5m2": 4, "s8": 5, "u8": 6,
      "f32": 7, "s32": 8}
SIZE = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1}
KINST = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32}
SWZ = {"none": 0, "128": 1, "64": 2, "32": 3}
SWZW = {"none": 1, "32": 2, "64": 4, "128": 8}


class Cfg:
    def __init__(self, name, ta, tb, td, n, swa="128", swb="128", areg=False,
                 transa=0, transb=0, ks=1, scale_a=1, scale_b=1, scale_d=1,
                 mode=0, trials=2, wgs=1, sat=False, dump=False, lbo_junk=0,
                 base_off=None, tile_off=0, groups=1, pad=0):
        self.__dict__.update(locals())
        del self.__dict__["self"]


def configs():
    c = []
    # f16 -> f32: each swizzle mode, K-major, A from shared memory
    for sw in ("none", "32", "64", "128"):
        c.append(Cfg("f16_f32_n64_sw%s" % sw, "f16", "f16", "f32", 64, sw, sw, trials=2))
    # the N values (D fragment layout), A from shared, 128B swizzle
    for n in (8, 16, 24, 32, 40, 48, 56, 72, 96, 120, 128, 136, 160, 192, 200, 224, 248, 256):
        c.append(Cfg("f16_f32_n%d" % n, "f16", "f16", "f32", n, trials=1))
    # A from registers
    c.append(Cfg("f16_f32_n64_areg", "f16", "f16", "f32", 64, areg=True, trials=2))
    c.append(Cfg("f16_f32_n256_areg", "f16", "f16", "f32", 256, areg=True, trials=1))
    # MN-major (transposed) operands, each swizzle mode
    for sw in ("none", "32", "64", "128"):
        c.append(Cfg("f16_f32_n64_trans_sw%s" % sw, "f16", "f16", "f32", 64, sw, sw, transa=1, transb=1))
    c.append(Cfg("f16_f32_n64_transb_areg", "f16", "f16", "f32", 64, "128", "64", areg=True, transb=1))
    c.append(Cfg("f16_f32_n64_transa", "f16", "f16", "f32", 64, "32", "none", transa=1))
    # mixed swizzle modes, padded strides (SBO/LBO not compact)
    c.append(Cfg("f16_f32_n32_mixed_pad", "f16", "f16", "f32", 32, "none", "64", pad=1))
    # scale operands
    c.append(Cfg("f16_f32_n32_scaled0", "f16", "f16", "f32", 32, scale_d=0))
    c.append(Cfg("f16_f32_n32_nega", "f16", "f16", "f32", 32, scale_a=-1))
    c.append(Cfg("f16_f32_n32_negab", "f16", "f16", "f32", 32, scale_a=-1, scale_b=-1, areg=True))
    # K chains (descriptor advanced inside the swizzle row, as CUTLASS does)
    for sw in ("none", "32", "64", "128"):
        c.append(Cfg("f16_f32_n64_k4_sw%s" % sw, "f16", "f16", "f32", 64, sw, sw, ks=4))
    c.append(Cfg("f16_f32_n64_k4_trans_sw128", "f16", "f16", "f32", 64, "128", "128", ks=4, transa=1, transb=1))
    c.append(Cfg("f16_f32_n64_k4_areg", "f16", "f16", "f32", 64, "128", "128", ks=4, areg=True))
    c.append(Cfg("f16_f32_n64_k4_2groups", "f16", "f16", "f32", 64, ks=4, groups=2))
    # two warpgroups (M = 128), as CUTLASS's 128xN tiles
    c.append(Cfg("f16_f32_n64_wg2", "f16", "f16", "f32", 64, wgs=2))
    c.append(Cfg("f16_f32_n64_wg2_trans", "f16", "f16", "f32", 64, "64", "64", wgs=2, transa=1, transb=1))
    # descriptor fields: a junk LBO in swizzled K-major, base offset
    c.append(Cfg("f16_f32_n32_lbojunk", "f16", "f16", "f32", 32, lbo_junk=1))
    c.append(Cfg("f16_f32_n32_off384_bo0", "f16", "f16", "f32", 32, tile_off=384, base_off=0))
    c.append(Cfg("f16_f32_n32_off384_bo3", "f16", "f16", "f32", 32, tile_off=384, base_off=3))
    c.append(Cfg("f16_f32_n32_off384_sw64_bo0", "f16", "f16", "f32", 32, "64", "64", tile_off=384, base_off=0))
    # bf16
    c.append(Cfg("bf16_f32_n64", "bf16", "bf16", "f32", 64))
    c.append(Cfg("bf16_f32_n32_areg", "bf16", "bf16", "f32", 32, areg=True))
    c.append(Cfg("bf16_f32_n64_trans_sw64", "bf16", "bf16", "f32", 64, "64", "64", transa=1, transb=1))
    c.append(Cfg("bf16_f32_n24_sw32", "bf16", "bf16", "f32", 24, "32", "32"))
    # f16 accumulation
    c.append(Cfg("f16_f16_n64", "f16", "f16", "f16", 64))
    c.append(Cfg("f16_f16_n32_areg", "f16", "f16", "f16", 32, areg=True))
    c.append(Cfg("f16_f16_n64_trans_sw32", "f16", "f16", "f16", 64, "32", "32", transa=1, transb=1))
    c.append(Cfg("f16_f16_n256", "f16", "f16", "f16", 256, trials=1))
    # tf32
    for sw in ("none", "32", "64", "128"):
        c.append(Cfg("tf32_f32_n32_sw%s" % sw, "tf32", "tf32", "f32", 32, sw, sw))
    c.append(Cfg("tf32_f32_n64_areg", "tf32", "tf32", "f32", 64, areg=True))
    c.append(Cfg("tf32_f32_n8_k4", "tf32", "tf32", "f32", 8, ks=4))
    c.append(Cfg("tf32_f32_n256", "tf32", "tf32", "f32", 256, trials=1))
    # fp8
    for ta in ("e4m3", "e5m2"):
        for tb in ("e4m3", "e5m2"):
            c.append(Cfg("%s_%s_f32_n64" % (ta, tb), ta, tb, "f32", 64))
            c.append(Cfg("%s_%s_f16_n32" % (ta, tb), ta, tb, "f16", 32))
    for sw in ("none", "32", "64"):
        c.append(Cfg("e4m3_e4m3_f32_n32_sw%s" % sw, "e4m3", "e4m3", "f32", 32, sw, sw))
    c.append(Cfg("e4m3_e4m3_f32_n64_areg", "e4m3", "e4m3", "f32", 64, areg=True))
    c.append(Cfg("e5m2_e5m2_f32_n32_nega", "e5m2", "e5m2", "f32", 32, scale_a=-1, areg=True))
    c.append(Cfg("e4m3_e4m3_f32_n256", "e4m3", "e4m3", "f32", 256, trials=1))
    c.append(Cfg("e4m3_e4m3_f32_n64_k4", "e4m3", "e4m3", "f32", 64, ks=4))
    # integers
    for ta in ("s8", "u8"):
        for tb in ("s8", "u8"):
            c.append(Cfg("%s_%s_s32_n32" % (ta, tb), ta, tb, "s32", 32))
    c.append(Cfg("s8_s8_s32_n64_areg", "s8", "s8", "s32", 64, areg=True))
    c.append(Cfg("s8_s8_s32_n48_sw32", "s8", "s8", "s32", 48, "32", "32"))
    c.append(Cfg("s8_s8_s32_n32_sat", "s8", "s8", "s32", 32, sat=True, mode=3))
    c.append(Cfg("u8_u8_s32_n256", "u8", "u8", "s32", 256, trials=1))
    # accumulation numerics: many small products over wide exponent ranges,
    # inputs dumped for fitting (mode 1 wide, mode 2 with special values)
    for t in ("f16", "bf16", "tf32", "e4m3", "e5m2"):
        for md in (0, 1, 2):
            c.append(Cfg("fit_%s_f32_m%d" % (t, md), t, t, "f32", 16, areg=(t == "f16"), mode=md, trials=8, dump=True))
    for md in (0, 1, 2):
        c.append(Cfg("fit_f16_f16_m%d" % md, "f16", "f16", "f16", 16, mode=md, trials=8, dump=True))
        c.append(Cfg("fit_e4m3_f16_m%d" % md, "e4m3", "e4m3", "f16", 16, mode=md, trials=8, dump=True))
    c.append(Cfg("fit_e4m3_f32_k4", "e4m3", "e4m3", "f32", 16, mode=1, ks=4, trials=4, dump=True))
    c.append(Cfg("fit_f16_f32_k4", "f16", "f16", "f32", 16, mode=1, ks=4, trials=4, dump=True))
    return c


def layout_params(cfg, which):
    """(swizzle code, W, LBO, SBO, AK, bytes) of operand A or B."""
    t = cfg.ta if which == "A" else cfg.tb
    sw = cfg.swa if which == "A" else cfg.swb
    trans = cfg.transa if which == "A" else cfg.transb
    mn = 64 * cfg.wgs if which == "A" else cfg.n
    T = 16 // SIZE[t]
    K = KINST[t] * cfg.ks
    W = SWZW[sw]
    pad = 16 * cfg.pad
    if not trans:
        ku = K // T  # 16-byte units along K
        if sw == "none":
            lbo = 128 + pad
            sbo = lbo * ku + pad
            ak = 0
            size = sbo * (mn // 8)
        else:
            sbo = 128 * W + pad
            ak = sbo * (mn // 8)
            lbo = 16
            size = ak * ((ku + W - 1) // W)
    else:
        mu = (mn + T - 1) // T  # 16-byte units along MN
        kb = K // 8
        if sw == "none":
            sbo = 128 + pad
            lbo = sbo * mu + pad
            size = lbo * kb
            ak = 0
        else:
            lbo = 128 * W + pad
            atoms = (mu + W - 1) // W
            sbo = lbo * atoms
            size = sbo * kb
            ak = 0
    return SWZ[sw], W, lbo, sbo, ak, size


def emit_kernel(cfg, out):
    nt = 128 * cfg.wgs
    dregs = cfg.n // 2 if cfg.td in ("f32", "s32") else cfg.n // 4
    dcon = "f" if cfg.td == "f32" else "r"
    dty = "float" if cfg.td == "f32" else "uint32_t"
    swa, wa, lboa, sboa, aka, sizea = layout_params(cfg, "A")
    swb, wb, lbob, sbob, akb, sizeb = layout_params(cfg, "B")
    K = KINST[cfg.ta] * cfg.ks
    ki = KINST[cfg.ta]
    M = 64 * cfg.wgs
    ta, tb = TY[cfg.ta], TY[cfg.tb]
    sa, sb = SIZE[cfg.ta], SIZE[cfg.tb]
    off = cfg.tile_off
    bo = cfg.base_off if cfg.base_off is not None else 0
    p = out.append
    p("// %s" % cfg.name)
    p("__global__ void __launch_bounds__(%d) k_%s(uint32_t *out, uint32_t seed) {" % (nt, cfg.name))
    p("  __shared__ __align__(1024) uint8_t sA[%d];" % ((sizea + off + 1023) // 1024 * 1024))
    p("  __shared__ __align__(1024) uint8_t sB[%d];" % ((sizeb + off + 1023) // 1024 * 1024))
    p("  const int tid = threadIdx.x, wg = tid / 128, wl = tid % 128;")
    p("  seed = hsh(seed ^ (blockIdx.x * 0x2545f491u));")
    p("  uint32_t *oA = out + blockIdx.x * %d, *oB = oA + %d, *oC = oB + %d, *oD = oC + %d;"
      % (M * K + K * cfg.n + 2 * M * cfg.n + nt * dregs, M * K, K * cfg.n, M * cfg.n))
    p("  poison(sA, sizeof sA, seed ^ 1u, tid, %d);" % nt)
    p("  poison(sB, sizeof sB, seed ^ 2u, tid, %d);" % nt)
    p("  __syncthreads();")
    p("  const uint32_t baseA = smem_u32(sA) + %d, baseB = smem_u32(sB) + %d;" % (off, off))
    p("#pragma unroll 1")
    p("  for (int i = tid; i < %d; i += %d) {" % (M * K, nt))
    p("    int r = i / %d, k = i %% %d;" % (K, K))
    p("    uint32_t v = gen(%d, %d, H(seed, 1, r, k));" % (ta, cfg.mode))
    if not cfg.areg or True:
        p("    put(sA, baseA, lay(baseA, r, k, %d, %d, %d, %d, %d, %d, %d, %d), v, %d);"
          % (cfg.transa, swa, wa, lboa, sboa, aka, 16 // sa, sa, sa))
    p("    oA[i] = v;")
    p("  }")
    p("#pragma unroll 1")
    p("  for (int i = tid; i < %d; i += %d) {" % (cfg.n * K, nt))
    p("    int n = i / %d, k = i %% %d;" % (K, K))
    p("    uint32_t v = gen(%d, %d, H(seed, 2, n, k));" % (tb, cfg.mode))
    p("    put(sB, baseB, lay(baseB, n, k, %d, %d, %d, %d, %d, %d, %d, %d), v, %d);"
      % (cfg.transb, swb, wb, lbob, sbob, akb, 16 // sb, sb, sb))
    p("    oB[k * %d + n] = v;" % cfg.n)
    p("  }")
    # accumulators in the D fragment layout; the fragment words travel
    # through a per-thread scratch area (fr) that the asm block loads into
    # its own registers, so the PTX stays small at any N
    p("  const int w = wl / 32, g = (wl % 32) / 4, t = wl % 4, row0 = 64 * wg + 16 * w + g;")
    p("  uint32_t *fr = oD + %d + tid * %d;" % (M * cfg.n, dregs))
    p("#pragma unroll 1")
    p("  for (int i = 0; i < %d; i++) {" % dregs)
    if cfg.td == "f16":
        p("    int r = row0 + 8 * (i & 1), c = 8 * (i >> 1) + 2 * t;")
        p("    uint32_t lo = genc(%d, %d, H(seed, 3, r, c)), hi = genc(%d, %d, H(seed, 3, r, c + 1));"
          % (TY["f16"], cfg.mode, TY["f16"], cfg.mode))
        p("    fr[i] = lo | hi << 16;")
        p("    oC[r * %d + c] = lo; oC[r * %d + c + 1] = hi;" % (cfg.n, cfg.n))
    else:
        p("    int r = row0 + 8 * ((i >> 1) & 1), c = 8 * (i >> 2) + 2 * t + (i & 1);")
        p("    uint32_t v = genc(%d, %d, H(seed, 3, r, c));" % (TY[cfg.td], cfg.mode))
        p("    fr[i] = v;")
        p("    oC[r * %d + c] = v;" % cfg.n)
    p("  }")
    if cfg.areg:
        p("  uint32_t a[%d];" % (4 * cfg.ks))
        p("#pragma unroll")
        p("  for (int s = 0; s < %d; s++)" % cfg.ks)
        p("#pragma unroll")
        p("    for (int j = 0; j < 4; j++) a[4 * s + j] = afrag(seed, %d, %d, row0 + 8 * (j & 1), %d * s, j >> 1, t);"
          % (ta, cfg.mode, ki))
    p("  uint64_t da[%d] = {0}, db[%d];" % (cfg.ks, cfg.ks))
    if cfg.areg:
        p("  (void)da;")
    lbo_a = 0x3fff0 if cfg.lbo_junk else lboa
    lbo_b = 0x3ff0 if cfg.lbo_junk else lbob
    p("#pragma unroll 1")
    p("  for (int s = 0; s < %d; s++) {" % cfg.ks)
    p("    uint32_t sa0 = baseA + lay_lin(64 * wg, %d * s, %d, %d, %d, %d, %d, %d, %d, %d);"
      % (ki, cfg.transa, swa, wa, lboa, sboa, aka, 16 // sa, sa))
    p("    uint32_t sb0 = baseB + lay_lin(0, %d * s, %d, %d, %d, %d, %d, %d, %d, %d);"
      % (ki, cfg.transb, swb, wb, lbob, sbob, akb, 16 // sb, sb))
    p("    da[s] = desc(sa0, %d, %d, %d, %d); db[s] = desc(sb0, %d, %d, %d, %d);"
      % (lbo_a, sboa, bo, swa, lbo_b, sbob, bo, swb))
    p("  }")
    p("  fence_proxy_async();")
    p("  __syncthreads();")
    # operands: %0 fr, %1 scale_d, then per step descA (or 4 A regs), descB
    ins = ['"l"(fr)', '"r"((uint32_t)%d)' % cfg.scale_d]
    opn = 2
    rty = ".f32" if cfg.td == "f32" else ".b32"
    body = ["{", ".reg %s d<%d>;" % (rty, dregs), ".reg .pred p;", "setp.ne.b32 p, %1, 0;"]
    for i in range(dregs):
        body.append("ld.global%s d%d, [%%0+%d];" % (rty, i, 4 * i))
    body.append("wgmma.fence.sync.aligned;")
    dlist = ", ".join("d%d" % i for i in range(dregs))
    shape = "m64n%dk%d" % (cfg.n, ki)
    if cfg.td == "s32":
        typ = ("satfinite." if cfg.sat else "") + "s32.%s.%s" % (cfg.ta, cfg.tb)
    else:
        typ = "%s.%s.%s" % (cfg.td, cfg.ta, cfg.tb)
    for s in range(cfg.ks):
        if cfg.areg:
            aop = "{%%%d, %%%d, %%%d, %%%d}" % (opn, opn + 1, opn + 2, opn + 3)
            ins += ['"r"(a[%d])' % (4 * s + j) for j in range(4)]
            opn += 4
        else:
            aop = "%%%d" % opn
            ins.append('"l"(da[%d])' % s)
            opn += 1
        bop = "%%%d" % opn
        ins.append('"l"(db[%d])' % s)
        opn += 1
        if cfg.ta in ("s8", "u8"):
            tail = ""
        elif cfg.ta in ("tf32", "e4m3", "e5m2"):
            tail = ", %d, %d" % (cfg.scale_a, cfg.scale_b)
        elif cfg.areg:
            tail = ", %d, %d, %d" % (cfg.scale_a, cfg.scale_b, cfg.transb)
        else:
            tail = ", %d, %d, %d, %d" % (cfg.scale_a, cfg.scale_b, cfg.transa, cfg.transb)
        # the first step uses scale-d; later steps accumulate
        body.append("wgmma.mma_async.sync.aligned.%s.%s {%s}, %s, %s, %s%s;"
                    % (shape, typ, dlist, aop, bop, "p" if s == 0 else "1", tail))
        if cfg.groups == 2 and s == cfg.ks // 2 - 1:
            body.append("wgmma.commit_group.sync.aligned;")
    body.append("wgmma.commit_group.sync.aligned;")
    if cfg.groups == 2:
        body.append("wgmma.wait_group.sync.aligned 1;")
    body.append("wgmma.wait_group.sync.aligned 0;")
    for i in range(dregs):
        body.append("st.global%s [%%0+%d], d%d;" % (rty, 4 * i, i))
    body.append("}")
    p("  asm volatile(")
    for b in body:
        p("    \"%s\\n\"" % b)
    p("    :: %s : \"memory\");" % ", ".join(ins))
    p("#pragma unroll 1")
    p("  for (int i = 0; i < %d; i++) {" % dregs)
    if cfg.td == "f16":
        p("    int r = row0 + 8 * (i & 1), c = 8 * (i >> 1) + 2 * t;")
        p("    oD[r * %d + c] = fr[i] & 0xffff; oD[r * %d + c + 1] = fr[i] >> 16;" % (cfg.n, cfg.n))
    else:
        p("    int r = row0 + 8 * ((i >> 1) & 1), c = 8 * (i >> 2) + 2 * t + (i & 1);")
        p("    oD[r * %d + c] = fr[i];" % cfg.n)
    p("  }")
    p("}")
    p("")
    return M, K, nt * dregs


PRELUDE = r'''// wgmma.cu: generated by gen_wgmma.py (do not edit): wgmma.mma_async on
// an sm_90a GPU, one kernel per configuration; see gen_wgmma.py.
//   ./wgmma [NAME-SUBSTRING]   prints per configuration and trial the
//   logical D matrix (and A, B, C for the fit_ configurations), hex words
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
__device__ __forceinline__ uint32_t H(uint32_t seed, uint32_t m, uint32_t r, uint32_t c) {
  return hsh(seed ^ hsh(m * 0x9e3779b9u + r * 0x85ebca6bu + c * 0xc2b2ae35u + 1));
}
// the value bits of an element of type ty; mode 0: moderate exponents,
// 1: wide exponents, 2: moderate with special values, 3: (s32 C) near the limits
__device__ __noinline__ uint32_t gen(int ty, int mode, uint32_t h) {
  uint32_t h2 = hsh(h ^ 0x27d4eb2fu);
  int sp = mode == 2 && (h >> 28) == 0;
  switch (ty) {
  case 0: { // f16
    if (sp) { const uint16_t s[8] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x03ff}; return s[(h >> 24) & 7]; }
    uint32_t e = mode == 1 ? 1 + (h >> 16) % 30 : 10 + (h >> 16) % 11;
    return (h & 0x8000) | (e << 10) | ((h >> 3) & 0x3ff);
  }
  case 1: { // bf16
    if (sp) { const uint16_t s[8] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x7f7f, 0x007f}; return s[(h >> 24) & 7]; }
    uint32_t e = mode == 1 ? 70 + (h >> 16) % 110 : 120 + (h >> 16) % 16;
    return (h & 0x8000) | (e << 7) | ((h >> 3) & 0x7f);
  }
  case 2: case 7: { // tf32 (low 13 bits random), f32
    if (sp) { const uint32_t s[8] = {0x0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x1u, 0x7f7fffffu, 0x007fffffu}; return s[(h >> 24) & 7]; }
    uint32_t e = mode == 1 ? 70 + (h >> 16) % 110 : 120 + (h >> 16) % 16;
    return (h & 0x80000000u) | (e << 23) | (h2 & 0x7fffffu);
  }
  case 3: { // e4m3: no infinities, NaN = S.1111.111
    if (sp) { const uint8_t s[8] = {0x00, 0x80, 0x7f, 0xff, 0x01, 0x7e, 0xfe, 0x07}; return s[(h >> 24) & 7]; }
    uint32_t e = mode == 1 ? (h >> 16) % 16 : 4 + (h >> 16) % 8;
    uint32_t v = ((h >> 8) & 0x80) | (e << 3) | (h & 7);
    if ((v & 0x7f) == 0x7f) v ^= 1;
    return v;
  }
  case 4: { // e5m2: IEEE-like, exponent 31 = inf/NaN
    if (sp) { const uint8_t s[8] = {0x00, 0x80, 0x7c, 0xfc, 0x7e, 0x01, 0x7b, 0x03}; return s[(h >> 24) & 7]; }
    uint32_t e = mode == 1 ? (h >> 16) % 31 : 10 + (h >> 16) % 11;
    return ((h >> 8) & 0x80) | (e << 2) | (h & 3);
  }
  case 5: case 6: return h & 0xff;
  case 8: // s32
    if (mode == 3) return (h & 1) ? 0x7fffff00u + (h2 & 0xff) : 0x80000000u + (h2 & 0xff);
    return h;
  }
  return 0;
}
// an accumulator's C value: f32 C ranges as the inputs' products
__device__ __noinline__ uint32_t genc(int ty, int mode, uint32_t h) {
  if (ty == 7 && mode != 1) {
    uint32_t h2 = hsh(h ^ 0x27d4eb2fu);
    if (mode == 2 && (h >> 28) == 0) return gen(7, 2, h);
    return (h & 0x80000000u) | ((122 + (h >> 16) % 12) << 23) | (h2 & 0x7fffffu);
  }
  return gen(ty, mode, h);
}
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __noinline__ void poison(uint8_t *s, int bytes, uint32_t seed, int tid, int nt) {
#pragma unroll 1
  for (int i = tid; i < bytes / 4; i += nt) ((uint32_t *)s)[i] = hsh(seed + i * 0x9e3779b9u) & 0x3f3f3f3fu;
}
// byte offset (before the swizzle) of element (mn, k) in a canonical GMMA
// layout: tr 0 K-major, 1 MN-major; sw 0 none (interleave), else swizzled of
// W 16-byte units per row; T elements of size sz per 16 bytes; ak: K-major
// swizzled, the offset of the next atom along K
__device__ __host__ __noinline__ uint32_t lay_lin(int mn, int k, int tr, int sw, int W, int lbo, int sbo, int ak, int T, int sz) {
  if (!tr) {
    int ku = k / T, e = k % T;
    if (sw == 0) return (mn % 8) * 16 + (mn / 8) * sbo + ku * lbo + e * sz;
    return (mn % 8) * 16 * W + (mn / 8) * sbo + (ku % W) * 16 + (ku / W) * ak + e * sz;
  }
  int mu = mn / T, e = mn % T;
  if (sw == 0) return mu * sbo + (k % 8) * 16 + (k / 8) * lbo + e * sz;
  return (mu % W) * 16 + (mu / W) * lbo + (k % 8) * 16 * W + (k / 8) * sbo + e * sz;
}
// the swizzle on the absolute shared address: bits [4,4+B) ^= bits [7,7+B)
__device__ __host__ uint32_t swz(uint32_t a, int sw) {
  int b = sw == 1 ? 3 : sw == 2 ? 2 : sw == 3 ? 1 : 0;
  return a ^ (((a >> 7) & ((1u << b) - 1)) << 4);
}
__device__ __noinline__ uint32_t lay(uint32_t base, int mn, int k, int tr, int sw, int W, int lbo, int sbo, int ak, int T, int sz) {
  return swz(base + lay_lin(mn, k, tr, sw, W, lbo, sbo, ak, T, sz), sw);
}
__device__ __noinline__ void put(uint8_t *s, uint32_t sbase, uint32_t addr, uint32_t v, int sz) {
  uint8_t *p = s + (addr - (smem_u32(s)));
  if (sz == 1) *p = (uint8_t)v;
  else if (sz == 2) *(uint16_t *)p = (uint16_t)v;
  else *(uint32_t *)p = v;
}
__device__ __forceinline__ uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t bo, uint32_t sw) {
  return (uint64_t)((start & 0x3ffff) >> 4) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 |
         (uint64_t)((sbo >> 4) & 0x3fff) << 32 | (uint64_t)(bo & 7) << 49 | (uint64_t)sw << 62;
}
// one A register of the register-fragment form (rows r, cols from k0; kh
// the upper half of K): the mma.m16n8k* A fragment of each warp
__device__ __noinline__ uint32_t afrag(uint32_t seed, int ty, int mode, int r, int k0, int kh, int t) {
  uint32_t v = 0;
  if (ty == 0 || ty == 1) {
    for (int e = 0; e < 2; e++) v |= gen(ty, mode, H(seed, 1, r, k0 + 2 * t + e + 8 * kh)) << (16 * e);
  } else if (ty == 2) {
    v = gen(ty, mode, H(seed, 1, r, k0 + t + 4 * kh));
  } else {
    for (int e = 0; e < 4; e++) v |= gen(ty, mode, H(seed, 1, r, k0 + 4 * t + e + 16 * kh)) << (8 * e);
  }
  return v;
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait1() { asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory"); }

'''


def main():
    cfgs = configs()
    out = [PRELUDE]
    table = []
    for c in cfgs:
        M, K, scr = emit_kernel(c, out)
        table.append((c, M, K, scr))
    out.append("struct cfg { const char *name; void (*fn)(uint32_t *, uint32_t); int m, n, k, trials, threads, dump, scratch; };")
    out.append("static const cfg cfgs[] = {")
    for c, M, K, scr in table:
        out.append("  {\"%s\", k_%s, %d, %d, %d, %d, %d, %d, %d}," % (c.name, c.name, M, c.n, K, c.trials, 128 * c.wgs, int(c.dump), scr))
    out.append("};")
    out.append(r'''
static void dump(const char *tag, const uint32_t *p, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    printf("%s %d", tag, r);
    for (int c = 0; c < cols; c++) printf(" %x", p[r * cols + c]);
    printf("\n");
  }
}
int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  for (const cfg &c : cfgs) {
    if (!strstr(c.name, only)) continue;
    size_t per = (size_t)c.m * c.k + (size_t)c.k * c.n + 2 * (size_t)c.m * c.n + c.scratch;
    uint32_t *d_out, *h = (uint32_t *)malloc(per * c.trials * 4);
    cudaMalloc(&d_out, per * c.trials * 4);
    cudaMemset(d_out, 0, per * c.trials * 4);
    c.fn<<<c.trials, c.threads>>>(d_out, 0x5eed0001u);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d_out, per * c.trials * 4, cudaMemcpyDeviceToHost);
    printf("cfg %s m %d n %d k %d trials %d %s\n", c.name, c.m, c.n, c.k, c.trials, e ? cudaGetErrorString(e) : "ok");
    for (int t = 0; t < c.trials && !e; t++) {
      const uint32_t *p = h + per * t;
      printf("trial %d\n", t);
      if (c.dump) {
        dump("A", p, c.m, c.k);
        dump("B", p + c.m * c.k, c.k, c.n);
        dump("C", p + c.m * c.k + c.k * c.n, c.m, c.n);
      }
      dump("D", p + c.m * c.k + c.k * c.n + c.m * c.n, c.m, c.n);
    }
    cudaFree(d_out);
    free(h);
    if (e) return 1;
  }
  return 0;
}''')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
