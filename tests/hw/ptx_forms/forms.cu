// forms.cu: one thread per input, one kernel per PTX form; prints every
// result as hex so that smemu's output can be compared line by line with a
// GPU's (recorded/forms.out, record.sh). Inputs are edge values (zeros,
// denormals, the largest finite values, infinities, NaNs, rounding ties)
// and a fixed pseudo-random tail.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

#define N 144
typedef uint32_t u32;

#define UN(k, body) \
  __global__ void k(const u32 *A, const u32 *B, const u32 *C, u32 *D) { \
    int i = threadIdx.x; u32 a = A[i], d; (void)B; (void)C; asm volatile(body : "=r"(d) : "r"(a)); D[i] = d; }
#define BI(k, body) \
  __global__ void k(const u32 *A, const u32 *B, const u32 *C, u32 *D) { \
    int i = threadIdx.x; u32 a = A[i], b = B[i], d; (void)C; asm volatile(body : "=r"(d) : "r"(a), "r"(b)); D[i] = d; }
#define TE(k, body) \
  __global__ void k(const u32 *A, const u32 *B, const u32 *C, u32 *D) { \
    int i = threadIdx.x; u32 a = A[i], b = B[i], c = C[i], d; asm volatile(body : "=r"(d) : "r"(a), "r"(b), "r"(c)); D[i] = d; }
#define FORMS(X) \
  X(UN, F, cvt_rn_tf32, "cvt.rn.tf32.f32 %0, %1;") \
  X(UN, F, cvt_rz_tf32, "cvt.rz.tf32.f32 %0, %1;") \
  X(UN, F, cvt_rna_tf32, "cvt.rna.tf32.f32 %0, %1;") \
  X(UN, F, cvt_rn_relu_tf32, "cvt.rn.relu.tf32.f32 %0, %1;") \
  X(UN, F, cvt_rz_relu_tf32, "cvt.rz.relu.tf32.f32 %0, %1;") \
  X(UN, F, cvt_rna_satf_tf32, "cvt.rna.satfinite.tf32.f32 %0, %1;") \
  X(BI, F, cvt_rn_f16x2, "cvt.rn.f16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_rz_f16x2, "cvt.rz.f16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_rn_relu_satf_f16x2, "cvt.rn.relu.satfinite.f16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_rn_satf_f16x2, "cvt.rn.satfinite.f16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_rn_satf_bf16x2, "cvt.rn.satfinite.bf16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_rz_relu_bf16x2, "cvt.rz.relu.bf16x2.f32 %0, %1, %2;") \
  X(BI, F, cvt_e4m3x2, "{.reg .b16 h; cvt.rn.satfinite.e4m3x2.f32 h, %1, %2; cvt.u32.u16 %0, h;}") \
  X(BI, F, cvt_relu_e5m2x2, "{.reg .b16 h; cvt.rn.satfinite.relu.e5m2x2.f32 h, %1, %2; cvt.u32.u16 %0, h;}") \
  X(BI, H, set_eq_f16x2, "set.eq.f16x2.f16x2 %0, %1, %2;") \
  X(BI, H, set_ltu_f16x2, "set.ltu.f16x2.f16x2 %0, %1, %2;") \
  X(BI, H, set_ge_u32_f16x2, "set.ge.u32.f16x2 %0, %1, %2;") \
  X(BI, H, set_nan_s32_f16x2, "set.nan.s32.f16x2 %0, %1, %2;") \
  X(BI, H, set_ftz_gt_f16x2, "set.gt.ftz.f16x2.f16x2 %0, %1, %2;") \
  X(BI, B, set_ne_bf16x2, "set.ne.bf16x2.bf16x2 %0, %1, %2;") \
  X(BI, B, set_num_u32_bf16x2, "set.num.u32.bf16x2 %0, %1, %2;") \
  X(BI, H, setp_lt_f16x2, "{.reg .pred p, q; .reg .u32 x, y; setp.lt.f16x2 p|q, %1, %2; selp.u32 x, 1, 0, p; selp.u32 y, 2, 0, q; or.b32 %0, x, y;}") \
  X(BI, H, setp_equ_f16x2, "{.reg .pred p, q; .reg .u32 x, y; setp.equ.f16x2 p|q, %1, %2; selp.u32 x, 1, 0, p; selp.u32 y, 2, 0, q; or.b32 %0, x, y;}") \
  X(BI, B, setp_gt_bf16x2, "{.reg .pred p, q; .reg .u32 x, y; setp.gt.bf16x2 p|q, %1, %2; selp.u32 x, 1, 0, p; selp.u32 y, 2, 0, q; or.b32 %0, x, y;}") \
  X(BI, H, min_f16x2, "min.f16x2 %0, %1, %2;") \
  X(BI, H, min_nan_f16x2, "min.NaN.f16x2 %0, %1, %2;") \
  X(BI, H, max_xorsign_f16x2, "max.xorsign.abs.f16x2 %0, %1, %2;") \
  X(BI, H, min_nan_xorsign_f16x2, "min.NaN.xorsign.abs.f16x2 %0, %1, %2;") \
  X(BI, B, max_nan_bf16x2, "max.NaN.bf16x2 %0, %1, %2;") \
  X(BI, B, min_xorsign_bf16x2, "min.xorsign.abs.bf16x2 %0, %1, %2;") \
  X(TE, H, fma_relu_f16x2, "fma.rn.relu.f16x2 %0, %1, %2, %3;") \
  X(TE, B, fma_relu_bf16x2, "fma.rn.relu.bf16x2 %0, %1, %2, %3;") \
  X(UN, H, ex2_f16x2, "ex2.approx.f16x2 %0, %1;") \
  X(UN, B, ex2_ftz_bf16x2, "ex2.approx.ftz.bf16x2 %0, %1;") \
  X(UN, F, tanh_f32, "tanh.approx.f32 %0, %1;") \
  X(UN, H, tanh_f16x2, "tanh.approx.f16x2 %0, %1;") \
  X(UN, B, tanh_bf16x2, "tanh.approx.bf16x2 %0, %1;") \
  X(UN, F, ex2_f32, "ex2.approx.f32 %0, %1;") \
  X(UN, F, ex2_ftz_f32, "ex2.approx.ftz.f32 %0, %1;") \
  X(BI, I, vadd_u, "vadd.u32.u32.u32 %0, %1, %2;") \
  X(BI, I, vadd_s_sat, "vadd.s32.s32.s32.sat %0, %1, %2;") \
  X(BI, I, vadd_u_sat, "vadd.u32.u32.u32.sat %0, %1, %2;") \
  X(BI, I, vadd_smix_sat, "vadd.u32.s32.u32.sat %0, %1, %2;") \
  X(BI, I, vadd_sel, "vadd.s32.s32.s32 %0, %1.b1, %2.h1;") \
  X(TE, I, vadd_add, "vadd.u32.u32.u32.add %0, %1.b0, %2.b1, %3;") \
  X(TE, I, vsub_min, "vsub.s32.s32.s32.sat.min %0, %1.h1, %2.h0, %3;") \
  X(BI, I, vsub_u_sat, "vsub.u32.s32.s32.sat %0, %1.b3, %2.b2;") \
  X(BI, I, vabsdiff_u, "vabsdiff.u32.s32.s32 %0, %1, %2;") \
  X(TE, I, vabsdiff_max, "vabsdiff.s32.s32.s32.sat.max %0, %1.b1, %2.b3, %3;") \
  X(BI, I, vmin_h, "vmin.s32.s32.s32 %0, %1.h1, %2.h0;") \
  X(BI, I, vmin_mix, "vmin.u32.u32.s32 %0, %1, %2;") \
  X(TE, I, vmax_add, "vmax.u32.u32.u32.sat.add %0, %1, %2, %3;") \
  X(TE, I, vadd_dsel_b1, "vadd.u32.u32.u32 %0.b1, %1.b2, %2.b0, %3;") \
  X(TE, I, vmax_dsel_h1, "vmax.s32.s32.s32.sat %0.h1, %1.h0, %2.h1, %3;") \
  X(BI, I, vshl_clamp, "vshl.u32.u32.u32.clamp %0, %1, %2;") \
  X(BI, I, vshl_wrap, "vshl.u32.u32.u32.wrap %0, %1, %2;") \
  X(BI, I, vshr_s_clamp, "vshr.s32.s32.u32.clamp %0, %1, %2;") \
  X(BI, I, vshr_u_wrap, "vshr.u32.u32.u32.wrap %0, %1, %2;") \
  X(TE, I, vshr_s_wrap_add, "vshr.s32.s32.u32.wrap.add %0, %1, %2, %3;") \
  X(BI, I, vshl_sat_sel, "vshl.s32.s32.u32.sat.clamp %0, %1.b1, %2.b0;") \
  X(TE, I, vmad_u, "vmad.u32.u32.u32 %0, %1, %2, %3;") \
  X(TE, I, vmad_s_neg, "vmad.s32.s32.s32 %0, %1.h0, -%2.h1, %3;") \
  X(TE, I, vmad_shr15, "vmad.s32.u32.u32.sat.shr15 %0, %1.h1, %2.h0, -%3;") \
  X(TE, I, vmad_po, "vmad.u32.u32.u32.po %0, %1.b0, %2.b1, %3;") \
  X(TE, I, vmad_shr7, "vmad.s32.s32.s32.shr7 %0, %1.h0, %2.h0, %3;") \
  X(BI, I, vset_lt, "vset.u32.u32.lt %0, %1, %2;") \
  X(BI, I, vset_s_ge, "vset.s32.s32.ge %0, %1, %2;") \
  X(TE, I, vset_add, "vset.s32.u32.ne.add %0, %1.b0, %2.b2, %3;") \
  X(TE, I, vset_dsel, "vset.u32.s32.eq %0.h1, %1.b1, %2.b1, %3;") \
  X(BI, I, szext_clamp_u, "szext.clamp.u32 %0, %1, %2;") \
  X(BI, I, szext_wrap_u, "szext.wrap.u32 %0, %1, %2;") \
  X(BI, I, szext_clamp_s, "szext.clamp.s32 %0, %1, %2;") \
  X(BI, I, szext_wrap_s, "szext.wrap.s32 %0, %1, %2;") \
  X(TE, I, vset2_lt, "vset2.u32.u32.lt %0, %1, %2, %3;") \
  X(TE, I, vset2_s_ge, "vset2.s32.s32.ge %0, %1, %2, %3;") \
  X(TE, I, vset2_su_ne_add, "vset2.s32.u32.ne.add %0, %1, %2, %3;") \
  X(TE, I, vset2_us_gt_add, "vset2.u32.s32.gt.add %0, %1, %2, %3;") \
  X(TE, I, vset4_eq, "vset4.u32.u32.eq %0, %1, %2, %3;") \
  X(TE, I, vset4_s_lt_add, "vset4.s32.s32.lt.add %0, %1, %2, %3;") \
  X(TE, I, vset4_su_le, "vset4.s32.u32.le %0, %1, %2, %3;") \
  X(TE, I, vset4_us_ge_add, "vset4.u32.s32.ge.add %0, %1, %2, %3;") \
  X(UN, F, cvt_rn_satf_f16, "{.reg .b16 h; cvt.rn.satfinite.f16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X(UN, F, cvt_rz_satf_f16, "{.reg .b16 h; cvt.rz.satfinite.f16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X(UN, F, cvt_rn_relu_f16, "{.reg .b16 h; cvt.rn.relu.f16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X(UN, F, cvt_rn_satf_bf16, "{.reg .b16 h; cvt.rn.satfinite.bf16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X(UN, F, cvt_rz_relu_satf_bf16, "{.reg .b16 h; cvt.rz.relu.satfinite.bf16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X(UN, B, cvt_rn_f32_bf16, "{.reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rn.f32.bf16 %0, lo;}") \
  X(UN, B, cvt_rm_f32_bf16, "{.reg .b16 lo, hi; mov.b32 {lo, hi}, %1; cvt.rm.f32.bf16 %0, hi;}") \
  X(UN, B, cvt_f16_bf16, "{.reg .b16 lo, hi, r; mov.b32 {lo, hi}, %1; cvt.f16.bf16 r, lo; cvt.u32.u16 %0, r;}") \
  X(UN, H, cvt_bf16_f16, "{.reg .b16 lo, hi, r; mov.b32 {lo, hi}, %1; cvt.bf16.f16 r, hi; cvt.u32.u16 %0, r;}") \
  X(TE, I, mad24_hi_sat, "mad24.hi.sat.s32 %0, %1, %2, %3;")

#define DEF(shape, cls, k, body) shape(k, body)
FORMS(DEF)

static u32 rng = 12345;
static u32 next(void) { rng = rng * 1664525u + 1013904223u; return rng; }

static const u32 fedge[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x00000001, 0x007fffff, 0x00800000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x7fffffff,
    0x3f801000, 0x3f803000, 0x3f801001, 0x3f800fff, 0x3f802000, 0xbf801000, 0xbf803000, 0x7f7ff000,
    0x7f7fefff, 0x7f7fe000, 0x477fe000, 0x477ff000, 0x477fefff, 0xc77ff000, 0x477fffff, 0x47800000,
    0x7f7f0000, 0x7f7f8000, 0x7f7f7fff, 0x33000000, 0x33000001, 0x387fc000, 0x38800000, 0xb3800000,
    0x40490fdb, 0xc0490fdb, 0x3e800000, 0x41200000, 0xc1200000, 0x42b00000, 0xc2b00000, 0x43c00000,
    0x3d000000, 0xbd000000, 0x3a800000, 0x40000000, 0xc0000000, 0x3f000000, 0xbf000000, 0x43800000,
    0xc3800000, 0x43e00000, 0x43e80000, 0x47600000, 0x47700000, 0x47800000, 0xc7700000, 0x3b000000};
static const unsigned short hedge[12] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x7bff,
                                         0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3555, 0xc200};
static const unsigned short bedge[12] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x0001, 0x7f7f,
                                         0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x3eab, 0xc040};
static const u32 iedge[] = {0, 1, 0xff, 0x80, 0x7f, 0xffffffff, 0x80000000, 0x7fffffff, 0x12345678,
                            0x89abcdef, 0xff80, 31, 32, 33, 0xdeadbeef, 0x8000, 0x7fff, 0xffff,
                            0x10000, 0x80808080, 0x7f7f7f7f, 0xfffe0001, 0x40, 0x3f, 15, 16, 17};

static void fill(char cls, int which, u32 *v) {
  for (int i = 0; i < N; i++) {
    u32 x;
    if (cls == 'F') {
      int n = sizeof fedge / sizeof *fedge;
      int j = (i + which * 7) % N;
      x = j < n ? fedge[j] : next();
      if (j >= n && (x & 3) == 0) x = (x & 0x807fffff) | 0x3f000000; // near 1
    } else if (cls == 'H' || cls == 'B') {
      const unsigned short *e = cls == 'H' ? hedge : bedge;
      u32 lo = which == 0 ? e[i % 12] : which == 1 ? e[i / 12] : e[(i * 5 + 3) % 12];
      u32 hi = which == 0 ? e[(i * 5 + 3) % 12] : which == 1 ? e[(i * 7 + 1) % 12] : e[(i / 12 + 2) % 12];
      if (i >= 132) { lo = next() & 0xffff; hi = next() & 0xffff; }
      x = lo | hi << 16;
    } else {
      int n = sizeof iedge / sizeof *iedge;
      int j = (i + which * 11) % N;
      x = j < n ? iedge[j] : next();
      if (which == 1 && (i & 1)) x &= 63; // shift counts and small values
    }
    v[i] = x;
  }
}

typedef void (*kern)(const u32 *, const u32 *, const u32 *, u32 *);
struct form { const char *name; char cls; int nin; kern k; };
#define NIN_UN 1
#define NIN_BI 2
#define NIN_TE 3
#define ROW(shape, cls, k, body) {#k, #cls[0], NIN_##shape, k},
static const form forms[] = {FORMS(ROW)};

int main(void) {
  u32 *a, *b, *c, *d;
  cudaMallocManaged(&a, N * 4); cudaMallocManaged(&b, N * 4);
  cudaMallocManaged(&c, N * 4); cudaMallocManaged(&d, N * 4);
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    rng = 12345 + (u32)f;
    fill(forms[f].cls, 0, a); fill(forms[f].cls, 1, b); fill(forms[f].cls, 2, c);
    memset(d, 0, N * 4);
    forms[f].k<<<1, N>>>(a, b, c, d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("%s: %s\n", forms[f].name, cudaGetErrorString(e)); return 1; }
    for (int i = 0; i < N; i++) {
      printf("%s %d %08x", forms[f].name, i, a[i]);
      if (forms[f].nin > 1) printf(" %08x", b[i]);
      if (forms[f].nin > 2) printf(" %08x", c[i]);
      printf(" -> %08x\n", d[i]);
    }
  }
  return 0;
}
