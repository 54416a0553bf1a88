/* e2e_cases.h: the launches of the e2e corpus, shared by tests/unit/test_e2e.c
 * (C11, on smemu) and tests/hw/gpu_examples.cu (C++, on a GPU) so both run
 * the same kernels on the same generated inputs. One row per case. */
#ifndef SMEMU_E2E_CASES_H
#define SMEMU_E2E_CASES_H

#include "../../examples/common.h"

/* Kinds of kernel parameters. */
#define E2E_IN 1  /* pointer to the input buffer */
#define E2E_OUT 2 /* pointer to the output buffer */
#define E2E_VAL 3 /* a scalar: the low `size` bytes of `bits` */

/* How the input words are generated (ex_* generators of common.h). */
#define E2E_BITS 0 /* raw ex_rand_u32 words */
#define E2E_I32 1  /* ints uniform in [lo, hi] */
#define E2E_F32 2  /* floats uniform in [lo, hi), 24 random bits */
#define E2E_F64 3  /* doubles uniform in [lo, hi), 53 random bits (2 words each) */

/* The output buffer is filled with this byte before every launch. */
#define E2E_OUT_FILL 0xCD

#define E2E_MAXP 4

typedef struct e2e_param {
  int kind;
  uint32_t size;
  uint64_t bits;
} e2e_param;

typedef struct e2e_case {
  const char *name;   /* the output is e2e_<name>.bin */
  const char *file;   /* tests/e2e/<file>.cu and its .ptx */
  const char *kernel; /* base (demangled) name of the kernel */
  uint32_t grid[3], block[3];
  uint32_t shared_bytes; /* dynamic shared memory of the launch */
  int in_kind;
  double lo, hi;
  uint32_t in_words;  /* 32-bit words of input */
  uint64_t seed;
  uint32_t out_words; /* 32-bit words of output */
  int nparams;
  e2e_param params[E2E_MAXP];
} e2e_case;

/* Every kernel takes (input pointer, output pointer, int count). */
#define E2E_STD(n) 3, { { E2E_IN, 8, 0 }, { E2E_OUT, 8, 0 }, { E2E_VAL, 4, (uint64_t)(n) } }

static const e2e_case e2e_cases[] = {
  { "int_arith", "int_arith", "intArith", { 4, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_BITS, 0, 0, 512, 0xE2E0000000000001ull, 256 * 32, E2E_STD(256) },
  { "convert", "convert", "convertMix", { 2, 1, 1 }, { 128, 1, 1 }, 0,
    E2E_F32, -4096.0, 4096.0, 256, 0xE2E0000000000002ull, 256 * 24, E2E_STD(256) },
  { "fp32_math", "fp32_math", "fp32Math", { 4, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_F32, -8.0, 8.0, 512, 0xE2E0000000000003ull, 256 * 18, E2E_STD(256) },
  { "fp64_math", "fp64_math", "fp64Math", { 2, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_F64, -8.0, 8.0, 512, 0xE2E0000000000004ull, 128 * 24, E2E_STD(128) },
  { "half_math", "half_math", "halfMath", { 4, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_F32, -1000.0, 1000.0, 512, 0xE2E0000000000005ull, 256 * 16, E2E_STD(256) },
  { "bitops", "bitops", "bitOps", { 4, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_BITS, 0, 0, 512, 0xE2E0000000000006ull, 256 * 24, E2E_STD(256) },
  { "atomics_shared", "atomics_shared", "atomicsShared", { 3, 1, 1 }, { 256, 1, 1 }, 0,
    E2E_BITS, 0, 0, 768, 0xE2E0000000000007ull, 3 * 48, E2E_STD(768) },
  { "atomics_global", "atomics_global", "atomicsGlobal", { 8, 1, 1 }, { 128, 1, 1 }, 0,
    E2E_BITS, 0, 0, 1024, 0xE2E0000000000008ull, 48, E2E_STD(1024) },
  { "warp_ops", "warp", "warpOps", { 2, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_BITS, 0, 0, 128, 0xE2E0000000000009ull, 128 * 24, E2E_STD(128) },
  { "warp_partial", "warp", "warpPartial", { 2, 1, 1 }, { 40, 1, 1 }, 0,
    E2E_BITS, 0, 0, 80, 0xE2E000000000000Aull, 80 * 6, E2E_STD(80) },
  { "divergence", "divergence", "divergent", { 2, 1, 1 }, { 96, 1, 1 }, 0,
    E2E_I32, 0, 999, 192, 0xE2E000000000000Bull, 192 * 8, E2E_STD(192) },
  { "calls", "calls", "callsKernel", { 2, 1, 1 }, { 64, 1, 1 }, 0,
    E2E_I32, 0, 999, 128 + 16, 0xE2E000000000000Cull, 128 * 8, E2E_STD(128) },
  { "globals", "globals", "globalsKernel", { 2, 1, 1 }, { 32, 1, 1 }, 0,
    E2E_I32, 0, 999, 64, 0xE2E000000000000Dull, 64 * 8, E2E_STD(64) },
  { "grid3d", "grid3d", "grid3d", { 3, 2, 2 }, { 4, 3, 2 }, 0,
    E2E_BITS, 0, 0, 288, 0xE2E000000000000Eull, 288 * 6, E2E_STD(288) },
  { "sync_count", "sync_count", "syncCount", { 3, 1, 1 }, { 100, 1, 1 }, 0,
    E2E_I32, 0, 999, 300, 0xE2E000000000000Full, 300 * 8, E2E_STD(300) },
  { "local_mem", "local_mem", "localMem", { 2, 1, 1 }, { 32, 1, 1 }, 0,
    E2E_I32, 0, 9999, 64 * 20, 0xE2E0000000000010ull, 64 * 24, E2E_STD(64) },
  { "shared_vec", "shared_vec", "sharedVec", { 2, 1, 1 }, { 128, 1, 1 }, 128 * 16,
    E2E_F32, 0.0, 256.0, 256 * 4, 0xE2E0000000000011ull, 256 * 16, E2E_STD(256) },
  { "named_barrier", "named_barrier", "namedBarrier", { 2, 1, 1 }, { 128, 1, 1 }, 0,
    E2E_I32, -1000, 1000, 128, 0xE2E0000000000012ull, 256 * 2, E2E_STD(128) },
};

#define E2E_NCASES ((int)(sizeof e2e_cases / sizeof e2e_cases[0]))

/* Fills the case's input words. */
static inline void e2e_fill_input(const e2e_case *c, uint32_t *in)
{
  uint32_t i;
  switch (c->in_kind) {
  case E2E_I32:
    ex_fill_i32((int32_t *)in, c->in_words, c->seed, (int32_t)c->lo, (int32_t)c->hi);
    break;
  case E2E_F32:
    ex_fill_f32((float *)in, c->in_words, c->seed, (float)c->lo, (float)c->hi);
    break;
  case E2E_F64: {
    uint64_t s = c->seed;
    for (i = 0; i + 1 < c->in_words; i += 2) {
      double d = ex_rand_f64(&s, c->lo, c->hi);
      memcpy(in + i, &d, 8);
    }
    break;
  }
  default:
    ex_fill_u32(in, c->in_words, c->seed);
    break;
  }
}

#endif
