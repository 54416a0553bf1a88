/* split.c: runs splitShared (examples/split.cu): 4 blocks of 128 threads, one
 * dynamic shared array split into 300 ints, 200 floats, 333 chars and 50
 * 8-byte-aligned doubles per block. The output records are checked byte-exact. */
#include "smemu.h"
#include "common.h"

enum { NI = EX_SPLIT_NI, NF = EX_SPLIT_NF, NC = EX_SPLIT_NC, ND = EX_SPLIT_ND, NB = EX_SPLIT_BLOCKS };

/* Inputs of all blocks; the GPU recorder fills them the same way. */
typedef struct inputs {
  int32_t i[NI * NB];
  float f[NF * NB];
  int8_t c[NC * NB];
  double d[ND * NB];
} inputs;

static void fill(inputs *in)
{
  ex_fill_i32(in->i, NI * NB, EX_SPLIT_SEED, -1000000, 1000000);
  ex_fill_f32(in->f, NF * NB, EX_SPLIT_SEED + 1, -1.0f, 1.0f);
  ex_fill_i8(in->c, NC * NB, EX_SPLIT_SEED + 2);
  ex_fill_f64(in->d, ND * NB, EX_SPLIT_SEED + 3, -1.0, 1.0);
}

/* The records the kernel writes (see split.cu). The float is sf * 2 + x with
 * one rounding whether or not nvcc makes it an fma, since sf * 2 is exact. */
static void reference(const inputs *in, unsigned char *out)
{
  size_t rec = ex_split_shared_bytes();
  int b, i;
  memset(out, 0, rec * NB);
  for (b = 0; b < NB; b++) {
    const int32_t *si = in->i + b * NI;
    const float *sf = in->f + b * NF;
    const int8_t *sc = in->c + b * NC;
    const double *sd = in->d + b * ND;
    unsigned char *o = out + (size_t)b * rec;
    for (i = 0; i < NI; i++) {
      int32_t v = si[(i + 1) % NI] + sc[i % NC];
      memcpy(o + 4 * (size_t)i, &v, 4);
    }
    for (i = 0; i < NF; i++) {
      float v = sf[NF - 1 - i] * 2.0f + (float)si[i % NI];
      memcpy(o + ex_split_off_f() + 4 * (size_t)i, &v, 4);
    }
    for (i = 0; i < NC; i++) o[ex_split_off_c() + (size_t)i] = (unsigned char)(sc[NC - 1 - i] ^ (int8_t)i);
    for (i = 0; i < ND; i++) {
      double v = sd[(i + 7) % ND] + (double)sf[i % NF];
      memcpy(o + ex_split_off_d() + 8 * (size_t)i, &v, 8);
    }
  }
}

int main(int argc, char **argv)
{
  ex_opts o;
  smemu_ctx *ctx;
  smemu_module *mod;
  size_t rec = ex_split_shared_bytes(), outb = rec * NB;
  inputs *in = (inputs *)malloc(sizeof *in);
  unsigned char *want = (unsigned char *)malloc(outb), *got = (unsigned char *)malloc(outb);
  void *di = NULL, *df = NULL, *dc = NULL, *dd = NULL, *dout = NULL;
  int ni = NI, nf = NF, nc = NC, nd = ND, ok = 0;
  void *args[9];
  char what[200];

  if (ex_parse_args(argc, argv, "split", &o) != 0) return 2;
  if (!in || !want || !got) {
    printf("split: FAIL (out of host memory)\n");
    return 1;
  }
  if (!ex_setup(&o, "split", &ctx, &mod)) {
    if (ctx) smemu_destroy(ctx);
    return 1;
  }
  fill(in);
  reference(in, want);
  args[0] = &di;
  args[1] = &df;
  args[2] = &dc;
  args[3] = &dd;
  args[4] = &dout;
  args[5] = &ni;
  args[6] = &nf;
  args[7] = &nc;
  args[8] = &nd;
  if (ex_ok(ctx, smemu_malloc(ctx, &di, sizeof in->i), "split", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, &df, sizeof in->f), "split", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, &dc, sizeof in->c), "split", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, &dd, sizeof in->d), "split", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, &dout, outb), "split", "malloc") &&
      ex_ok(ctx, smemu_memcpy(ctx, di, in->i, sizeof in->i), "split", "memcpy") &&
      ex_ok(ctx, smemu_memcpy(ctx, df, in->f, sizeof in->f), "split", "memcpy") &&
      ex_ok(ctx, smemu_memcpy(ctx, dc, in->c, sizeof in->c), "split", "memcpy") &&
      ex_ok(ctx, smemu_memcpy(ctx, dd, in->d, sizeof in->d), "split", "memcpy") &&
      ex_ok(ctx, smemu_memset(ctx, dout, 0, outb), "split", "memset") &&
      ex_launch(ctx, mod, "split", "splitShared", NB, 1, EX_SPLIT_THREADS, 1, (uint32_t)rec, args) &&
      ex_ok(ctx, smemu_memcpy(ctx, got, dout, outb), "split", "memcpy")) {
    snprintf(what, sizeof what,
             "%d blocks x %d threads, %u shared bytes: %d ints, %d floats, %d chars, %d doubles "
             "at offsets 0/%u/%u/%u, byte-exact",
             NB, EX_SPLIT_THREADS, (unsigned)rec, NI, NF, NC, ND, (unsigned)ex_split_off_f(),
             (unsigned)ex_split_off_c(), (unsigned)ex_split_off_d());
    ex_stats_note(ctx, what, sizeof what);
    ok = ex_report(&o, "split", "splitShared", what, EX_U8, got, want, outb, 0, 0.0);
    if (!ok) {
      /* name the array of the first bad byte */
      size_t k;
      for (k = 0; k < outb && got[k] == want[k]; k++) {}
      if (k < outb) {
        size_t off = k % rec;
        const char *arr = off < ex_split_off_f() ? "int" : off < ex_split_off_c() ? "float"
                        : off < ex_split_off_c() + NC ? "char"
                        : off < ex_split_off_d() ? "padding" : "double";
        printf("split: first bad byte %zu is in block %zu, %s array\n", k, k / rec, arr);
      }
    }
  }
  smemu_free(ctx, di);
  smemu_free(ctx, df);
  smemu_free(ctx, dc);
  smemu_free(ctx, dd);
  smemu_free(ctx, dout);
  free(in);
  free(want);
  free(got);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ok ? 0 : 1;
}
