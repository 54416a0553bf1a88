/* test_tma.c: tensor maps and TMA copies through the C API (no nvcc).
 *  - the argument table tests/hw/tma/encode_cases.h: smemu_tensormap_encode_*
 *    must return what an H100's driver returned (recorded/encode.out);
 *  - a 2D load with the 128B swizzle, and a narrow box under it: the tile
 *    must sit where the swizzle arithmetic below puts each element (16-byte
 *    chunk index XOR row % 8, rows a 128-byte span apart);
 *  - misuse: a read before the mbarrier wait and a TMA store of bytes
 *    written without fence.proxy.async are races (and their fixes are not);
 *    expect_tx above the box's bytes is a deadlock naming the missing
 *    bytes; a shared tile off 128 bytes is misaligned; a box starting off a
 *    16-byte boundary is an illegal instruction (both as on the H100);
 *  - the pipeline statistics of a load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smemu.h"
#include "../hw/tma/encode_cases.h"

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

static void test_encode_table(void) {
  FILE *f = fopen("tests/hw/tma/recorded/encode.out", "r");
  if (!f) { CHECK(0, "no tests/hw/tma/recorded/encode.out"); return; }
  static uint8_t buf[1 << 16] __attribute__((aligned(256)));
  static uint8_t maps[256] __attribute__((aligned(64)));
  char line[256];
  size_t i = 0;
  while (fgets(line, sizeof line, f) && i < N_ENC_CASES) {
    char name[128];
    int want;
    if (sscanf(line, "%127s %d", name, &want) != 2 || !strcmp(name, "rc")) continue;
    const enc_case *e = &enc_cases[i++];
    CHECK(!strcmp(name, e->name), "encode row %zu: recorded '%s', table '%s'", i, name, e->name);
    void *map = maps + e->map_off, *addr = e->addr_off == ~0u ? NULL : buf + (e->addr_off & 0xffff);
    char msg[256] = "";
    int rc;
    if (e->im2col == 1)
      rc = smemu_tensormap_encode_im2col(map, e->dtype, e->rank, addr, e->dim, e->stride, e->lower, e->upper, e->cpp,
                                         e->ppc, e->estride, e->interleave, e->swizzle, e->l2, e->oob, msg, sizeof msg);
    else if (e->im2col == 2) {
      rc = smemu_tensormap_encode_tiled(map, e->dtype, e->rank, buf, e->dim, e->stride, e->box, e->estride,
                                        e->interleave, e->swizzle, e->l2, e->oob, msg, sizeof msg);
      if (!rc) rc = smemu_tensormap_replace_address(map, addr, msg, sizeof msg);
    } else
      rc = smemu_tensormap_encode_tiled(map, e->dtype, e->rank, addr, e->dim, e->stride, e->box, e->estride,
                                        e->interleave, e->swizzle, e->l2, e->oob, msg, sizeof msg);
    CHECK(rc == want, "encode %s: smemu %d (%s), H100 %d", e->name, rc, msg, want);
    CHECK(rc == 0 || msg[0], "encode %s: refused without a reason", e->name);
  }
  fclose(f);
  CHECK(i == N_ENC_CASES, "encode.out has %zu of %zu rows", i, (size_t)N_ENC_CASES);
}

#define HEAD ".version 8.0\n.target sm_90a\n.address_size 64\n"

/* load: thread 0 arrives expecting `bytes` (+16 in mode 2) and loads the
 * box at (c0, 0) into `tile` (+16 in mode 3; c0 = 1 in mode 4); mode 1
 * reads the tile before waiting; everyone waits, then copies the 4 KB tile
 * out. store: the threads fill the tile (word i = i), fence.proxy.async
 * unless mode 1, barrier, thread 0 stores the box at (0, 0) and waits for
 * its reads (wait_group.read); in modes 2 and 3 the threads then pass a
 * barrier and overwrite the tile, thread 0 waiting only after that (2) or
 * before the barrier (3); in mode 4 the fence comes before the writes. */
static const char *ptx =
  HEAD
  ".visible .entry load(.param .align 64 .b8 tm[128], .param .u64 out, .param .u32 mode, .param .u32 bytes) {\n"
  "  .reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
  "  .shared .align 8 .b64 bar;\n"
  "  .shared .align 1024 .b8 tile[4096];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  ld.param.u32 %r2, [mode];\n"
  "  ld.param.u32 %r3, [bytes];\n"
  "  ld.param.u64 %rd1, [out];\n"
  "  mov.b64 %rd2, tm;\n"
  "  cvta.param.u64 %rd2, %rd2;\n"
  "  mov.u32 %r4, bar;\n"
  "  mov.u32 %r5, tile;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra SYNC;\n"
  "  mbarrier.init.shared::cta.b64 [%r4], 1;\n"
  "SYNC:\n"
  "  bar.sync 0;\n"
  "  @%p1 bra WAIT;\n"
  "  setp.eq.u32 %p2, %r2, 2;\n"
  "  add.u32 %r6, %r3, 16;\n"
  "  selp.u32 %r7, %r6, %r3, %p2;\n"
  "  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r4], %r7;\n"
  "  setp.eq.u32 %p3, %r2, 3;\n"
  "  add.u32 %r8, %r5, 16;\n"
  "  selp.u32 %r9, %r8, %r5, %p3;\n"
  "  setp.eq.u32 %p4, %r2, 4;\n"
  "  selp.u32 %r10, 1, 0, %p4;\n"
  "  mov.u32 %r11, 0;\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r9], [%rd2, {%r10, %r11}], [%r4];\n"
  "WAIT:\n"
  "  setp.ne.u32 %p5, %r2, 1;\n"
  "  @%p5 bra LOOP;\n"
  "  ld.shared.u32 %r12, [%r5+4];\n"
  "LOOP:\n"
  "  mbarrier.try_wait.parity.shared::cta.b64 %p6, [%r4], 0;\n"
  "  @!%p6 bra LOOP;\n"
  "  mov.u32 %r13, %r1;\n"
  "COPY:\n"
  "  shl.b32 %r14, %r13, 2;\n"
  "  add.u32 %r15, %r5, %r14;\n"
  "  ld.shared.u32 %r16, [%r15];\n"
  "  cvt.u64.u32 %rd3, %r14;\n"
  "  add.u64 %rd4, %rd1, %rd3;\n"
  "  st.global.u32 [%rd4], %r16;\n"
  "  add.u32 %r13, %r13, 128;\n"
  "  setp.lt.u32 %p7, %r13, 1024;\n"
  "  @%p7 bra COPY;\n"
  "  ret;\n"
  "}\n"
  ".visible .entry store(.param .align 64 .b8 tm[128], .param .u32 mode) {\n"
  "  .reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>;\n"
  "  .shared .align 1024 .b8 tile[4096];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  ld.param.u32 %r2, [mode];\n"
  "  mov.b64 %rd2, tm;\n"
  "  cvta.param.u64 %rd2, %rd2;\n"
  "  mov.u32 %r5, tile;\n"
  "  setp.eq.u32 %p5, %r2, 4;\n"
  "  @%p5 fence.proxy.async.shared::cta;\n"
  "  mov.u32 %r13, %r1;\n"
  "FILL:\n"
  "  shl.b32 %r14, %r13, 2;\n"
  "  add.u32 %r15, %r5, %r14;\n"
  "  st.shared.u32 [%r15], %r13;\n"
  "  add.u32 %r13, %r13, 128;\n"
  "  setp.lt.u32 %p7, %r13, 1024;\n"
  "  @%p7 bra FILL;\n"
  "  setp.eq.u32 %p2, %r2, 1;\n"
  "  or.pred %p2, %p2, %p5;\n"
  "  @!%p2 fence.proxy.async.shared::cta;\n"
  "  bar.sync 0;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra B1;\n"
  "  mov.u32 %r10, 0;\n"
  "  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r10, %r10}], [%r5];\n"
  "  cp.async.bulk.commit_group;\n"
  "  setp.eq.u32 %p3, %r2, 2;\n"
  "  @%p3 bra B1;\n"
  "  cp.async.bulk.wait_group.read 0;\n"
  "B1:\n"
  "  setp.lt.u32 %p4, %r2, 2;\n"
  "  @%p4 bra DONE;\n"
  "  bar.sync 0;\n"
  "  shl.b32 %r14, %r1, 2;\n"
  "  add.u32 %r15, %r5, %r14;\n"
  "  st.shared.u32 [%r15], 7;\n"
  "  @%p1 bra DONE;\n"
  "  cp.async.bulk.wait_group.read 0;\n"
  "DONE:\n"
  "  ret;\n"
  "}\n"
  /* mcl (a cluster): every block inits its barrier expecting 2048 bytes;
   * after the cluster barrier, rank 0's thread 0 multicasts the 64 x 16
   * box at (0, 0) to the blocks of mask (mode 0), or (mode 1) rank 0's
   * thread q loads the box at (0, 16q) into block rank q through mapa; each
   * block waits and copies its tile to out + 2048 * rank */
  ".visible .entry mcl(.param .align 64 .b8 tm[128], .param .u64 out, .param .u32 mode, .param .u32 mask) {\n"
  "  .reg .b32 %r<24>; .reg .b64 %rd<8>; .reg .pred %p<8>; .reg .b16 %h<2>;\n"
  "  .shared .align 8 .b64 bar;\n"
  "  .shared .align 1024 .b8 tile[2048];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  ld.param.u32 %r2, [mode];\n"
  "  ld.param.u32 %r3, [mask];\n"
  "  cvt.u16.u32 %h1, %r3;\n"
  "  ld.param.u64 %rd1, [out];\n"
  "  mov.b64 %rd2, tm;\n"
  "  cvta.param.u64 %rd2, %rd2;\n"
  "  mov.u32 %r4, bar;\n"
  "  mov.u32 %r5, tile;\n"
  "  mov.u32 %r6, %cluster_ctarank;\n"
  "  setp.ne.u32 %p1, %r1, 0;\n"
  "  @%p1 bra SYNC;\n"
  "  mbarrier.init.shared::cta.b64 [%r4], 1;\n"
  "  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r4], 2048;\n"
  "SYNC:\n"
  "  barrier.cluster.arrive;\n"
  "  barrier.cluster.wait;\n"
  "  setp.ne.u32 %p2, %r6, 0;\n"
  "  @%p2 bra LOOP;\n"
  "  mov.u32 %r7, %cluster_nctarank;\n"
  "  setp.ge.u32 %p3, %r1, %r7;\n"
  "  @%p3 bra LOOP;\n"
  "  mov.u32 %r8, 0;\n"
  "  setp.ne.u32 %p4, %r2, 0;\n"
  "  @%p4 bra REMOTE;\n"
  "  @%p1 bra LOOP;\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r5], [%rd2, {%r8, %r8}], [%r4], %h1;\n"
  "  bra LOOP;\n"
  "REMOTE:\n"
  "  mapa.shared::cluster.u32 %r9, %r5, %r1;\n"
  "  mapa.shared::cluster.u32 %r10, %r4, %r1;\n"
  "  shl.b32 %r11, %r1, 4;\n"
  "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r9], [%rd2, {%r8, %r11}], [%r10];\n"
  "LOOP:\n"
  "  mbarrier.try_wait.parity.shared::cta.b64 %p6, [%r4], 0;\n"
  "  @!%p6 bra LOOP;\n"
  "  mul.wide.u32 %rd5, %r6, 2048;\n"
  "  add.u64 %rd1, %rd1, %rd5;\n"
  "  mov.u32 %r13, %r1;\n"
  "COPY:\n"
  "  shl.b32 %r14, %r13, 2;\n"
  "  add.u32 %r15, %r5, %r14;\n"
  "  ld.shared.u32 %r16, [%r15];\n"
  "  cvt.u64.u32 %rd3, %r14;\n"
  "  add.u64 %rd4, %rd1, %rd3;\n"
  "  st.global.u32 [%rd4], %r16;\n"
  "  add.u32 %r13, %r13, 128;\n"
  "  setp.lt.u32 %p7, %r13, 512;\n"
  "  @%p7 bra COPY;\n"
  "  barrier.cluster.arrive;\n"
  "  barrier.cluster.wait;\n"
  "  ret;\n"
  "}\n";

static smemu_ctx *ctx;
static smemu_module *mod;
static uint16_t *gsrc; /* 64 x 32 u16, element i holds i */
static uint8_t *gout;

static int launch(const char *name, void **args) {
  smemu_kernel *k;
  if (smemu_module_get_kernel(mod, name, &k)) return -1;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
  return smemu_launch(ctx, k, grid, block, 0, args);
}

/* Encode a u16 64 x 32 map with the given box and swizzle. */
static int map_u16(uint8_t *map, uint32_t box0, uint32_t box1, int swizzle) {
  uint64_t dim[2] = {64, 32}, stride[1] = {128};
  uint32_t box[2] = {box0, box1}, est[2] = {1, 1};
  char msg[256];
  return smemu_tensormap_encode_tiled(map, 1, 2, gsrc, dim, stride, box, est, 0, swizzle, 0, 0, msg, sizeof msg);
}

/* The 128B swizzle by its definition: the 16-byte chunk of a 128-byte row
 * XOR the row within a group of 8. */
static uint32_t swz128(uint32_t off) { return (off & ~0x70u) | ((((off >> 4) & 7) ^ ((off >> 7) & 7)) << 4); }

static void test_swizzled_loads(void) {
  static uint8_t map[128] __attribute__((aligned(64)));
  static const struct { uint32_t box0, box1; } cases[] = {{64, 16}, {16, 8}, {8, 32}};
  for (int c = 0; c < 3; c++) {
    CHECK(map_u16(map, cases[c].box0, cases[c].box1, 3) == 0, "encode box %u x %u", cases[c].box0, cases[c].box1);
    uint32_t mode = 0, bytes = cases[c].box0 * cases[c].box1 * 2;
    smemu_memset(ctx, gout, 0xee, 4096);
    void *args[] = {map, &gout, &mode, &bytes};
    int rc = launch("load", args);
    CHECK(rc == SMEMU_OK, "load box %u x %u: %s", cases[c].box0, cases[c].box1, smemu_errmsg(ctx));
    uint8_t tile[4096];
    smemu_memcpy(ctx, tile, gout, sizeof tile);
    int bad = 0;
    for (uint32_t r = 0; r < cases[c].box1; r++)
      for (uint32_t e = 0; e < cases[c].box0; e++) {
        uint16_t v;
        memcpy(&v, tile + swz128(r * 128 + e * 2), 2);
        if (v != r * 64 + e && bad++ < 3)
          CHECK(0, "box %u x %u: element (%u,%u) reads %u, want %u", cases[c].box0, cases[c].box1, r, e, v, r * 64 + e);
      }
  }
}

static void test_misuse(void) {
  static uint8_t map[128] __attribute__((aligned(64)));
  map_u16(map, 64, 16, 3);
  uint32_t bytes = 2048;
  struct { uint32_t mode; int status; const char *msg; int races; } want[] = {
    {0, SMEMU_OK, NULL, 0},
    {1, SMEMU_OK, NULL, 1},
    {2, SMEMU_ERR_DEADLOCK, "16 transaction bytes pending", 0},
    {3, SMEMU_ERR_MISALIGNED, "aligned to 128 bytes", 0},
    {4, SMEMU_ERR_ILLEGAL_INSTRUCTION, "16-byte boundary", 0},
  };
  for (int i = 0; i < 5; i++) {
    void *args[] = {map, &gout, &want[i].mode, &bytes};
    int rc = launch("load", args);
    CHECK(rc == want[i].status && (!want[i].msg || strstr(smemu_errmsg(ctx), want[i].msg)),
          "load mode %u: status %d, want %d with '%s': %s", want[i].mode, rc, want[i].status,
          want[i].msg ? want[i].msg : "", rc ? smemu_errmsg(ctx) : "ok");
    if (rc == SMEMU_OK)
      CHECK((smemu_hazard_count(ctx) > 0) == want[i].races, "load mode %u: %d hazards", want[i].mode,
            smemu_hazard_count(ctx));
  }
  /* the store: 2 KB of the tile to global, with and without the fence,
   * overwritten before and after the copy's reads were waited for */
  for (uint32_t mode = 0; mode < 5; mode++) {
    map_u16(map, 64, 16, 0);
    smemu_memset(ctx, gsrc, 0, 4096);
    void *args[] = {map, &mode};
    int rc = launch("store", args);
    CHECK(rc == SMEMU_OK, "store mode %u: %s", mode, smemu_errmsg(ctx));
    CHECK((smemu_hazard_count(ctx) > 0) == (mode == 1 || mode == 2 || mode == 4), "store mode %u: %d hazards", mode,
          smemu_hazard_count(ctx));
    uint32_t w[512];
    smemu_memcpy(ctx, w, gsrc, sizeof w);
    int bad = 0;
    for (uint32_t i = 0; i < 512; i++) bad += w[i] != i;
    CHECK(!bad, "store mode %u: %d words of 512 wrong", mode, bad);
  }
}

static void test_pipeline(void) {
  static uint8_t map[128] __attribute__((aligned(64)));
  map_u16(map, 64, 16, 3);
  uint32_t mode = 0, bytes = 2048;
  void *args[] = {map, &gout, &mode, &bytes};
  CHECK(launch("load", args) == SMEMU_OK, "pipeline load: %s", smemu_errmsg(ctx));
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int n = smemu_write_pipeline_report(ctx, f);
  fclose(f);
  CHECK(n > 0 && buf && strstr(buf, "tensor loads (TMA)                    1 copy           2048 bytes") &&
            strstr(buf, "1 phase completed, 1 copy, 2048 bytes") && strstr(buf, "at most 1 copy, 2048 bytes"),
        "pipeline report:\n%s", buf ? buf : "(none)");
  free(buf);
}

/* Multicast and remote TMA loads in a cluster of 2: each block's tile
 * holds the box it was sent (element (r, e) of the box at row r0 is
 * (r0 + r) * 64 + e; no swizzle, rows of 128 bytes), with no hazard; a
 * mask naming rank 2 of 2 is a remote access past the cluster. */
static void test_cluster(void) {
  static uint8_t map[128] __attribute__((aligned(64)));
  uint16_t h[2048];
  for (int i = 0; i < 2048; i++) h[i] = (uint16_t)i; /* the store tests overwrote it */
  smemu_memcpy(ctx, gsrc, h, sizeof h);
  CHECK(map_u16(map, 64, 16, 0) == 0, "encode 64 x 16");
  smemu_kernel *k;
  if (smemu_module_get_kernel(mod, "mcl", &k)) {
    CHECK(0, "kernel mcl: %s", smemu_errmsg(ctx));
    return;
  }
  uint32_t grid[3] = {2, 1, 1}, block[3] = {128, 1, 1}, cl[3] = {2, 1, 1};
  for (uint32_t mode = 0; mode < 3; mode++) {
    uint32_t mask = mode == 2 ? 0x7 : 0x3, m = mode == 2 ? 0 : mode;
    smemu_memset(ctx, gout, 0xee, 4096);
    void *args[] = {map, &gout, &m, &mask};
    int rc = smemu_launch_cluster(ctx, k, grid, block, cl, 0, args);
    if (mode == 2) {
      CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(smemu_errmsg(ctx), "block rank 2"),
            "multicast mask 0x7 in a cluster of 2: %d %s", rc, smemu_errmsg(ctx));
      continue;
    }
    CHECK(rc == SMEMU_OK && smemu_hazard_count(ctx) == 0, "%s: rc %d %s, %d hazards",
          mode ? "remote TMA loads" : "TMA multicast", rc, smemu_errmsg(ctx), smemu_hazard_count(ctx));
    uint16_t t[2048];
    smemu_memcpy(ctx, t, gout, sizeof t);
    int bad = 0;
    for (uint32_t q = 0; q < 2; q++)
      for (uint32_t i = 0; i < 1024; i++) {
        uint32_t want = (mode ? 16 * q : 0) * 64 + i;
        if (t[q * 1024 + i] != want && bad++ < 3)
          CHECK(0, "%s: rank %u element %u is %u, want %u", mode ? "remote" : "multicast", q, i, t[q * 1024 + i], want);
      }
  }
}

int main(void) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_PIPELINE;
  test_encode_table();
  if (smemu_create(&o, &ctx) || smemu_module_load_data(ctx, ptx, strlen(ptx), "tma.ptx", &mod)) {
    printf("FAIL: load: %s\n", ctx ? smemu_errmsg(ctx) : "create");
    return 1;
  }
  smemu_malloc(ctx, (void **)&gsrc, 4096);
  smemu_malloc(ctx, (void **)&gout, 4096);
  uint16_t h[2048];
  for (int i = 0; i < 2048; i++) h[i] = (uint16_t)i;
  smemu_memcpy(ctx, gsrc, h, sizeof h);
  test_swizzled_loads();
  test_misuse();
  test_pipeline();
  test_cluster();
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
