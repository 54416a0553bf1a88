/* test_warp.c: unit tests of smemu's warp-level and control instructions:
 * shfl/vote/match/redux/activemask, special registers, divergence and
 * reconvergence, calls and recursion, CTA barriers, multi-dimensional ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Runs kernel k(.param .u64 pout) of ptx on grid x block (1-D) and returns
 * the output buffer of `words` u32 per thread (pre-filled with 0xcdcdcdcd);
 * free it with dev_free. */
static uint32_t *run_out(const char *ptx, uint32_t grid, uint32_t block, uint32_t shared,
                         int words) {
  uint32_t *out = dev_alloc((size_t)grid * block * (size_t)words * 4, 0xcd);
  void *args[] = {&out};
  char err[1024];
  assert_non_null(out);
  PTX_OK(ptxrun(ptx, "k", grid, block, shared, args, err, sizeof err), err);
  return out;
}

/* The common kernel head: declarations DECLS, then %r1 = global thread id,
 * %r30 = %tid.x, %r2 = %laneid, %rd2 = &out[%r1 * W] (W words per thread). */
#define KHEAD(W) KHEADD(W, "")
#define KHEADD(W, DECLS)                           \
  PTX_HEAD                                         \
  ".visible .entry k(.param .u64 pout)\n"          \
  "{\n"                                            \
  DECLS                                            \
  "  .reg .b32 %r<40>;\n"                          \
  "  .reg .b64 %rd<16>;\n"                         \
  "  .reg .pred %p<16>;\n"                         \
  "  ld.param.u64 %rd1, [pout];\n"                 \
  "  cvta.to.global.u64 %rd1, %rd1;\n"             \
  "  mov.u32 %r30, %tid.x;\n"                      \
  "  mov.u32 %r31, %ctaid.x;\n"                    \
  "  mov.u32 %r32, %ntid.x;\n"                     \
  "  mad.lo.u32 %r1, %r31, %r32, %r30;\n"          \
  "  mul.wide.u32 %rd2, %r1, " #W ";\n"            \
  "  shl.b64 %rd2, %rd2, 2;\n"                     \
  "  add.s64 %rd2, %rd1, %rd2;\n"                  \
  "  mov.u32 %r2, %laneid;\n"

/* ---- shfl.sync ------------------------------------------------------------ */

enum { UP, DOWN, BFLY, IDX };
static const char *const SHFL_MODE[] = {"up", "down", "bfly", "idx"};

/* The ISA's semantics of shfl: returns the source lane, *pval the predicate. */
static int shfl_src(int mode, int lane, uint32_t b, uint32_t c, int *pval) {
  int bval = (int)(b & 0x1f), cval = (int)(c & 0x1f), mask = (int)((c >> 8) & 0x1f);
  int maxl = (lane & mask) | (cval & ~mask), minl = lane & mask, j, p;
  switch (mode) {
  case UP: j = lane - bval; p = j >= maxl; break;
  case DOWN: j = lane + bval; p = j <= maxl; break;
  case BFLY: j = lane ^ bval; p = j <= maxl; break;
  default: j = minl | (bval & ~mask); p = j <= maxl; break;
  }
  *pval = p;
  return p ? j : lane;
}

/* Lane L of each warp holds a = 1000 * warp + 10 * L + 7. */
static void check_shfl(int mode, const uint32_t *b, uint32_t c) {
  enum { T = 64 };
  uint64_t in[3 * T], out[4 * T];
  char insn[256], err[1024];
  int bad = 0;
  for (int t = 0; t < T; t++) {
    in[3 * t] = 1000u * (uint32_t)(t / 32) + 10u * (uint32_t)(t % 32) + 7u;
    in[3 * t + 1] = b[t % 32];
    in[3 * t + 2] = c;
  }
  snprintf(insn, sizeof insn,
           "shfl.sync.%s.b32 %%d32|%%p, %%a32, %%b32, %%c32, 0xffffffff;\n"
           "  selp.u32 %%e32, 1, 0, %%p;",
           SHFL_MODE[mode]);
  PTX_OK(ptx_lanes3(insn, 32, T, in, out, err, sizeof err), err);
  for (int t = 0; t < T; t++) {
    int p, j = shfl_src(mode, t % 32, b[t % 32], c, &p);
    uint32_t want = 1000u * (uint32_t)(t / 32) + 10u * (uint32_t)j + 7u;
    if ((uint32_t)out[4 * t] != want || (uint32_t)out[4 * t + 1] != (uint32_t)p) {
      if (bad++ < 8)
        print_error("  shfl.%s b=%u c=%#x lane %d: got %u/%u, want %u/%d\n", SHFL_MODE[mode],
                    b[t % 32], c, t, (uint32_t)out[4 * t], (uint32_t)out[4 * t + 1], want, p);
    }
  }
  if (bad) fail_msg("shfl.sync.%s c=%#x: %d lanes wrong", SHFL_MODE[mode], c, bad);
}

static void uniform_b(uint32_t *b, uint32_t v) {
  for (int i = 0; i < 32; i++) b[i] = v;
}

static void test_shfl_full_warp(void **state) {
  (void)state;
  static const uint32_t offs[] = {0, 1, 3, 5, 16, 31, 33 /* b[4:0] = 1 */};
  uint32_t b[32];
  for (int i = 0; i < N(offs); i++) {
    uniform_b(b, offs[i]);
    check_shfl(UP, b, 0x0);     /* up: clamp 0 */
    check_shfl(DOWN, b, 0x1f);  /* down/bfly/idx: clamp 31 */
    check_shfl(BFLY, b, 0x1f);
    check_shfl(IDX, b, 0x1f);
  }
  /* idx with a different source lane per lane: reverse the warp. */
  for (int i = 0; i < 32; i++) b[i] = 31u - (uint32_t)i;
  check_shfl(IDX, b, 0x1f);
}

static void test_shfl_segments(void **state) {
  (void)state;
  /* width w: c = ((32 - w) << 8) | clamp, clamp = 0 for up, 0x1f otherwise;
   * width 16 gives c = 0x1000 (up) and 0x101f (down, bfly, idx). */
  static const uint32_t widths[] = {16, 8, 4, 2};
  static const uint32_t offs[] = {1, 2, 3, 7, 9};
  uint32_t b[32];
  for (int w = 0; w < N(widths); w++) {
    uint32_t seg = (32u - widths[w]) << 8;
    for (int i = 0; i < N(offs); i++) {
      uniform_b(b, offs[i]);
      check_shfl(UP, b, seg);
      check_shfl(DOWN, b, seg | 0x1f);
      check_shfl(BFLY, b, seg | 0x1f);
      check_shfl(IDX, b, seg | 0x1f);
    }
    for (int i = 0; i < 32; i++) b[i] = (uint32_t)(i * 7 + 3);
    check_shfl(IDX, b, seg | 0x1f);
  }
  /* A clamp value below 31 without segments: down by 4 with c = 0x0f makes
   * lanes whose source is above 15 keep their own value. */
  uniform_b(b, 4);
  check_shfl(DOWN, b, 0x0f);
  check_shfl(BFLY, b, 0x0f);
}

static void test_shfl_segment_literal(void **state) {
  (void)state;
  /* Hand-computed: shfl.down by 1 with width 16 (c = 0x101f): lane 15 and
   * lane 31 are out of range and keep their own value with p = false. */
  static const char ptx[] = KHEAD(2)
      "  mul.lo.u32 %r3, %r2, 10;\n"
      "  shfl.sync.down.b32 %r4|%p1, %r3, 1, 0x101f, 0xffffffff;\n"
      "  selp.u32 %r5, 1, 0, %p1;\n"
      "  st.global.v2.u32 [%rd2], {%r4, %r5};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 2);
  for (int l = 0; l < 32; l++) {
    int edge = l == 15 || l == 31;
    assert_int_equal(out[2 * l], 10u * (uint32_t)(edge ? l : l + 1));
    assert_int_equal(out[2 * l + 1], edge ? 0 : 1);
  }
  dev_free(out);
}

static void test_shfl_partial_mask(void **state) {
  (void)state;
  /* Only lanes 0..15 execute the shuffle, with membermask 0x0000ffff; they
   * read only from each other (reverse within 0..15). Lanes 16..31 keep a
   * marker value. */
  static const char ptx[] = KHEAD(1)
      "  mov.u32 %r4, 0xdead;\n"
      "  setp.ge.u32 %p1, %r2, 16;\n"
      "  @%p1 bra SKIP;\n"
      "  mul.lo.u32 %r3, %r2, 3;\n"
      "  sub.u32 %r5, 15, %r2;\n"
      "  shfl.sync.idx.b32 %r4, %r3, %r5, 0x1f, 0x0000ffff;\n"
      "SKIP:\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 1);
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(out[l], l < 16 ? 3 * (15 - l) : 0xdead);
  dev_free(out);
}

/* ---- vote / match / redux / activemask -------------------------------- */

static void test_vote(void **state) {
  (void)state;
  enum { T = 64 };
  uint64_t in[3 * T], out[4 * T];
  char err[1024];
  /* Warp 0: p = lane % 3 == 0; warp 1: p true on every lane. */
  for (int t = 0; t < T; t++) {
    in[3 * t] = t < 32 ? (t % 3 == 0) : 1;
    in[3 * t + 1] = in[3 * t + 2] = 0;
  }
  PTX_OK(ptx_lanes3("setp.ne.u32 %p, %a32, 0;\n"
                    "  vote.sync.ballot.b32 %d32, %p, 0xffffffff;\n"
                    "  vote.sync.all.pred %q, %p, 0xffffffff;\n  selp.u32 %e32, 1, 0, %q;\n"
                    "  vote.sync.any.pred %q, %p, 0xffffffff;\n  selp.u32 %f32, 1, 0, %q;\n"
                    "  vote.sync.uni.pred %q, %p, 0xffffffff;\n  selp.u32 %g32, 1, 0, %q;",
                    32, T, in, out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++) {
    uint32_t ballot = t < 32 ? 0x49249249u : 0xffffffffu;
    assert_int_equal((uint32_t)out[4 * t], ballot);
    assert_int_equal((uint32_t)out[4 * t + 1], t < 32 ? 0 : 1);
    assert_int_equal((uint32_t)out[4 * t + 2], 1);
    assert_int_equal((uint32_t)out[4 * t + 3], t < 32 ? 0 : 1);
  }
  /* Negated source predicate: ballot of !p. */
  PTX_OK(ptx_lanes3("setp.ne.u32 %p, %a32, 0;\n"
                    "  vote.sync.ballot.b32 %d32, !%p, 0xffffffff;\n"
                    "  vote.sync.all.pred %q, !%p, 0xffffffff;\n  selp.u32 %e32, 1, 0, %q;\n"
                    "  vote.sync.any.pred %q, !%p, 0xffffffff;\n  selp.u32 %f32, 1, 0, %q;",
                    32, T, in, out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++) {
    assert_int_equal((uint32_t)out[4 * t], t < 32 ? ~0x49249249u : 0);
    assert_int_equal((uint32_t)out[4 * t + 1], 0);
    assert_int_equal((uint32_t)out[4 * t + 2], t < 32 ? 1 : 0);
  }
}

static void test_vote_divergent(void **state) {
  (void)state;
  /* Even lanes take one branch and vote with membermask 0x55555555, odd
   * lanes the other with 0xaaaaaaaa; p = lane < 10. */
  static const char ptx[] = KHEAD(4)
      "  setp.lt.u32 %p1, %r2, 10;\n"
      "  and.b32 %r3, %r2, 1;\n"
      "  setp.eq.u32 %p2, %r3, 0;\n"
      "  @!%p2 bra ODD;\n"
      "  vote.sync.ballot.b32 %r4, %p1, 0x55555555;\n"
      "  vote.sync.all.pred %p3, %p1, 0x55555555;\n"
      "  vote.sync.any.pred %p4, %p1, 0x55555555;\n"
      "  activemask.b32 %r7;\n"
      "  bra JOIN;\n"
      "ODD:\n"
      "  vote.sync.ballot.b32 %r4, %p1, 0xaaaaaaaa;\n"
      "  vote.sync.all.pred %p3, %p1, 0xaaaaaaaa;\n"
      "  vote.sync.any.pred %p4, %p1, 0xaaaaaaaa;\n"
      "  activemask.b32 %r7;\n"
      "JOIN:\n"
      "  selp.u32 %r5, 1, 0, %p3;\n"
      "  selp.u32 %r6, 1, 0, %p4;\n"
      "  st.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r7};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 4);
  for (int l = 0; l < 32; l++) {
    int even = l % 2 == 0;
    assert_int_equal(out[4 * l], even ? 0x155u : 0x2aau); /* lanes < 10 of the group */
    assert_int_equal(out[4 * l + 1], 0);
    assert_int_equal(out[4 * l + 2], 1);
    assert_int_equal(out[4 * l + 3], even ? 0x55555555u : 0xaaaaaaaau);
  }
  dev_free(out);
}

static void test_match(void **state) {
  (void)state;
  enum { T = 64 };
  uint64_t in[3 * T], out[4 * T];
  char err[1024];
  /* Warp 0: a = lane % 3 (three classes); warp 1: a = 42 everywhere. The
   * 64-bit value differs from lane to lane only in its upper half in warp 0. */
  for (int t = 0; t < T; t++) {
    uint64_t v = t < 32 ? (uint64_t)(t % 3) : 42;
    in[3 * t] = v;
    in[3 * t + 1] = v << 32 | 7;
    in[3 * t + 2] = 0;
  }
  PTX_OK(ptx_lanes3("match.any.sync.b32 %d32, %a32, 0xffffffff;\n"
                    "  match.all.sync.b32 %e32|%p, %a32, 0xffffffff;\n"
                    "  selp.u32 %f32, 1, 0, %p;\n"
                    "  match.any.sync.b64 %g32, %b64, 0xffffffff;",
                    32, T, in, out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++) {
    uint32_t cls = 0;
    for (int l = 0; l < 32; l++)
      if (t >= 32 || l % 3 == t % 3) cls |= 1u << l;
    assert_int_equal((uint32_t)out[4 * t], cls);
    assert_int_equal((uint32_t)out[4 * t + 1], t < 32 ? 0 : 0xffffffffu);
    assert_int_equal((uint32_t)out[4 * t + 2], t < 32 ? 0 : 1);
    assert_int_equal((uint32_t)out[4 * t + 3], cls);
  }
  /* match.all.b64 with a partial membermask of the lanes of one class. */
  PTX_OK(ptx_lanes3("setp.ne.u32 %pk, %a32, 0;\n"
                    "  @%pk bra SKIP;\n"
                    "  match.all.sync.b64 %d32|%p, %b64, 0x49249249;\n"
                    "  selp.u32 %e32, 1, 0, %p;\n"
                    "SKIP:",
                    32, 32, in, out, err, sizeof err),
         err);
  for (int l = 0; l < 32; l++) {
    assert_int_equal((uint32_t)out[4 * l], l % 3 == 0 ? 0x49249249u : 0);
    assert_int_equal((uint32_t)out[4 * l + 1], l % 3 == 0 ? 1 : 0);
  }
}

static void test_redux(void **state) {
  (void)state;
  enum { T = 64 };
  uint64_t in[3 * T], out[4 * T];
  char err[1024];
  uint32_t v[T];
  for (int t = 0; t < T; t++) {
    v[t] = (uint32_t)t * 2654435761u;
    in[3 * t] = v[t];
    in[3 * t + 1] = in[3 * t + 2] = 0;
  }
  static const char *const ops[] = {"add.u32", "min.u32", "max.u32", "min.s32",
                                    "max.s32", "and.b32", "or.b32",  "xor.b32"};
  for (int o = 0; o < N(ops); o++) {
    char insn[128];
    snprintf(insn, sizeof insn, "redux.sync.%s %%d32, %%a32, 0xffffffff;", ops[o]);
    PTX_OK(ptx_lanes3(insn, 32, T, in, out, err, sizeof err), err);
    for (int w = 0; w < 2; w++) {
      uint32_t acc = 0;
      for (int l = 0; l < 32; l++) {
        uint32_t x = v[32 * w + l];
        if (l == 0) {
          acc = x;
          continue;
        }
        switch (o) {
        case 0: acc += x; break;
        case 1: acc = x < acc ? x : acc; break;
        case 2: acc = x > acc ? x : acc; break;
        case 3: acc = (int32_t)x < (int32_t)acc ? x : acc; break;
        case 4: acc = (int32_t)x > (int32_t)acc ? x : acc; break;
        case 5: acc &= x; break;
        case 6: acc |= x; break;
        default: acc ^= x; break;
        }
      }
      for (int l = 0; l < 32; l++)
        if ((uint32_t)out[4 * (32 * w + l)] != acc)
          fail_msg("redux.sync.%s warp %d lane %d: got %#x, want %#x", ops[o], w, l,
                   (uint32_t)out[4 * (32 * w + l)], acc);
    }
  }
}

static void test_redux_divergent(void **state) {
  (void)state;
  /* Lanes 0..9 reduce over membermask 0x3ff, lanes 10..31 over 0xfffffc00. */
  static const char ptx[] = KHEAD(2)
      "  add.u32 %r3, %r2, 1;\n"
      "  setp.lt.u32 %p1, %r2, 10;\n"
      "  @!%p1 bra HIGH;\n"
      "  redux.sync.add.u32 %r4, %r3, 0x3ff;\n"
      "  redux.sync.max.u32 %r5, %r3, 0x3ff;\n"
      "  bra JOIN;\n"
      "HIGH:\n"
      "  redux.sync.add.u32 %r4, %r3, 0xfffffc00;\n"
      "  redux.sync.max.u32 %r5, %r3, 0xfffffc00;\n"
      "JOIN:\n"
      "  st.global.v2.u32 [%rd2], {%r4, %r5};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 2);
  for (int l = 0; l < 32; l++) {
    assert_int_equal(out[2 * l], l < 10 ? 55 : 528 - 55);
    assert_int_equal(out[2 * l + 1], l < 10 ? 10 : 32);
  }
  dev_free(out);
}

static void test_activemask(void **state) {
  (void)state;
  /* 40 threads: warp 1 has 8 lanes. Inside if (lane < 5) / else and after
   * the join, activemask reports the lanes executing together. */
  static const char ptx[] = KHEAD(3)
      "  activemask.b32 %r3;\n"
      "  setp.lt.u32 %p1, %r2, 5;\n"
      "  @!%p1 bra ELSE;\n"
      "  activemask.b32 %r4;\n"
      "  bra JOIN;\n"
      "ELSE:\n"
      "  activemask.b32 %r4;\n"
      "JOIN:\n"
      "  activemask.b32 %r5;\n"
      "  st.global.u32 [%rd2], %r3;\n"
      "  st.global.u32 [%rd2+4], %r4;\n"
      "  st.global.u32 [%rd2+8], %r5;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 40, 0, 3);
  for (int t = 0; t < 40; t++) {
    uint32_t full = t < 32 ? 0xffffffffu : 0xffu, l = (uint32_t)t % 32;
    assert_int_equal(out[3 * t], full);
    assert_int_equal(out[3 * t + 1], l < 5 ? 0x1fu : full & ~0x1fu);
    assert_int_equal(out[3 * t + 2], full);
  }
  dev_free(out);
}

static void test_bar_warp_sync(void **state) {
  (void)state;
  /* bar.warp.sync with full and partial masks in divergent code, followed by
   * a shuffle among the synchronised lanes. */
  static const char ptx[] = KHEAD(1)
      "  bar.warp.sync 0xffffffff;\n"
      "  and.b32 %r3, %r2, 1;\n"
      "  setp.eq.u32 %p1, %r3, 0;\n"
      "  @!%p1 bra ODD;\n"
      "  bar.warp.sync 0x55555555;\n"
      "  shfl.sync.bfly.b32 %r4, %r2, 2, 0x1f, 0x55555555;\n"
      "  bra JOIN;\n"
      "ODD:\n"
      "  bar.warp.sync 0xaaaaaaaa;\n"
      "  shfl.sync.bfly.b32 %r4, %r2, 2, 0x1f, 0xaaaaaaaa;\n"
      "JOIN:\n"
      "  bar.warp.sync 0xffffffff;\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 1);
  for (uint32_t l = 0; l < 32; l++) assert_int_equal(out[l], l ^ 2);
  dev_free(out);
}

static void test_partial_warp_collectives(void **state) {
  (void)state;
  /* A 40-thread block: warp 1 has lanes 0..7 only. The lanes that do not
   * exist count as exited, so full-mask collectives see 8 lanes. */
  static const char ptx[] = KHEAD(8)
      "  setp.eq.u32 %p1, %r2, %r2;\n"
      "  vote.sync.ballot.b32 %r3, %p1, 0xffffffff;\n"
      "  redux.sync.add.u32 %r4, %r2, 0xffffffff;\n"
      "  shfl.sync.idx.b32 %r5, %r30, 0, 0x1f, 0xffffffff;\n"
      "  match.any.sync.b32 %r6, 7, 0xffffffff;\n"
      "  vote.sync.all.pred %p2, %p1, 0xffffffff;\n"
      "  selp.u32 %r7, 1, 0, %p2;\n"
      "  activemask.b32 %r8;\n"
      "  st.global.v2.u32 [%rd2], {%r3, %r4};\n"
      "  st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r8};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 40, 0, 8);
  for (int t = 0; t < 40; t++) {
    uint32_t full = t < 32 ? 0xffffffffu : 0xffu;
    assert_int_equal(out[8 * t], full);
    assert_int_equal(out[8 * t + 1], t < 32 ? 496 : 28);
    assert_int_equal(out[8 * t + 4], t < 32 ? 0 : 32);
    assert_int_equal(out[8 * t + 5], full);
    assert_int_equal(out[8 * t + 6], 1);
    assert_int_equal(out[8 * t + 7], full);
  }
  dev_free(out);
}

/* ---- special registers ----------------------------------------------------- */

static void test_lane_registers(void **state) {
  (void)state;
  static const char ptx[] = KHEAD(8)
      "  mov.u32 %r3, %warpid;\n"
      "  mov.u32 %r4, %nwarpid;\n"
      "  mov.u32 %r5, %lanemask_eq;\n"
      "  mov.u32 %r6, %lanemask_lt;\n"
      "  mov.u32 %r7, %lanemask_le;\n"
      "  mov.u32 %r8, %lanemask_gt;\n"
      "  mov.u32 %r9, %lanemask_ge;\n"
      "  st.global.v4.u32 [%rd2], {%r2, %r3, %r4, %r5};\n"
      "  st.global.v4.u32 [%rd2+16], {%r6, %r7, %r8, %r9};\n"
      "  ret;\n"
      "}\n";
  enum { T = 96 };
  uint32_t *out = run_out(ptx, 2, T, 0, 8);
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < T; t++) {
      const uint32_t *o = out + 8 * (b * T + t);
      uint32_t l = (uint32_t)t % 32, eq = 1u << l;
      assert_int_equal(o[0], l);
      /* %warpid: the same in a warp, different between the warps of a CTA,
       * below %nwarpid. */
      assert_int_equal(o[1], out[8 * (b * T + t - (int)l) + 1]);
      for (int u = 0; u < T; u += 32)
        if (u / 32 != t / 32) assert_int_not_equal(o[1], out[8 * (b * T + u) + 1]);
      assert_true(o[1] < o[2]);
      assert_int_equal(o[3], eq);
      assert_int_equal(o[4], eq - 1);
      assert_int_equal(o[5], eq | (eq - 1));
      assert_int_equal(o[6], ~(eq | (eq - 1)));
      assert_int_equal(o[7], ~(eq - 1));
    }
  dev_free(out);
}

static void test_misc_special_registers(void **state) {
  (void)state;
  /* %clock64 and %clock do not go backwards within a thread; %globaltimer
   * neither; %dynamic_smem_size is the launch's dynamic shared size. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<10>;\n"
      "  .reg .pred %p<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u64 %rd2, %clock64;\n"
      "  mov.u64 %rd6, %globaltimer;\n"
      "  mul.lo.u32 %r2, %r1, %r1;\n"
      "  mov.u64 %rd3, %clock64;\n"
      "  mov.u64 %rd7, %globaltimer;\n"
      "  setp.ge.u64 %p1, %rd3, %rd2;\n"
      "  setp.ge.u64 %p2, %rd7, %rd6;\n"
      "  and.pred %p1, %p1, %p2;\n"
      "  selp.u32 %r3, 1, 0, %p1;\n"
      "  mov.u32 %r4, %dynamic_smem_size;\n"
      "  mov.u32 %r5, %clock;\n"
      "  mul.wide.u32 %rd4, %r1, 8;\n"
      "  add.s64 %rd5, %rd1, %rd4;\n"
      "  st.global.v2.u32 [%rd5], {%r3, %r4};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 64, 1000, 2);
  for (int t = 0; t < 64; t++) {
    assert_int_equal(out[2 * t], 1);
    assert_int_equal(out[2 * t + 1], 1000);
  }
  dev_free(out);
}

static void test_ids_2d_3d(void **state) {
  (void)state;
  /* Every thread writes %tid, %ntid, %ctaid, %nctaid and %laneid to the slot
   * of its linear global index. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<24>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r3, %tid.z;\n"
      "  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %ntid.y;\n  mov.u32 %r6, %ntid.z;\n"
      "  mov.u32 %r7, %ctaid.x;\n  mov.u32 %r8, %ctaid.y;\n  mov.u32 %r9, %ctaid.z;\n"
      "  mov.u32 %r10, %nctaid.x;\n  mov.u32 %r11, %nctaid.y;\n  mov.u32 %r12, %nctaid.z;\n"
      "  mov.u32 %r13, %laneid;\n"
      /* tid_lin = (z * ny + y) * nx + x */
      "  mad.lo.u32 %r14, %r3, %r5, %r2;\n"
      "  mad.lo.u32 %r14, %r14, %r4, %r1;\n"
      /* block_lin = (cz * gy + cy) * gx + cx */
      "  mad.lo.u32 %r15, %r9, %r11, %r8;\n"
      "  mad.lo.u32 %r15, %r15, %r10, %r7;\n"
      "  mul.lo.u32 %r16, %r4, %r5;\n"
      "  mul.lo.u32 %r16, %r16, %r6;\n"
      "  mad.lo.u32 %r17, %r15, %r16, %r14;\n"
      "  mul.wide.u32 %rd2, %r17, 64;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r13};\n"
      "  st.global.v4.u32 [%rd3+16], {%r4, %r5, %r6, %r14};\n"
      "  st.global.v4.u32 [%rd3+32], {%r7, %r8, %r9, %r15};\n"
      "  st.global.v4.u32 [%rd3+48], {%r10, %r11, %r12, %r17};\n"
      "  ret;\n"
      "}\n";
  static const uint32_t cfg[][6] = {
      {3, 2, 2, 4, 3, 5}, /* 3-D grid, 3-D block of 60 threads (2 warps) */
      {5, 3, 1, 16, 8, 1}, /* 2-D */
      {1, 1, 7, 1, 1, 33}, /* z only */
  };
  for (int c = 0; c < N(cfg); c++) {
    const uint32_t g[3] = {cfg[c][0], cfg[c][1], cfg[c][2]};
    const uint32_t b[3] = {cfg[c][3], cfg[c][4], cfg[c][5]};
    uint32_t nb = g[0] * g[1] * g[2], nt = b[0] * b[1] * b[2];
    uint32_t *out = dev_alloc((size_t)nb * nt * 64, 0xcd);
    void *args[] = {&out};
    char err[1024];
    PTX_OK(ptxrun_in(NULL, ptx, "k", g, b, 0, args, err, sizeof err), err);
    for (uint32_t cz = 0; cz < g[2]; cz++)
      for (uint32_t cy = 0; cy < g[1]; cy++)
        for (uint32_t cx = 0; cx < g[0]; cx++)
          for (uint32_t z = 0; z < b[2]; z++)
            for (uint32_t y = 0; y < b[1]; y++)
              for (uint32_t x = 0; x < b[0]; x++) {
                uint32_t tl = (z * b[1] + y) * b[0] + x, bl = (cz * g[1] + cy) * g[0] + cx;
                const uint32_t *o = out + 16 * ((size_t)bl * nt + tl);
                const uint32_t want[16] = {x,    y,    z,    tl % 32, b[0], b[1], b[2], tl,
                                           cx,   cy,   cz,   bl,      g[0], g[1], g[2],
                                           bl * nt + tl};
                if (memcmp(o, want, sizeof want) != 0)
                  fail_msg("config %d block (%u,%u,%u) thread (%u,%u,%u): wrong ids "
                           "(got tid %u,%u,%u lane %u)",
                           c, cx, cy, cz, x, y, z, o[0], o[1], o[2], o[3]);
              }
    dev_free(out);
  }
}

/* ---- divergence ------------------------------------------------------------- */

static void test_nested_divergence(void **state) {
  (void)state;
  /* if (l < 16) { if (l & 1) v = 1 else v = 2; v += 10 } else { if (l < 24)
   * v = 3 else v = 4 }; then at the join every lane adds a shuffle from the
   * next lane, which needs the whole warp reconverged. */
  static const char ptx[] = KHEAD(2)
      "  setp.lt.u32 %p1, %r2, 16;\n"
      "  @!%p1 bra OUTER_ELSE;\n"
      "  and.b32 %r3, %r2, 1;\n"
      "  setp.ne.u32 %p2, %r3, 0;\n"
      "  @!%p2 bra IN1_ELSE;\n"
      "  mov.u32 %r4, 1;\n"
      "  bra IN1_JOIN;\n"
      "IN1_ELSE:\n"
      "  mov.u32 %r4, 2;\n"
      "IN1_JOIN:\n"
      "  add.u32 %r4, %r4, 10;\n"
      "  bra OUTER_JOIN;\n"
      "OUTER_ELSE:\n"
      "  setp.lt.u32 %p3, %r2, 24;\n"
      "  @!%p3 bra IN2_ELSE;\n"
      "  mov.u32 %r4, 3;\n"
      "  bra OUTER_JOIN;\n"
      "IN2_ELSE:\n"
      "  mov.u32 %r4, 4;\n"
      "OUTER_JOIN:\n"
      "  activemask.b32 %r6;\n"
      "  shfl.sync.idx.b32 %r5, %r4, %r2, 0x1f, 0xffffffff;\n"
      "  add.u32 %r7, %r2, 1;\n"
      "  and.b32 %r7, %r7, 31;\n"
      "  shfl.sync.idx.b32 %r5, %r4, %r7, 0x1f, 0xffffffff;\n"
      "  add.u32 %r5, %r5, %r4;\n"
      "  st.global.v2.u32 [%rd2], {%r5, %r6};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 64, 0, 2);
  for (int t = 0; t < 64; t++) {
    int l = t % 32;
    uint32_t v[32];
    for (int i = 0; i < 32; i++) v[i] = i < 16 ? ((i & 1) ? 11u : 12u) : (i < 24 ? 3u : 4u);
    assert_int_equal(out[2 * t], v[l] + v[(l + 1) % 32]);
    assert_int_equal(out[2 * t + 1], 0xffffffffu);
  }
  dev_free(out);
}

static void test_loop_per_lane_trip_counts(void **state) {
  (void)state;
  /* Lane l runs a loop l % 7 + 1 times adding l each time; a second loop
   * runs a data-dependent count (Collatz steps of l + 1). */
  static const char ptx[] = KHEAD(3)
      "  rem.u32 %r3, %r2, 7;\n"
      "  add.u32 %r3, %r3, 1;\n"
      "  mov.u32 %r4, 0;\n"
      "  mov.u32 %r5, 0;\n"
      "L1:\n"
      "  add.u32 %r4, %r4, %r2;\n"
      "  add.u32 %r5, %r5, 1;\n"
      "  setp.lt.u32 %p1, %r5, %r3;\n"
      "  @%p1 bra L1;\n"
      "  add.u32 %r6, %r1, 1;\n"
      "  mov.u32 %r7, 0;\n"
      "L2:\n"
      "  setp.eq.u32 %p2, %r6, 1;\n"
      "  @%p2 bra L2_END;\n"
      "  and.b32 %r8, %r6, 1;\n"
      "  setp.eq.u32 %p3, %r8, 0;\n"
      "  @%p3 shr.u32 %r6, %r6, 1;\n"
      "  @!%p3 mad.lo.u32 %r6, %r6, 3, 1;\n"
      "  add.u32 %r7, %r7, 1;\n"
      "  bra L2;\n"
      "L2_END:\n"
      "  activemask.b32 %r9;\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  st.global.u32 [%rd2+4], %r7;\n"
      "  st.global.u32 [%rd2+8], %r9;\n"
      "  ret;\n"
      "}\n";
  enum { T = 96 };
  uint32_t *out = run_out(ptx, 1, T, 0, 3);
  for (uint32_t t = 0; t < T; t++) {
    uint32_t l = t % 32, steps = 0, x = t + 1;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      steps++;
    }
    assert_int_equal(out[3 * t], l * (l % 7 + 1));
    assert_int_equal(out[3 * t + 1], steps);
    assert_int_equal(out[3 * t + 2], 0xffffffffu);
  }
  dev_free(out);
}

static void test_early_return(void **state) {
  (void)state;
  /* Lanes with l % 4 == 0 return at once (and lanes 30, 31 exit); the others
   * vote: the ballot of true is the set of live lanes, and activemask agrees. */
  static const char ptx[] = KHEAD(2)
      "  and.b32 %r3, %r2, 3;\n"
      "  setp.eq.u32 %p1, %r3, 0;\n"
      "  @%p1 ret;\n"
      "  setp.ge.u32 %p2, %r2, 30;\n"
      "  @%p2 exit;\n"
      "  activemask.b32 %r4;\n"
      "  setp.eq.u32 %p3, %r4, %r4;\n"
      "  vote.sync.ballot.b32 %r5, %p3, %r4;\n"
      "  st.global.v2.u32 [%rd2], {%r4, %r5};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 2);
  for (int l = 0; l < 32; l++) {
    if (l % 4 == 0 || l >= 30) {
      assert_int_equal(out[2 * l], 0xcdcdcdcd);
    } else {
      assert_int_equal(out[2 * l], 0x2eeeeeeeu);
      assert_int_equal(out[2 * l + 1], 0x2eeeeeeeu);
    }
  }
  dev_free(out);
}

static void test_predicated_instructions(void **state) {
  (void)state;
  /* Guards on arithmetic, moves, stores and a negated guard. */
  static const char ptx[] = KHEAD(3)
      "  mov.u32 %r3, 100;\n"
      "  mov.u32 %r4, 200;\n"
      "  setp.lt.u32 %p1, %r2, 10;\n"
      "  @%p1 add.u32 %r3, %r3, %r2;\n"
      "  @!%p1 sub.u32 %r4, %r4, %r2;\n"
      "  st.global.u32 [%rd2], %r3;\n"
      "  st.global.u32 [%rd2+4], %r4;\n"
      "  and.b32 %r5, %r2, 1;\n"
      "  setp.eq.u32 %p2, %r5, 1;\n"
      "  @%p2 st.global.u32 [%rd2+8], %r2;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 32, 0, 3);
  for (uint32_t l = 0; l < 32; l++) {
    assert_int_equal(out[3 * l], l < 10 ? 100 + l : 100);
    assert_int_equal(out[3 * l + 1], l < 10 ? 200 : 200 - l);
    assert_int_equal(out[3 * l + 2], (l & 1) ? l : 0xcdcdcdcdu);
  }
  dev_free(out);
}

/* ---- calls ------------------------------------------------------------------ */

static void test_call_with_params(void **state) {
  (void)state;
  /* A .func with three parameters of different types and a 64-bit result,
   * called from divergent code (odd lanes only). */
  static const char ptx[] = PTX_HEAD
      ".func (.param .b64 r) combine(.param .b32 a, .param .b64 b, .param .b16 c)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  .reg .b16 %h1;\n"
      "  ld.param.b32 %r1, [a];\n"
      "  ld.param.b64 %rd1, [b];\n"
      "  ld.param.b16 %h1, [c];\n"
      "  cvt.u32.u16 %r2, %h1;\n"
      "  mul.wide.u32 %rd2, %r1, %r2;\n"
      "  add.s64 %rd3, %rd2, %rd1;\n"
      "  st.param.b64 [r], %rd3;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  .reg .b16 %h1;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd2, %r1, 8;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  mov.u64 %rd4, 0;\n"
      "  and.b32 %r2, %r1, 1;\n"
      "  setp.eq.u32 %p1, %r2, 0;\n"
      "  @%p1 bra SKIP;\n"
      "  cvt.u64.u32 %rd5, %r1;\n"
      "  shl.b64 %rd5, %rd5, 40;\n"
      "  add.u32 %r3, %r1, 3;\n"
      "  cvt.u16.u32 %h1, %r3;\n"
      "  {\n"
      "    .param .b32 pa;\n"
      "    .param .b64 pb;\n"
      "    .param .b16 pc;\n"
      "    .param .b64 pr;\n"
      "    st.param.b32 [pa], %r1;\n"
      "    st.param.b64 [pb], %rd5;\n"
      "    st.param.b16 [pc], %h1;\n"
      "    call (pr), combine, (pa, pb, pc);\n"
      "    ld.param.b64 %rd4, [pr];\n"
      "  }\n"
      "SKIP:\n"
      "  st.global.u64 [%rd3], %rd4;\n"
      "  ret;\n"
      "}\n";
  uint64_t *out = dev_alloc(64 * 8, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 64, 0, args, err, sizeof err), err);
  for (uint64_t t = 0; t < 64; t++)
    assert_int_equal(out[t], (t & 1) ? t * (t + 3) + (t << 40) : 0);
  dev_free(out);
}

static void test_recursion(void **state) {
  (void)state;
  /* Recursive factorial and fibonacci with per-lane arguments (divergent
   * recursion depths), and a recursive sum that keeps its argument in a
   * .local frame variable across the recursive call. */
  static const char ptx[] = PTX_HEAD
      ".func (.param .b32 r) fact(.param .b32 n)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.b32 %r1, [n];\n"
      "  setp.le.u32 %p1, %r1, 1;\n"
      "  @%p1 bra BASE;\n"
      "  sub.u32 %r2, %r1, 1;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r2;\n"
      "    call (b), fact, (a);\n"
      "    ld.param.b32 %r3, [b];\n"
      "  }\n"
      "  mul.lo.u32 %r3, %r3, %r1;\n"
      "  st.param.b32 [r], %r3;\n"
      "  ret;\n"
      "BASE:\n"
      "  mov.u32 %r3, 1;\n"
      "  st.param.b32 [r], %r3;\n"
      "  ret;\n"
      "}\n"
      ".func (.param .b32 r) fib(.param .b32 n)\n"
      "{\n"
      "  .reg .b32 %r<6>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.b32 %r1, [n];\n"
      "  setp.lt.u32 %p1, %r1, 2;\n"
      "  @%p1 bra BASE;\n"
      "  sub.u32 %r2, %r1, 1;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r2;\n"
      "    call (b), fib, (a);\n"
      "    ld.param.b32 %r3, [b];\n"
      "  }\n"
      "  sub.u32 %r2, %r1, 2;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r2;\n"
      "    call (b), fib, (a);\n"
      "    ld.param.b32 %r4, [b];\n"
      "  }\n"
      "  add.u32 %r5, %r3, %r4;\n"
      "  st.param.b32 [r], %r5;\n"
      "  ret;\n"
      "BASE:\n"
      "  st.param.b32 [r], %r1;\n"
      "  ret;\n"
      "}\n"
      ".func (.param .b32 r) tri(.param .b32 n)\n"
      "{\n"
      "  .local .align 4 .b8 frame[4];\n"
      "  .reg .b32 %r<6>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.b32 %r1, [n];\n"
      "  st.local.u32 [frame], %r1;\n"
      "  mov.u32 %r3, 0;\n"
      "  setp.eq.u32 %p1, %r1, 0;\n"
      "  @%p1 bra DONE;\n"
      "  sub.u32 %r2, %r1, 1;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r2;\n"
      "    call (b), tri, (a);\n"
      "    ld.param.b32 %r3, [b];\n"
      "  }\n"
      "DONE:\n"
      "  ld.local.u32 %r4, [frame];\n"
      "  add.u32 %r5, %r3, %r4;\n"
      "  st.param.b32 [r], %r5;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<12>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  rem.u32 %r2, %r1, 13;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r2;\n"
      "    call (b), fact, (a);\n"
      "    ld.param.b32 %r3, [b];\n"
      "  }\n"
      "  rem.u32 %r4, %r1, 16;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r4;\n"
      "    call (b), fib, (a);\n"
      "    ld.param.b32 %r5, [b];\n"
      "  }\n"
      "  rem.u32 %r6, %r1, 40;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r6;\n"
      "    call (b), tri, (a);\n"
      "    ld.param.b32 %r7, [b];\n"
      "  }\n"
      "  mul.wide.u32 %rd2, %r1, 12;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.u32 [%rd3], %r3;\n"
      "  st.global.u32 [%rd3+4], %r5;\n"
      "  st.global.u32 [%rd3+8], %r7;\n"
      "  ret;\n"
      "}\n";
  enum { T = 64 };
  uint32_t *out = dev_alloc(T * 12, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (uint32_t t = 0; t < T; t++) {
    uint32_t f = 1, a = 0, b = 1, n = t % 16;
    for (uint32_t i = 2; i <= t % 13; i++) f *= i;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t c = a + b;
      a = b;
      b = c;
    }
    assert_int_equal(out[3 * t], f);
    assert_int_equal(out[3 * t + 1], a);
    assert_int_equal(out[3 * t + 2], (t % 40) * (t % 40 + 1) / 2);
  }
  dev_free(out);
}

/* ---- CTA barriers ------------------------------------------------------------ */

static void test_bar_sync_many_warps(void **state) {
  (void)state;
  /* 256 threads, 4 rounds: write buf[t] = t * 3 + round, bar.sync, read
   * buf[255 - t], bar.sync; accumulate. */
  static const char ptx[] = KHEADD(1, "  .shared .align 4 .b32 buf[256];\n")
      "  mov.u32 %r3, 0;\n"
      "  mov.u32 %r4, 0;\n"
      "  mov.u32 %r9, buf;\n"
      "  mad.lo.u32 %r5, %r30, 4, %r9;\n"
      "  sub.u32 %r6, 255, %r30;\n"
      "  mad.lo.u32 %r6, %r6, 4, %r9;\n"
      "ROUND:\n"
      "  mad.lo.u32 %r7, %r30, 3, %r3;\n"
      "  st.shared.u32 [%r5], %r7;\n"
      "  bar.sync 0;\n"
      "  ld.shared.u32 %r8, [%r6];\n"
      "  add.u32 %r4, %r4, %r8;\n"
      "  barrier.sync 0;\n"
      "  add.u32 %r3, %r3, 1;\n"
      "  setp.lt.u32 %p1, %r3, 4;\n"
      "  @%p1 bra ROUND;\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 2, 256, 0, 1);
  for (uint32_t b = 0; b < 2; b++)
    for (uint32_t t = 0; t < 256; t++)
      assert_int_equal(out[256 * b + t], 4 * (255 - t) * 3 + 0 + 1 + 2 + 3);
  dev_free(out);
}

static void test_bar_red(void **state) {
  (void)state;
  /* bar.red over a CTA of 160 threads (5 warps). */
  static const char ptx[] = KHEAD(6)
      "  rem.u32 %r3, %r30, 3;\n"
      "  setp.eq.u32 %p1, %r3, 0;\n"
      "  bar.red.popc.u32 %r4, 0, %p1;\n"
      "  bar.red.popc.u32 %r5, 0, !%p1;\n"
      "  setp.lt.u32 %p2, %r30, 1000;\n"
      "  bar.red.and.pred %p3, 0, %p2;\n"
      "  setp.ne.u32 %p4, %r30, 17;\n"
      "  bar.red.and.pred %p5, 1, %p4;\n"
      "  setp.eq.u32 %p6, %r30, 150;\n"
      "  bar.red.or.pred %p7, 2, %p6;\n"
      "  barrier.red.or.pred %p8, 3, !%p2;\n"
      "  selp.u32 %r6, 1, 0, %p3;\n"
      "  selp.u32 %r7, 1, 0, %p5;\n"
      "  selp.u32 %r8, 1, 0, %p7;\n"
      "  selp.u32 %r9, 1, 0, %p8;\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  st.global.u32 [%rd2+4], %r5;\n"
      "  st.global.u32 [%rd2+8], %r6;\n"
      "  st.global.u32 [%rd2+12], %r7;\n"
      "  st.global.u32 [%rd2+16], %r8;\n"
      "  st.global.u32 [%rd2+20], %r9;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 160, 0, 6);
  for (int t = 0; t < 160; t++) {
    assert_int_equal(out[6 * t], 54); /* multiples of 3 below 160 */
    assert_int_equal(out[6 * t + 1], 106);
    assert_int_equal(out[6 * t + 2], 1);
    assert_int_equal(out[6 * t + 3], 0);
    assert_int_equal(out[6 * t + 4], 1);
    assert_int_equal(out[6 * t + 5], 0);
  }
  dev_free(out);
}

static void test_named_barriers_with_count(void **state) {
  (void)state;
  /* 128 threads: warps 0-1 synchronise on barrier 1 with 64 threads, warps
   * 2-3 on barrier 2 with 64 threads; each group exchanges data within
   * itself (thread t reads the slot of t ^ 32). */
  static const char ptx[] = KHEADD(1, "  .shared .align 4 .b32 buf[128];\n")
      "  mov.u32 %r9, buf;\n"
      "  mad.lo.u32 %r5, %r30, 4, %r9;\n"
      "  mad.lo.u32 %r7, %r30, 7, 1;\n"
      "  st.shared.u32 [%r5], %r7;\n"
      "  xor.b32 %r6, %r30, 32;\n"
      "  mad.lo.u32 %r6, %r6, 4, %r9;\n"
      "  setp.lt.u32 %p1, %r30, 64;\n"
      "  @!%p1 bra G2;\n"
      "  barrier.sync 1, 64;\n"
      "  bra JOIN;\n"
      "G2:\n"
      "  bar.sync 2, 64;\n"
      "JOIN:\n"
      "  ld.shared.u32 %r8, [%r6];\n"
      "  st.global.u32 [%rd2], %r8;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 128, 0, 1);
  for (uint32_t t = 0; t < 128; t++) assert_int_equal(out[t], (t ^ 32) * 7 + 1);
  dev_free(out);
}

static void test_producer_consumer(void **state) {
  (void)state;
  /* The ISA's producer/consumer pattern with two named barriers: warp 0
   * produces 5 rounds of values into shared memory (bar.arrive 1 after
   * writing, bar.sync 2 before overwriting); warp 1 consumes (bar.sync 1,
   * read, bar.arrive 2) and accumulates. */
  static const char ptx[] = KHEADD(1, "  .shared .align 4 .b32 slot[32];\n")
      "  mov.u32 %r9, slot;\n"
      "  mad.lo.u32 %r5, %r2, 4, %r9;\n"
      "  mov.u32 %r3, 0;\n"
      "  mov.u32 %r4, 0;\n"
      "  setp.lt.u32 %p1, %r30, 32;\n"
      "  @!%p1 bra CONSUMER;\n"
      "PROD:\n"
      "  mad.lo.u32 %r7, %r3, 100, %r2;\n"
      "  st.shared.u32 [%r5], %r7;\n"
      "  bar.arrive 1, 64;\n"
      "  bar.sync 2, 64;\n"
      "  add.u32 %r3, %r3, 1;\n"
      "  setp.lt.u32 %p2, %r3, 5;\n"
      "  @%p2 bra PROD;\n"
      "  bra DONE;\n"
      "CONSUMER:\n"
      "  bar.sync 1, 64;\n"
      "  ld.shared.u32 %r8, [%r5];\n"
      "  add.u32 %r4, %r4, %r8;\n"
      "  barrier.arrive 2, 64;\n"
      "  add.u32 %r3, %r3, 1;\n"
      "  setp.lt.u32 %p2, %r3, 5;\n"
      "  @%p2 bra CONSUMER;\n"
      "DONE:\n"
      "  st.global.u32 [%rd2], %r4;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 64, 0, 1);
  for (uint32_t t = 0; t < 64; t++)
    assert_int_equal(out[t], t < 32 ? 0 : 5 * (t - 32) + 100 * (0 + 1 + 2 + 3 + 4));
  dev_free(out);
}

static void test_barrier_different_sites(void **state) {
  (void)state;
  /* Warp 0 and warp 1 meet at barrier 0 from two different instructions,
   * with the barrier id and thread count in registers. */
  static const char ptx[] = KHEADD(1, "  .shared .align 4 .b32 buf[64];\n")
      "  mov.u32 %r20, 0;\n"
      "  mov.u32 %r21, 64;\n"
      "  mov.u32 %r9, buf;\n"
      "  mad.lo.u32 %r5, %r30, 4, %r9;\n"
      "  xor.b32 %r6, %r30, 32;\n"
      "  mad.lo.u32 %r6, %r6, 4, %r9;\n"
      "  setp.lt.u32 %p1, %r30, 32;\n"
      "  @%p1 bra A;\n"
      "  add.u32 %r7, %r30, 500;\n"
      "  st.shared.u32 [%r5], %r7;\n"
      "  barrier.sync %r20, %r21;\n"
      "  bra J;\n"
      "A:\n"
      "  add.u32 %r7, %r30, 100;\n"
      "  st.shared.u32 [%r5], %r7;\n"
      "  bar.sync %r20;\n"
      "J:\n"
      "  ld.shared.u32 %r8, [%r6];\n"
      "  st.global.u32 [%rd2], %r8;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 64, 0, 1);
  for (uint32_t t = 0; t < 64; t++) assert_int_equal(out[t], t < 32 ? (t ^ 32) + 500 : (t ^ 32) + 100);
  dev_free(out);
}

static void test_exit_inside_function(void **state) {
  (void)state;
  /* Odd lanes call a function that executes exit; even lanes get a value
   * back and store it. */
  static const char ptx[] = PTX_HEAD
      ".func (.param .b32 r) maybe_exit(.param .b32 x)\n"
      "{\n"
      "  .reg .b32 %r<3>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.b32 %r1, [x];\n"
      "  and.b32 %r2, %r1, 1;\n"
      "  setp.ne.u32 %p1, %r2, 0;\n"
      "  @%p1 exit;\n"
      "  add.u32 %r2, %r1, 1000;\n"
      "  st.param.b32 [r], %r2;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  {\n"
      "    .param .b32 a;\n"
      "    .param .b32 b;\n"
      "    st.param.b32 [a], %r1;\n"
      "    call (b), maybe_exit, (a);\n"
      "    ld.param.b32 %r2, [b];\n"
      "  }\n"
      "  activemask.b32 %r3;\n"
      "  mul.wide.u32 %rd2, %r1, 8;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.v2.u32 [%rd3], {%r2, %r3};\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = dev_alloc(64 * 8, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 64, 0, args, err, sizeof err), err);
  for (uint32_t t = 0; t < 64; t++) {
    assert_int_equal(out[2 * t], (t & 1) ? 0xcdcdcdcdu : t + 1000);
    assert_int_equal(out[2 * t + 1], (t & 1) ? 0xcdcdcdcdu : 0x55555555u);
  }
  dev_free(out);
}

static void test_exited_threads_count_as_arrived(void **state) {
  (void)state;
  /* 128 threads: warps 2 and 3 exit at once, and half of warp 0 returns;
   * the remaining threads meet at bar.sync twice and exchange data. */
  static const char ptx[] = KHEADD(1, "  .shared .align 4 .b32 buf[64];\n")
      "  setp.ge.u32 %p1, %r30, 64;\n"
      "  @%p1 exit;\n"
      "  setp.lt.u32 %p2, %r30, 16;\n"
      "  @%p2 ret;\n"
      "  mov.u32 %r9, buf;\n"
      "  mad.lo.u32 %r5, %r30, 4, %r9;\n"
      "  st.shared.u32 [%r5], %r30;\n"
      "  bar.sync 0;\n"
      "  sub.u32 %r6, 79, %r30;\n"            /* partner in 16..63 */
      "  mad.lo.u32 %r6, %r6, 4, %r9;\n"
      "  ld.shared.u32 %r7, [%r6];\n"
      "  bar.sync 0;\n"
      "  st.global.u32 [%rd2], %r7;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = run_out(ptx, 1, 128, 0, 1);
  for (uint32_t t = 0; t < 128; t++)
    assert_int_equal(out[t], (t >= 16 && t < 64) ? 79 - t : 0xcdcdcdcdu);
  dev_free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shfl_full_warp),
      cmocka_unit_test(test_shfl_segments),
      cmocka_unit_test(test_shfl_segment_literal),
      cmocka_unit_test(test_shfl_partial_mask),
      cmocka_unit_test(test_vote),
      cmocka_unit_test(test_vote_divergent),
      cmocka_unit_test(test_match),
      cmocka_unit_test(test_redux),
      cmocka_unit_test(test_redux_divergent),
      cmocka_unit_test(test_activemask),
      cmocka_unit_test(test_bar_warp_sync),
      cmocka_unit_test(test_partial_warp_collectives),
      cmocka_unit_test(test_lane_registers),
      cmocka_unit_test(test_misc_special_registers),
      cmocka_unit_test(test_ids_2d_3d),
      cmocka_unit_test(test_nested_divergence),
      cmocka_unit_test(test_loop_per_lane_trip_counts),
      cmocka_unit_test(test_early_return),
      cmocka_unit_test(test_predicated_instructions),
      cmocka_unit_test(test_call_with_params),
      cmocka_unit_test(test_recursion),
      cmocka_unit_test(test_bar_sync_many_warps),
      cmocka_unit_test(test_bar_red),
      cmocka_unit_test(test_named_barriers_with_count),
      cmocka_unit_test(test_producer_consumer),
      cmocka_unit_test(test_barrier_different_sites),
      cmocka_unit_test(test_exit_inside_function),
      cmocka_unit_test(test_exited_threads_count_as_arrived),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
