#!/usr/bin/env python3
"""gen_sp.py: writes sp.cu, the recording program of tests/hw/sparse: one
warp per trial runs one matrix instruction (sparse mma.sp, the Volta-shape
m8n8k4 f16, the integer, single-bit and f64 mma shapes) on fragments each
lane draws from an integer hash of (case, trial, lane, word), so smemu can
run the same PTX with the same inputs. Per lane the kernel writes a hash of
its input words and the D words.
  python3 gen_sp.py > sp.cu"""

# word generators: f16/bf16 pairs, f32 (tf32), f64 halves, fp8 and integer
# bytes (random bits), b1 (random bits)
# A case: name, instruction, words of D, A, B, C, generator of A/B and of C,
# metadata kind (None, '24' for 2:4 pairs, '12' for tf32's 1:2), selector.
CASES = []


def case(name, ins, nd, na, nb, nc, gab, gc, meta=None, sel=0):
    CASES.append((name, ins, nd, na, nb, nc, gab, gc, meta, sel))


SP = "mma.sp.sync.aligned."
SPO = "mma.sp::ordered_metadata.sync.aligned."
for s in range(4):
    case("sp_m16n8k16_f32_f16_s%d" % s, SP + "m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 2, 4, "f16", "f32", "24", s)
for s in range(2):
    case("sp_m16n8k32_f32_f16_s%d" % s, SP + "m16n8k32.row.col.f32.f16.f16.f32", 4, 4, 4, 4, "f16", "f32", "24", s)
case("sp_m16n8k16_f16_f16", SP + "m16n8k16.row.col.f16.f16.f16.f16", 2, 2, 2, 2, "f16", "f16", "24", 1)
case("sp_m16n8k32_f16_f16", SP + "m16n8k32.row.col.f16.f16.f16.f16", 2, 4, 4, 2, "f16", "f16", "24", 1)
case("sp_m16n8k16_f32_bf16", SP + "m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 2, 4, "bf16", "f32", "24", 2)
case("sp_m16n8k32_f32_bf16", SP + "m16n8k32.row.col.f32.bf16.bf16.f32", 4, 4, 4, 4, "bf16", "f32", "24", 0)
for s in range(4):
    case("sp_m16n8k8_f32_tf32_s%d" % s, SP + "m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 2, 4, "f32", "f32", "12", s)
for s in range(2):
    case("sp_m16n8k16_f32_tf32_s%d" % s, SP + "m16n8k16.row.col.f32.tf32.tf32.f32", 4, 4, 4, 4, "f32", "f32", "12", s)
for s in range(2):
    case("sp_m16n8k32_s8_s%d" % s, SP + "m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 2, 4, "i", "i", "24", s)
case("sp_m16n8k32_u8s8_sat", SP + "m16n8k32.row.col.satfinite.s32.u8.s8.s32", 4, 2, 2, 4, "i", "sat", "24", 1)
case("sp_m16n8k64_s8", SP + "m16n8k64.row.col.s32.s8.s8.s32", 4, 4, 4, 4, "i", "i", "24", 0)
case("sp_m16n8k64_s8u8_sat", SP + "m16n8k64.row.col.satfinite.s32.s8.u8.s32", 4, 4, 4, 4, "i", "sat", "24", 0)
for s in range(2):
    case("sp_m16n8k64_s4_s%d" % s, SP + "m16n8k64.row.col.s32.s4.s4.s32", 4, 2, 2, 4, "i", "i", "24", s)
case("sp_m16n8k128_u4s4_sat", SP + "m16n8k128.row.col.satfinite.s32.u4.s4.s32", 4, 4, 4, 4, "i", "sat", "24", 0)
case("sp_m16n8k64_e4m3", SP + "m16n8k64.row.col.f32.e4m3.e4m3.f32", 4, 4, 4, 4, "fp8", "f32", "24", 0)
case("sp_m16n8k64_e5m2e4m3", SP + "m16n8k64.row.col.f32.e5m2.e4m3.f32", 4, 4, 4, 4, "fp8", "f32", "24", 0)
case("spo_m16n8k16_f32_f16", SPO + "m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 2, 4, "f16", "f32", "24", 0)
case("spo_m16n8k32_s8", SPO + "m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 2, 4, "i", "i", "24", 1)
case("spo_m16n8k64_e4m3", SPO + "m16n8k64.row.col.f32.e4m3.e4m3.f32", 4, 4, 4, 4, "fp8", "f32", "24", 0)
case("spo_m16n8k8_f32_tf32", SPO + "m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 2, 4, "f32", "f32", "12", 1)
# the Volta shape: every layout pair, f16 and f32 C/D, and the mixed types
M = "mma.sync.aligned."
for al in ("row", "col"):
    for bl in ("row", "col"):
        case("m8n8k4_%s_%s_f16" % (al, bl), M + "m8n8k4.%s.%s.f16.f16.f16.f16" % (al, bl), 4, 2, 2, 4, "f16", "f16")
        case("m8n8k4_%s_%s_f32" % (al, bl), M + "m8n8k4.%s.%s.f32.f16.f16.f32" % (al, bl), 8, 2, 2, 8, "f16", "f32")
case("m8n8k4_row_col_f32_f16c", M + "m8n8k4.row.col.f32.f16.f16.f16", 8, 2, 2, 4, "f16", "f16")
# integer shapes and signedness mixes
for a in ("s8", "u8"):
    for b in ("s8", "u8"):
        for sat in ("", ".satfinite"):
            g = "sat" if sat else "i"
            case("m8n8k16_%s%s%s" % (a, b, sat[1:4]), M + "m8n8k16.row.col%s.s32.%s.%s.s32" % (sat, a, b), 2, 1, 1, 2, "i", g)
            case("m16n8k16_%s%s%s" % (a, b, sat[1:4]), M + "m16n8k16.row.col%s.s32.%s.%s.s32" % (sat, a, b), 4, 2, 1, 4, "i", g)
case("m16n8k32_s8u8_sat", M + "m16n8k32.row.col.satfinite.s32.s8.u8.s32", 4, 4, 2, 4, "i", "sat")
for a in ("s4", "u4"):
    for b in ("s4", "u4"):
        case("m8n8k32_%s%s" % (a, b), M + "m8n8k32.row.col.s32.%s.%s.s32" % (a, b), 2, 1, 1, 2, "i", "i")
        case("m16n8k32_%s%s" % (a, b), M + "m16n8k32.row.col.s32.%s.%s.s32" % (a, b), 4, 2, 1, 4, "i", "i")
        case("m16n8k64_%s%s" % (a, b), M + "m16n8k64.row.col.s32.%s.%s.s32" % (a, b), 4, 4, 2, 4, "i", "i")
case("m8n8k32_s4u4_sat", M + "m8n8k32.row.col.satfinite.s32.s4.u4.s32", 2, 1, 1, 2, "i", "sat")
case("m16n8k32_u4s4_sat", M + "m16n8k32.row.col.satfinite.s32.u4.s4.s32", 4, 2, 1, 4, "i", "sat")
for op in ("xor", "and"):
    case("m8n8k128_b1_%s" % op, M + "m8n8k128.row.col.s32.b1.b1.s32.%s.popc" % op, 2, 1, 1, 2, "i", "i")
    case("m16n8k128_b1_%s" % op, M + "m16n8k128.row.col.s32.b1.b1.s32.%s.popc" % op, 4, 2, 1, 4, "i", "i")
    case("m16n8k256_b1_%s" % op, M + "m16n8k256.row.col.s32.b1.b1.s32.%s.popc" % op, 4, 4, 2, 4, "i", "i")
# f64 shapes past m8n8k4 (counts in doubles)
case("m16n8k4_f64", M + "m16n8k4.row.col.f64.f64.f64.f64", 4, 2, 1, 4, "f64", "f64")
case("m16n8k8_f64", M + "m16n8k8.row.col.f64.f64.f64.f64", 4, 4, 2, 4, "f64", "f64")
case("m16n8k16_f64", M + "m16n8k16.row.col.f64.f64.f64.f64", 4, 8, 4, 4, "f64", "f64")

HEAD = r'''// sp.cu: generated by gen_sp.py (do not edit): sparse mma.sp, the
// Volta-shape m8n8k4 f16, integer, single-bit and f64 mma shapes on an
// sm_90 GPU. One warp per trial; each lane draws its fragment words from an
// integer hash of (case, trial, lane, word), every fourth trial with
// special values. Prints "cfg NAME status", then per trial and lane a hash
// of the input words and the D words (hex).

#define TRIALS 16
#define STRIDE 17

#include "sp_common.cuh"

// word i of generator g
__device__ uint32_t gen(int g, uint32_t h, uint32_t h2, int sp, int i) {
  switch (g) {
  case 0: return rnd_f16(h, sp) | rnd_f16(h2, sp) << 16;
  case 1: return rnd_bf16(h, sp) | rnd_bf16(h2, sp) << 16;
  case 2: return rnd_f32(h, h2, sp);
  case 3: { uint64_t v = rnd_f64(h, h2, sp); return (i & 1) ? (uint32_t)(v >> 32) : (uint32_t)v; }
  case 5: return (h & 1) ? 0x7fffff00u + (h2 & 0xff) : 0x80000000u + (h2 & 0xff);
  default: return h;
  }
}
'''

GEN = {"f16": 0, "bf16": 1, "f32": 2, "f64": 3, "i": 4, "fp8": 4, "sat": 5}


def body(c):
    name, ins, nd, na, nb, nc, gab, gc, meta, sel = c
    f64 = gab == "f64"
    out = []
    if f64:
        dv = ["e%d" % i for i in range(nd)]
        out.append("    double %s;" % ", ".join(dv))
        ops = []
        n = 0
        for cnt in (nd,):
            ops.append("{" + ",".join("%%%d" % (n + i) for i in range(cnt)) + "}")
            n += cnt
        ins_ops = []
        for base, cnt in ((0, na), (16, nb), (24, nc)):
            ops.append("{" + ",".join("%%%d" % (n + i) for i in range(cnt)) + "}")
            n += cnt
            ins_ops += ['"d"(__hiloint2double(w[%d], w[%d]))' % (base + 2 * i + 1, base + 2 * i) for i in range(cnt)]
        out.append('    asm volatile("%s %s;" : %s : %s);' % (
            ins, ", ".join(ops), ", ".join('"=d"(%s)' % v for v in dv), ", ".join(ins_ops)))
        for i in range(nd):
            out.append("    d[%d] = __double2loint(e%d); d[%d] = __double2hiint(e%d);" % (2 * i, i, 2 * i + 1, i))
        return out, 2 * nd
    ops = []
    n = 0
    for cnt in (nd, na, nb, nc):
        ops.append("{" + ",".join("%%%d" % (n + i) for i in range(cnt)) + "}")
        n += cnt
    ins_ops = ['"r"(w[%d])' % i for i in range(na)] + ['"r"(w[%d])' % (16 + i) for i in range(nb)] + \
        ['"r"(w[%d])' % (24 + i) for i in range(nc)]
    if meta:
        ops.append("%%%d" % n)
        ops.append(str(sel))
        ins_ops.append('"r"(meta)')
    out.append('    asm volatile("%s %s;" : %s : %s);' % (
        ins, ", ".join(ops), ", ".join('"=r"(d[%d])' % i for i in range(nd)), ", ".join(ins_ops)))
    return out, nd


def main():
    print(HEAD)
    print("__global__ void sp_k(int cfg, uint32_t *out) {")
    print("  int t = blockIdx.x, lane = threadIdx.x, sp = (t & 3) == 3;")
    print("  uint32_t w[32], d[16], meta;")
    print("  int gab = 0, gc = 0, mk = 0;")
    print("  switch (cfg) {")
    for i, c in enumerate(CASES):
        gab, gc, meta = GEN[c[6]], GEN[c[7]], c[8]
        print("  case %d: gab = %d; gc = %d; mk = %d; break;" % (i, gab, gc, 0 if not meta else 1 if meta == "24" else 2))
    print("  }")
    print("""  for (int i = 0; i < 32; i++) {
    uint32_t h = hsh((uint32_t)cfg * 0x01000193u + t * 0x9e3779b9u + lane * 0x85ebca6bu + i * 0xc2b2ae35u + 1);
    uint32_t h2 = hsh(h ^ 0x27d4eb2fu);
    w[i] = gen(i < 24 ? gab : gc, h, h2, sp, i);
  }
  // f64: both halves of a double from one draw
  for (int i = 0; i < 32 && gab == 3; i += 2) {
    uint32_t h = hsh((uint32_t)cfg * 0x01000193u + t * 0x9e3779b9u + lane * 0x85ebca6bu + i * 0xc2b2ae35u + 1);
    uint64_t v = rnd_f64(h, hsh(h ^ 0x27d4eb2fu), sp);
    w[i] = (uint32_t)v; w[i + 1] = (uint32_t)(v >> 32);
  }
  uint32_t hm = hsh((uint32_t)cfg * 0x3c6ef372u + t * 0x61c88647u + lane * 0x2545f491u + 7);
  meta = mk == 1 ? meta24(hm) : mk == 2 ? meta12(hm) : 0;
  for (int i = 0; i < 16; i++) d[i] = 0;
  switch (cfg) {""")
    nds = []
    for i, c in enumerate(CASES):
        print("  case %d: {" % i)
        lines, ndw = body(c)
        nds.append(ndw)
        for ln in lines:
            print(ln)
        print("  } break;")
    print("""  }
  uint32_t ih = meta;
  for (int i = 0; i < 32; i++) ih = hsh(ih ^ w[i]);
  uint32_t *o = out + (t * 32 + lane) * STRIDE;
  o[0] = ih;
  for (int i = 0; i < 16; i++) o[1 + i] = d[i];
}
""")
    print("static const char *names[] = {%s};" % ", ".join('"%s"' % c[0] for c in CASES))
    print("static const int nd[] = {%s};" % ", ".join(str(n) for n in nds))
    print("#define NCASES %d" % len(CASES))
    print(r'''
int main() { return run_cases(sp_k, NCASES, names, nd, TRIALS, 32, STRIDE); }''')


main()
