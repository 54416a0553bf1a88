/* mov.c: data movement and conversion: mov (registers, predicates,
 * constants, symbol addresses, packing and unpacking, %clock), cvt between
 * every integer and floating-point type with rounding and saturation, cvta
 * between the generic and the specific address spaces, isspacep. */
#include "exec/b128.h"
#include "exec/cluster.h"
#include "exec/exec.h"
#include "exec/mma.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include <math.h>
#include <time.h>

#define REGS2                                                                                                \
  uint64_t *D = w->r[in->d];                                                                                 \
  const uint64_t *A = w->r[in->a]

static void mov_64(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = A[l]);
}
static void mov_32(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = (uint32_t)A[l]);
}
static void mov_16(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = (uint16_t)A[l]);
}
static void mov_pred(warp *w, const insn *in, uint32_t m) {
  uint32_t *p = w->p, s = p[in->a] ^ (uint32_t)in->imm;
  p[in->d] = (p[in->d] & ~m) | (s & m);
}

/* Pack vec elements of `in->c` bits each into d. */
static void mov_pack(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  int n = in->vec, bits = in->c;
  uint64_t mk = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  LANES(m, {
    uint64_t v = 0;
    for (int k = 0; k < n; k++) v |= (w->r[in->v[k]][l] & mk) << (k * bits);
    D[l] = v;
  });
}

static void mov_unpack(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  int n = in->vec, bits = in->c;
  uint64_t mk = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  LANES(m, {
    uint64_t v = A[l];
    for (int k = 0; k < n; k++)
      if (in->v[k] != SLOT_SINK) w->r[in->v[k]][l] = (v >> (k * bits)) & mk;
  });
}

/* %clock and %clock64 count this warp's executed instructions (%clock_hi
 * is the high half of %clock64); %globaltimer is the host's real-time clock
 * in nanoseconds (_lo and _hi its halves). Modes index clocks[] below. */
static void rdclock(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d], v;
  if (in->mode >= 2 && in->mode <= 4) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    v = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
  } else {
    v = w->ninsn * 4;
  }
  if (in->mode == 4 || in->mode == 5) v >>= 32;
  if (in->mode == 0 || in->mode == 3) v = (uint32_t)v;
  LANES(m, D[l] = v);
}

/* Address of a frame symbol: its offset plus the frame's local base, in
 * the local window when generic. */
static void localaddr(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  uint64_t v = (uint64_t)in->imm + w->local_base + (in->mode ? LOCAL_WINDOW : 0);
  LANES(m, D[l] = v);
}

static const char *const clocks[] = {
    "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%clock_hi", NULL};

static int vec_regs(dctx *D, dstmt *S, const ptx_operand *o, insn *in, int dst, int t) {
  if (o->nelems > 4) return dec_error(D, S, -1, "vectors of more than 4 elements are not supported");
  in->vec = (uint8_t)o->nelems;
  for (int k = 0; k < o->nelems; k++) {
    int r = dst ? dec_dst_opd(D, &o->elems[k], &in->v[k]) : dec_src_opd(D, &o->elems[k], t, &in->v[k]);
    if (r) return r < 0 ? -1 : dec_error(D, S, -1, "bad vector element");
  }
  return 0;
}

int dec_mov(dctx *D, dstmt *S, insn *in) {
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0) return -1;
  int t = S->types[0], bytes = ptx_type_size(t);
  const ptx_operand *d = &S->st->ops[0], *s = &S->st->ops[1];
  in->type = (uint8_t)t;
  if (t == PTX_T_B128) return dec_mov_b128(D, S, in); /* two slots (b128.c) */
  if (t == PTX_T_PRED) {
    int neg;
    if (dec_pdst(D, S, 0, &in->d) < 0 || dec_psrc(D, S, 1, &in->a, &neg) < 0) return -1;
    in->imm = neg ? FULL_MASK : 0;
    in->fn = mov_pred;
    return 0;
  }
  if (d->kind == PTX_OPD_VEC || s->kind == PTX_OPD_VEC) {
    const ptx_operand *v = d->kind == PTX_OPD_VEC ? d : s;
    if (v->nelems < 2 || bytes * 8 % v->nelems) return dec_error(D, S, -1, "bad vector in mov");
    in->c = (uint32_t)(bytes * 8 / v->nelems);
    int et = in->c == 8 ? PTX_T_B8 : in->c == 16 ? PTX_T_B16 : in->c == 32 ? PTX_T_B32 : PTX_T_B64;
    if (d->kind == PTX_OPD_VEC) {
      if (vec_regs(D, S, d, in, 1, et) < 0 || dec_src(D, S, 1, t, &in->a) < 0) return -1;
      in->fn = mov_unpack;
    } else {
      if (vec_regs(D, S, s, in, 0, et) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
      in->fn = mov_pack;
    }
    return 0;
  }
  if (dec_dst(D, S, 0, &in->d) < 0) return -1;
  if (s->kind == PTX_OPD_REG) {
    for (int k = 0; clocks[k]; k++)
      if (!strcmp(s->name, clocks[k])) {
        in->op = OP_RDCLOCK;
        in->mode = (uint8_t)k;
        in->fn = rdclock;
        return 0;
      }
  }
  int r = dec_src_opd(D, s, t, &in->a);
  if (r < 0) return -1;
  if (r == 1) {
    in->op = OP_LOCALADDR;
    in->imm = in->a;
    in->fn = localaddr;
    return 0;
  }
  in->fn = bytes >= 8 ? mov_64 : bytes == 4 ? mov_32 : mov_16;
  return 0;
}

/* ---- cvt ---- */
static int is_f(int t) { return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64; }
static int is_s(int t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }

/* A float source as a double (exact for every source type). */
static double fsrc(uint64_t v, int t, int ftz) {
  switch (t) {
  case PTX_T_F16:
    return fp_f16_to_f64((uint16_t)v);
  case PTX_T_BF16:
    return fp_bf16_to_f64((uint16_t)v);
  case PTX_T_F32: {
    float f = fp_from_bits32((uint32_t)v);
    if (ftz) f = fp_ftz32(f);
    return f;
  }
  default:
    return fp_from_bits64(v);
  }
}

static uint64_t cvt_one(const insn *in, uint64_t v) {
  int dt = in->type, st = in->type2, rm = in->mode, sat = in->flags & IF_SAT, ftz = in->flags & IF_FTZ;
  int db = ptx_type_size(dt) * 8, sb = ptx_type_size(st) * 8;
  if (!is_f(st)) {
    /* integer source */
    int64_t sv = is_s(st) ? (int64_t)(v << (64 - sb)) >> (64 - sb) : 0;
    uint64_t uv = sb >= 64 ? v : v & ((1ull << sb) - 1);
    if (!is_f(dt)) {
      if (sat) {
        if (is_s(dt)) {
          int64_t hi = (int64_t)((1ull << (db - 1)) - 1), lo = -hi - 1;
          if (is_s(st))
            sv = sv > hi ? hi : sv < lo ? lo : sv;
          else
            sv = uv > (uint64_t)hi ? hi : (int64_t)uv;
          return (uint64_t)sv;
        }
        uint64_t hi = db >= 64 ? ~0ull : (1ull << db) - 1;
        if (is_s(st)) return sv < 0 ? 0 : ((uint64_t)sv > hi ? hi : (uint64_t)sv);
        return uv > hi ? hi : uv;
      }
      uint64_t r = is_s(st) ? (uint64_t)sv : uv;
      if (db >= 64) return r;
      r &= (1ull << db) - 1;
      /* a signed result is sign-extended to the register's width */
      return is_s(dt) ? (uint64_t)((int64_t)(r << (64 - db)) >> (64 - db)) : r;
    }
    switch (dt) {
    case PTX_T_F32: {
      float f = is_s(st) ? fp_s64_to_f32(sv, rm) : fp_u64_to_f32(uv, rm);
      if (sat) f = fp_sat32(f);
      return fp_bits32(f);
    }
    case PTX_T_F64: {
      double f = is_s(st) ? fp_s64_to_f64(sv, rm) : fp_u64_to_f64(uv, rm);
      if (sat) f = fp_sat64(f);
      return fp_bits64(f);
    }
    case PTX_T_F16: {
      uint16_t h = is_s(st) ? fp_s64_to_f16(sv, rm) : fp_u64_to_f16(uv, rm);
      return sat ? fp_sat16(h) : h;
    }
    default:
      return is_s(st) ? fp_s64_to_bf16(sv, rm) : fp_u64_to_bf16(uv, rm);
    }
  }
  double x = fsrc(v, st, ftz);
  if (!is_f(dt)) {
    /* NaN converts differently from f64 than from narrower sources */
    if (is_s(dt)) return (uint64_t)(st == PTX_T_F64 ? fp_f64_to_s(x, rm, db) : fp_f32_to_s((float)x, rm, db));
    return st == PTX_T_F64 ? fp_f64_to_u(x, rm, db) : fp_f32_to_u((float)x, rm, db);
  }
  if (in->flags & IF_APPROX) {
    /* integer rounding within a float type (cvt.rni.f32.f32) */
    if (st == PTX_T_F32)
      x = fp_f32_rint((float)x, rm);
    else if (st == PTX_T_F64)
      x = fp_f64_rint(x, rm);
    else
      x = st == PTX_T_F16 ? fp_f16_to_f64(fp_f16_rint(fp_f64_to_f16(x, FP_RN), rm))
                          : fp_bf16_to_f64(fp_bf16_rint(fp_f64_to_bf16(x, FP_RN), rm));
    rm = FP_RN;
  }
  switch (dt) {
  case PTX_T_F32: {
    float f = st == PTX_T_F64 ? fp_f64_to_f32(x, rm) : (float)x;
    if (ftz) f = fp_ftz32(f);
    if (sat) f = fp_sat32(f);
    uint32_t b = fp_bits32(f);
    /* a NaN keeps its sign and top payload bits, quieted (measured on an
     * H200: cvt.rn.f32.f64 of 0x7ff8000000000000 gives 0x7fc00000) */
    if (f != f)
      b = st == PTX_T_F32   ? (uint32_t)v | 0x400000u
          : st == PTX_T_F64 ? (uint32_t)(v >> 32 & 0x80000000u) | 0x7fc00000u | (uint32_t)(v >> 29 & 0x3fffff)
                            : FP_CANON_NAN32;
    return b;
  }
  case PTX_T_F64: {
    double f = x;
    if (sat) f = fp_sat64(f);
    /* widening keeps a NaN's payload, quieted (as the GPU does) */
    return fp_bits64(f);
  }
  case PTX_T_F16: {
    uint16_t h = fp_f64_to_f16(x, rm);
    return sat ? fp_sat16(h) : h;
  }
  default: {
    uint16_t h = fp_f64_to_bf16(x, rm);
    return sat ? fp_f32_to_bf16(fp_sat32(fp_bf16_to_f32(h)), FP_RN) : h;
  }
  }
}

static void cvt_gen(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = cvt_one(in, A[l]));
}
static void cvt_zx32(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = (uint32_t)A[l]);
}
static void cvt_sx32(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, D[l] = (uint64_t)(int64_t)(int32_t)A[l]);
}

/* cvt.rn.f16x2.f32 d, a, b: a goes to the upper half, b to the lower. */
static void cvt_pack2(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  int bf = in->type == PTX_T_BF16X2, rm = in->mode;
  LANES(m, {
    float a = fp_from_bits32((uint32_t)A[l]), b = fp_from_bits32((uint32_t)B[l]);
    uint32_t hi = bf ? fp_f32_to_bf16(a, rm) : fp_f32_to_f16(a, rm);
    uint32_t lo = bf ? fp_f32_to_bf16(b, rm) : fp_f32_to_f16(b, rm);
    if (in->flags & IF_SAT) {
      hi = fp_sat16((uint16_t)hi);
      lo = fp_sat16((uint16_t)lo);
    }
    D[l] = hi << 16 | lo;
  });
}

/* ---- fp8 pairs (sm_89+): .e4m3x2 / .e5m2x2 ----
 * in->mode: bit 0 e5m2 (else e4m3), bit 1 .relu. To fp8: round to
 * nearest even, .satfinite clamps to the largest finite value (448, 57344;
 * infinities too), NaN gives 0x7f, .relu makes negatives (and -0) +0. From
 * fp8: exact; NaN gives 0x7fff. The first source (or the upper half)
 * goes to the upper byte. (All as the H100 gave: tests/hw/wgmma fp8_cvt.) */
static uint32_t to_fp8(double x, int mode) {
  int e5 = mode & 1, mb = e5 ? 2 : 3, emin = e5 ? -14 : -6, bias = e5 ? 15 : 7;
  double mx = e5 ? 57344.0 : 448.0;
  if (x != x) return 0x7f;
  if ((mode & 2) && (x < 0 || (x == 0 && signbit(x)))) return 0;
  uint32_t s = signbit(x) ? 0x80 : 0;
  double ax = fabs(x);
  if (ax == 0) return s;
  if (isinf(ax)) return s | (e5 ? 0x7b : 0x7e);
  int e = ilogb(ax);
  if (e < emin) e = emin;
  double q = ldexp(1.0, e - mb), r = nearbyint(ax / q) * q;
  if (r > mx) r = mx;
  if (r == 0) return s;
  int e2 = ilogb(r);
  if (e2 < emin) return s | (uint32_t)(r / ldexp(1.0, emin - mb));
  return s | (uint32_t)(e2 + bias) << mb | ((uint32_t)(r / ldexp(1.0, e2 - mb)) - (1u << mb));
}
static uint32_t from_fp8(uint32_t x, int mode) {
  double v = fp8_to_double(mode & 1 ? E_E5M2 : E_E4M3, x & 0xff);
  if (v != v) return 0x7fff;
  if ((mode & 2) && (v < 0 || (x & 0x80))) return 0;
  return fp_f64_to_f16(v, FP_RN);
}
static void cvt_f8_f32(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  LANES(m, D[l] = to_fp8(fp_from_bits32((uint32_t)A[l]), in->mode) << 8 |
                  to_fp8(fp_from_bits32((uint32_t)B[l]), in->mode));
}
static void cvt_f8_f16x2(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, {
    uint32_t a = (uint32_t)A[l];
    D[l] = to_fp8(fp_f16_to_f64((uint16_t)(a >> 16)), in->mode) << 8 |
           to_fp8(fp_f16_to_f64((uint16_t)a), in->mode);
  });
}
static void cvt_f16x2_f8(warp *w, const insn *in, uint32_t m) {
  REGS2;
  LANES(m, {
    uint32_t a = (uint32_t)A[l];
    D[l] = from_fp8(a >> 8, in->mode) << 16 | from_fp8(a, in->mode);
  });
}

/* cvt with an .e4m3x2/.e5m2x2 side; 1 when it was one (decoded or an error
 * reported: *rc), 0 for other conversions. */
static int dec_cvt_fp8(dctx *D, dstmt *S, insn *in, int *rc) {
  int i8 = -1, io = -1, e5 = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    const char *md = S->st->mods[i];
    if (!strcmp(md, "e4m3x2") || !strcmp(md, "e5m2x2")) {
      i8 = i;
      e5 = md[1] == '5';
    } else if (!strcmp(md, "f32") || !strcmp(md, "f16x2") || !strcmp(md, "bf16x2"))
      io = i;
  }
  if (i8 < 0) return 0;
  dec_take(S, e5 ? "e5m2x2" : "e4m3x2");
  in->mode = (uint8_t)(e5 | (dec_take(S, "relu") ? 2 : 0));
  int rn = dec_take(S, "rn"), sat = dec_take(S, "satfinite");
  *rc = -1;
  if (io < 0)
    return dec_error(D, S, -1, "cvt with .%s needs .f32 or .f16x2 on the other side",
                     e5 ? "e5m2x2" : "e4m3x2"),
           1;
  const char *other = S->st->mods[io];
  if (!rn) return dec_error(D, S, -1, "cvt to or from an fp8 pair needs .rn"), 1;
  if (i8 < io) { /* to fp8 */
    if (!sat) return dec_error(D, S, -1, "cvt to .%s needs .satfinite", e5 ? "e5m2x2" : "e4m3x2"), 1;
    if (!strcmp(other, "f32")) {
      if (dec_nops(D, S, 3) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_F32, &in->a) < 0 ||
          dec_src(D, S, 2, PTX_T_F32, &in->b) < 0)
        return 1;
      in->fn = cvt_f8_f32;
    } else if (!strcmp(other, "f16x2")) {
      if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_B32, &in->a) < 0)
        return 1;
      in->fn = cvt_f8_f16x2;
    } else {
      return dec_error(D, S, -1, "cvt to an fp8 pair from .%s is not supported", other), 1;
    }
  } else {
    if (strcmp(other, "f16x2") || sat)
      return dec_error(D, S, -1, "cvt from an fp8 pair gives .f16x2 (no .satfinite)"), 1;
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_B16, &in->a) < 0)
      return 1;
    in->fn = cvt_f16x2_f8;
  }
  S->used = (S->st->nmods >= 64) ? ~0ull : (1ull << S->st->nmods) - 1;
  *rc = 0;
  return 1;
}

int dec_cvt_ext(dctx *D, dstmt *S, insn *in, int *rc); /* cvtx.c: tf32, packed .relu/.satfinite */

int dec_cvt(dctx *D, dstmt *S, insn *in) {
  int rc8;
  if (dec_cvt_fp8(D, S, in, &rc8)) return rc8;
  if (dec_cvt_ext(D, S, in, &rc8)) return rc8;
  int irm = dec_round(S, 1), frm = dec_round(S, 0);
  if (dec_take(S, "ftz")) in->flags |= IF_FTZ;
  if (dec_take(S, "sat")) in->flags |= IF_SAT;
  dec_take(S, "relu");
  if (dec_ntypes(D, S, 2) < 0) return -1;
  int dt = S->types[0], st = S->types[1];
  in->type = (uint8_t)dt;
  in->type2 = (uint8_t)st;
  if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {
    if (st != PTX_T_F32 || dec_nops(D, S, 3) < 0)
      return dec_error(D, S, -1, "cvt to .f16x2/.bf16x2 takes two .f32 sources");
    in->mode = (uint8_t)(frm < 0 ? FP_RN : frm);
    if (dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, st, &in->a) < 0 || dec_src(D, S, 2, st, &in->b) < 0)
      return -1;
    in->fn = cvt_pack2;
    return 0;
  }
  if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, st, &in->a) < 0) return -1;
  if (int_class(dt) == IT_NONE && !is_f(dt))
    return dec_error(D, S, -1, "cvt does not convert to .%s", ptx_type_name(dt));
  if (int_class(st) == IT_NONE && !is_f(st))
    return dec_error(D, S, -1, "cvt does not convert from .%s", ptx_type_name(st));
  /* rounding modifiers as ptxas requires them */
  if (is_f(st) && !is_f(dt) && irm < 0)
    return dec_error(D, S, -1, "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
  if (!is_f(st) && is_f(dt) && frm < 0)
    return dec_error(D, S, -1, "integer-to-float cvt needs .rn, .rz, .rm or .rp");
  if (!is_f(st) && !is_f(dt) && (frm >= 0 || irm >= 0))
    return dec_error(D, S, -1, "integer-to-integer cvt takes no rounding modifier");
  if (is_f(st) && is_f(dt) && st != dt) {
    int narrow = ptx_type_size(dt) <= ptx_type_size(st);
    /* between f16 and bf16 ptxas takes no rounding modifier as .rn; from
     * bf16 to f32/f64 it takes one, moot since every bf16 is exact there */
    int halves = (st == PTX_T_F16 && dt == PTX_T_BF16) || (st == PTX_T_BF16 && dt == PTX_T_F16);
    if (narrow && frm < 0 && !halves)
      return dec_error(D, S, -1, "narrowing float cvt needs .rn, .rz, .rm or .rp");
    if (!narrow && frm >= 0 && st != PTX_T_BF16)
      return dec_error(D, S, -1, "widening float cvt takes no rounding modifier");
  }
  if (is_f(st) && is_f(dt) && irm >= 0) {
    if (st != dt) return dec_error(D, S, -1, "integer rounding needs equal float types");
    in->flags |= IF_APPROX;
  }
  in->mode = (uint8_t)(irm >= 0 ? irm : frm >= 0 ? frm : FP_RN);
  int sb = ptx_type_size(st), db = ptx_type_size(dt);
  if (!is_f(st) && !is_f(dt) && !(in->flags & IF_SAT) && db == 8 && sb == 4)
    in->fn = is_s(st) ? cvt_sx32 : cvt_zx32;
  else if (!is_f(st) && !is_f(dt) && !(in->flags & IF_SAT) && db == 4 && sb >= 4)
    in->fn = cvt_zx32;
  else
    in->fn = cvt_gen;
  return 0;
}

/* ---- cvta / isspacep ---- */
static void cvta_add(warp *w, const insn *in, uint32_t m) {
  REGS2;
  uint64_t k = (uint64_t)in->imm;
  LANES(m, D[l] = A[l] + k);
}
static void cvta_sub(warp *w, const insn *in, uint32_t m) {
  REGS2;
  uint64_t k = (uint64_t)in->imm, mk = in->vec == 4 ? 0xffffffffull : ~0ull;
  LANES(m, D[l] = (A[l] - k) & mk);
}
static void isspacep_h(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  uint32_t r = 0;
  LANES(m, {
    uint64_t a = A[l];
    int sh = a - SHARED_WINDOW < WINDOW_SIZE, lo = a - LOCAL_WINDOW < WINDOW_SIZE,
        pa = a - PARAM_WINDOW < WINDOW_SIZE;
    int v = in->mode == PTX_SPACE_SHARED           ? cluster_isspacep(w, a, 0)
            : in->mode == PTX_SPACE_SHARED_CLUSTER ? cluster_isspacep(w, a, 1)
            : in->mode == PTX_SPACE_LOCAL          ? lo
            : in->mode == PTX_SPACE_PARAM          ? pa
                                                   : !sh && !lo && !pa;
    r |= (uint32_t)v << l;
  });
  w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
}

int dec_cvta(dctx *D, dstmt *S, insn *in) {
  int to = dec_take(S, "to");
  int sp = dec_space(S);
  if (sp == PTX_SPACE_GENERIC) return dec_error(D, S, -1, "%s needs a state space", S->st->opcode);
  uint64_t win = sp == PTX_SPACE_SHARED || sp == PTX_SPACE_SHARED_CLUSTER ? SHARED_WINDOW
                 : sp == PTX_SPACE_LOCAL                                  ? LOCAL_WINDOW
                 : sp == PTX_SPACE_PARAM                                  ? PARAM_WINDOW
                                                                          : 0;
  if (in->op == OP_ISSPACEP) {
    if (dec_nops(D, S, 2) < 0 || dec_pdst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_U64, &in->a) < 0)
      return -1;
    in->mode = (uint8_t)(sp == PTX_SPACE_CONST ? PTX_SPACE_GLOBAL : sp);
    in->fn = isspacep_h;
    return 0;
  }
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
  in->vec = (uint8_t)ptx_type_size(S->types[0]);
  int r = dec_src_opd(D, &S->st->ops[1], S->types[0], &in->a);
  if (r < 0) return -1;
  if (r == 1) {
    if (to || sp != PTX_SPACE_LOCAL) return dec_error(D, S, 1, "a local symbol needs cvta.local");
    in->op = OP_LOCALADDR;
    in->imm = in->a;
    in->mode = 1;
    in->fn = localaddr;
    return 0;
  }
  in->imm = (int64_t)win;
  in->fn = to ? cvta_sub : cvta_add;
  return 0;
}
