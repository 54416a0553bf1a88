/* test_modern_ldsm.c: ldmatrix / stmatrix (tests/hw/modern/ldsm.cu) under
 * smemu, for every recorded case (row-address pattern x form):
 *  1. the values equal a CPU reference written from the PTX ISA's fragment
 *     layout (independent of smemu's matrix.c);
 *  2. the values equal what an H100 gave (recorded/ldsm.out);
 *  3. shared-memory requests, wavefronts and bank conflicts equal Nsight
 *     Compute's for the launch (recorded/ldsm_vectors.tsv).
 * The cases come from the recording; without it the test skips (77). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smemu.h"

#define DIR "tests/hw/modern/"
#define TILE_WORDS 1024

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; if (failures < 40) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

/* The tile the ldsm kernel fills: half i holds i ^ 0x5000. */
static uint16_t tile_half(uint32_t byte) { return (uint16_t)((byte / 2) ^ 0x5000); }

/* Expected register i of lane l of ldmatrix .xN(.trans) with row offsets off. */
static uint32_t ref_ld(const uint32_t off[32], int i, int l, int trans) {
  int g = l / 4, t = l % 4;
  uint16_t lo, hi;
  if (!trans) {
    lo = tile_half(off[8 * i + g] + 4 * t);
    hi = tile_half(off[8 * i + g] + 4 * t + 2);
  } else {
    lo = tile_half(off[8 * i + 2 * t] + 2 * g);
    hi = tile_half(off[8 * i + 2 * t + 1] + 2 * g);
  }
  return lo | (uint32_t)hi << 16;
}

/* Expected tile after stmatrix: register i of lane l holds halves
 * (8l + 2i, 8l + 2i + 1) | 0x4000; untouched words stay 0xeeeeeeee. */
static void ref_st(const uint32_t off[32], int n, int trans, uint32_t tile[TILE_WORDS]) {
  uint16_t *h = (uint16_t *)tile;
  for (int w = 0; w < TILE_WORDS; w++) tile[w] = 0xeeeeeeeeu;
  /* overlapping rows: the lowest row of a matrix and the last matrix win
   * (what the H100 did) */
  for (int i = 0; i < n; i++)
    for (int l = 31; l >= 0; l--) {
      int g = l / 4, t = l % 4;
      uint16_t lo = (uint16_t)((8 * l + 2 * i) | 0x4000), hi = (uint16_t)((8 * l + 2 * i + 1) | 0x4000);
      if (!trans) {
        h[(off[8 * i + g] + 4 * t) / 2] = lo;
        h[(off[8 * i + g] + 4 * t + 2) / 2] = hi;
      } else {
        h[(off[8 * i + 2 * t + 1] + 2 * g) / 2] = hi;
        h[(off[8 * i + 2 * t] + 2 * g) / 2] = lo;
      }
    }
}

typedef struct vec { char name[64]; uint64_t v[6]; } vec; /* ld req/wf/bc, st req/wf/bc */

static int load_vectors(vec *vs, int max) {
  FILE *f = fopen(DIR "recorded/ldsm_vectors.tsv", "r");
  if (!f) return -1;
  char line[512];
  int n = 0;
  while (n < max && fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    vec *v = &vs[n];
    if (sscanf(line, "%63s %lu %lu %lu %lu %lu %lu", v->name, &v->v[0], &v->v[1], &v->v[2], &v->v[3], &v->v[4],
               &v->v[5]) == 7)
      n++;
  }
  fclose(f);
  return n;
}

/* Misuse: ldmatrix by part of a warp (.aligned), a row address that is not
 * 16-byte aligned, an x4 in a warp of 16 threads (lanes 16-31 give rows). */
static const char *ptx_misuse =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry misuse(.param .u32 mode) {\n"
  "  .reg .b32 %r<10>; .reg .pred %p<4>;\n"
  "  .shared .align 16 .b8 tile[1024];\n"
  "  mov.u32 %r1, %tid.x;\n"
  "  ld.param.u32 %r2, [mode];\n"
  "  mov.u32 %r3, tile;\n"
  "  shl.b32 %r4, %r1, 4;\n"
  "  add.u32 %r4, %r4, %r3;\n"
  "  setp.eq.u32 %p1, %r2, 1;\n"
  "  @%p1 add.u32 %r4, %r4, 4;\n"
  "  setp.eq.u32 %p2, %r2, 0;\n"
  "  setp.lt.u32 %p3, %r1, 16;\n"
  "  and.pred %p2, %p2, %p3;\n"
  "  @%p2 bra DONE;\n"
  "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r5, %r6, %r7, %r8}, [%r4];\n"
  "DONE:\n"
  "  ret;\n"
  "}\n";

static void test_misuse(void) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  if (smemu_create(&o, &c) || smemu_module_load_data(c, ptx_misuse, strlen(ptx_misuse), "misuse.ptx", &m) ||
      smemu_module_get_kernel(m, "misuse", &k)) {
    CHECK(0, "misuse.ptx: %s", smemu_errmsg(c));
    return;
  }
  static const struct { uint32_t threads; int status; const char *msg; } want[3] = {
    {32, SMEMU_ERR_ILLEGAL_INSTRUCTION, "all live lanes (0xffffffff) must execute it together, but only lanes 0xffff0000"},
    {32, SMEMU_ERR_MISALIGNED, "misaligned read of 16 bytes"},
    {16, SMEMU_ERR_ILLEGAL_INSTRUCTION, "needs lanes 0..31 to give row addresses"},
  };
  for (uint32_t mode = 0; mode < 3; mode++) {
    void *args[] = {&mode};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {want[mode].threads, 1, 1};
    int rc = smemu_launch(c, k, grid, block, 0, args);
    CHECK(rc == want[mode].status && strstr(smemu_errmsg(c), want[mode].msg), "misuse %u: %d %s", mode, rc,
          smemu_errmsg(c));
  }
  smemu_module_unload(m);
  smemu_destroy(c);
}

int main(void) {
  test_misuse();
  FILE *rec = fopen(DIR "recorded/ldsm.out", "r");
  if (!rec) {
    printf("no recording at " DIR "recorded/ldsm.out: the GPU comparison is skipped\n");
    return failures ? 1 : 77;
  }
  static vec vs[256];
  int nv = load_vectors(vs, 256);
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_BANKS;
  smemu_ctx *ctx;
  smemu_module *mod;
  if (smemu_create(&o, &ctx) || smemu_module_load_file(ctx, DIR "ldsm.ptx", &mod)) {
    printf("FAIL: load: %s\n", ctx ? smemu_errmsg(ctx) : "create");
    return 1;
  }
  void *d_off, *d_out;
  smemu_malloc(ctx, &d_off, 128);
  smemu_malloc(ctx, &d_out, TILE_WORDS * 4);
  char line[1 << 14];
  int ncases = 0, nbank = 0;
  while (fgets(line, sizeof line, rec)) {
    char name[64], status[64];
    if (sscanf(line, "case %63s %63s", name, status) != 2) continue;
    int st = !strncmp(name, "stsm", 4), n = name[6] - '0', trans = strstr(name, "trans") != NULL;
    uint32_t off[32], got[TILE_WORDS], want[TILE_WORDS], ref[TILE_WORDS];
    if (!fgets(line, sizeof line, rec)) break;
    char *p = line + 3;
    for (int l = 0; l < 32; l++) off[l] = (uint32_t)strtoul(p, &p, 10);
    int nw = st ? TILE_WORDS : 128;
    for (int i = 0; i < nw; i++)
      if (fscanf(rec, "%x", &want[i]) != 1) { printf("FAIL: short recording at %s\n", name); return 1; }
    char kname[64];
    snprintf(kname, sizeof kname, "_Z6%s_kILi%dELi%dEEvPKjPj", st ? "stsm" : "ldsm", n, trans);
    smemu_kernel *k;
    if (smemu_module_get_kernel(mod, kname, &k)) { CHECK(0, "%s: no kernel %s", name, kname); continue; }
    smemu_memcpy(ctx, d_off, off, sizeof off);
    smemu_memset(ctx, d_out, 0, TILE_WORDS * 4);
    void *args[] = {&d_off, &d_out};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    int rc = smemu_launch(ctx, k, grid, block, 0, args);
    CHECK(rc == SMEMU_OK, "%s: launch: %s", name, smemu_errmsg(ctx));
    if (rc) continue;
    smemu_memcpy(ctx, got, d_out, (size_t)nw * 4);
    if (st) ref_st(off, n, trans, ref);
    else
      for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) ref[l * 4 + i] = i < n ? ref_ld(off, i, l, trans) : 0;
    int bad_ref = 0, bad_gpu = 0;
    for (int i = 0; i < nw; i++) {
      if (got[i] != ref[i] && bad_ref++ < 3) CHECK(0, "%s: word %d: smemu %08x, ISA reference %08x", name, i, got[i], ref[i]);
      if (got[i] != want[i] && bad_gpu++ < 3) CHECK(0, "%s: word %d: smemu %08x, H100 %08x", name, i, got[i], want[i]);
    }
    smemu_bank_counts bc;
    if (smemu_last_bank_counts(ctx, &bc) == SMEMU_OK)
      printf("%-24s smemu ld %lu/%lu/%lu st %lu/%lu/%lu (requests/wavefronts/conflicts)\n", name,
             (unsigned long)bc.requests[0], (unsigned long)bc.wavefronts[0], (unsigned long)bc.conflicts[0],
             (unsigned long)bc.requests[1], (unsigned long)bc.wavefronts[1], (unsigned long)bc.conflicts[1]);
    if (!strcmp(name, "ldsm_x4_s128")) {
      /* the report names the 8-way conflict and suggests a swizzle, not a
       * one-element pad (which would misalign the rows) */
      char *text = NULL;
      size_t len = 0;
      FILE *mf = open_memstream(&text, &len);
      smemu_write_bank_report(ctx, mf, 5);
      fclose(mf);
      CHECK(text && strstr(text, "8-way") && strstr(text, "ldmatrix rows that share banks") &&
            !strstr(text, "[32][33]"), "ldsm_x4_s128 report:\n%s", text ? text : "");
      free(text);
    }
    for (int j = 0; j < nv; j++)
      if (!strcmp(vs[j].name, name) && smemu_last_bank_counts(ctx, &bc) == SMEMU_OK) {
        uint64_t mine[6] = {bc.requests[0], bc.wavefronts[0], bc.conflicts[0],
                            bc.requests[1], bc.wavefronts[1], bc.conflicts[1]};
        static const char *what[6] = {"ld requests", "ld wavefronts", "ld conflicts",
                                      "st requests", "st wavefronts", "st conflicts"};
        for (int q = 0; q < 6; q++)
          CHECK(mine[q] == vs[j].v[q], "%s: %s: smemu %lu, ncu %lu", name, what[q], mine[q], vs[j].v[q]);
        nbank++;
      }
    ncases++;
  }
  fclose(rec);
  printf("%d ldmatrix/stmatrix cases, %d with ncu counters; %d failures\n", ncases, nbank, failures);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return failures || ncases == 0 ? 1 : 0;
}
