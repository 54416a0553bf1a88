/* mma.h: what mma.sync (mma.c) shares with wgmma (wgmma.c): element types,
 * their values, and the tensor cores' accumulation models. */
#ifndef SMEMU_MMA_H
#define SMEMU_MMA_H
#include <stdint.h>

/* Element types of matrix operands. */
enum { E_F16, E_BF16, E_TF32, E_S8, E_U8, E_S4, E_U4, E_F32, E_S32, E_F64, E_E4M3, E_E5M2, E_B1 };

/* How a form accumulates in f32 (mma_acc_f32). */
typedef struct acc_model {
  int frac;    /* bits kept below the largest exponent; 0: exact, one rounding */
  int norm;    /* then the sum keeps this many bits below its own leading bit
                  (truncated); 0: all */
  int raw;     /* 1: return that sum unrounded (an f16 D rounds it once to
                  nearest); 0: truncated to f32 */
  int c_after; /* 1 (2): the products' sum alone, rounded to nearest f32
                  (f16), plus C, unrounded: mma.sync's fp8 forms */
} acc_model;

/* f32 accumulation of fp8 products: bits kept below the largest exponent,
 * and of the sum (fitted to the H100's wgmma: tests/hw/wgmma/fit_fp8.py) */
#define FP8_FRAC 13
#define FP8_NORM 13

/* The value of element bits x of type e (tf32: the top 19 bits). */
double mma_to_double(int e, uint64_t x);
/* The result bits of value v in type e (E_F16, E_F32, E_F64; NaN canonical). */
uint64_t mma_from_double(int e, double v);
/* D = C + sum a[j]*b[j] (k terms) as the tensor cores add (in f32 unless raw). */
double mma_acc_f32(const acc_model *am, double c, const double *a, const double *b, int k);
/* Bits of an element of type e (32 for the 32-bit types). */
int mma_ebits(int e);
/* The value of integer element bits x of type e (s32 otherwise). */
int64_t mma_int_val(int e, uint64_t x);
/* Element i (of `bits` bits, packed from the low end) of lane l of the
 * fragment in register slots s. */
struct warp;
uint64_t mma_frag_elem(struct warp *w, const uint32_t *s, int l, int i, int bits);
/* mma.sp and wgmma.mma_async.sp: the column of the dense K (a row of B)
 * that packed element c of A's row r (0..15 of a warp's rows) multiplies,
 * by the metadata in register slot `meta` of warp w: 2:4 chunks of 16- and
 * 8-bit A (bits 16, 8), 1:2 of tf32 (32), 4:8 pairs of 4-bit A (4); K the
 * dense K, sel the sparsity selector. */
int mma_sp_col(const struct warp *w, uint32_t meta, int bits, int k, int sel, int r, int c);
/* The number of sparsity selectors of A of `bits` bits and dense K. */
int mma_sp_nsel(int bits, int k);
/* The value of an fp8 byte (E_E4M3 or E_E5M2). */
double fp8_to_double(int e, uint32_t x);

#endif
