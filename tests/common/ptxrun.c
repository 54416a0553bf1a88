/* ptxrun.c: the unit tests' helpers (see ptxrun.h): one shared context, device
 * buffers, and "load PTX text, launch, unload" runners, including the lane
 * kernels whose every thread reads its inputs and writes its outputs. */
#include "ptxrun.h"

#include <stdio.h>
#include <stdlib.h>

static smemu_ctx *g_ctx;

static void ptxrun_fini(void) {
  if (g_ctx) smemu_destroy(g_ctx);
  g_ctx = NULL;
}

smemu_ctx *ptxrun_ctx(void) {
  if (!g_ctx) {
    smemu_options o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    if (smemu_create(&o, &g_ctx) != SMEMU_OK) {
      fprintf(stderr, "ptxrun: smemu_create failed\n");
      abort();
    }
    atexit(ptxrun_fini);
  }
  return g_ctx;
}

void *dev_alloc(size_t bytes, int fill) {
  void *p = NULL;
  smemu_ctx *c = ptxrun_ctx();
  if (smemu_malloc(c, &p, bytes ? bytes : 1) != SMEMU_OK) return NULL;
  if (smemu_memset(c, p, fill, bytes ? bytes : 1) != SMEMU_OK) return NULL;
  return p;
}

void *dev_in(const void *src, size_t bytes) {
  void *p = dev_alloc(bytes, 0);
  if (p && bytes && smemu_memcpy(ptxrun_ctx(), p, src, bytes) != SMEMU_OK)
    return NULL;
  return p;
}

void dev_free(void *p) {
  if (p) smemu_free(ptxrun_ctx(), p);
}

static void put_err(char *err, size_t errsz, const char *msg) {
  if (err && errsz) snprintf(err, errsz, "%s", msg ? msg : "");
}

int ptxrun_in(smemu_ctx *ctx, const char *ptx, const char *kernel,
              const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
              void **args, char *err, size_t errsz) {
  smemu_module *m = NULL;
  smemu_kernel *k = NULL;
  smemu_status st;
  if (!ctx) ctx = ptxrun_ctx();
  put_err(err, errsz, "");
  st = smemu_module_load_data(ctx, ptx, strlen(ptx), "test.ptx", &m);
  if (st != SMEMU_OK) {
    put_err(err, errsz, smemu_errmsg(ctx));
    return st;
  }
  st = smemu_module_get_kernel(m, kernel, &k);
  if (st == SMEMU_OK) st = smemu_launch(ctx, k, grid, block, shared, args);
  if (st != SMEMU_OK) put_err(err, errsz, smemu_errmsg(ctx));
  smemu_module_unload(m);
  return st;
}

int ptxrun(const char *ptx, const char *kernel, uint32_t grid, uint32_t block,
           uint32_t shared, void **args, char *err, size_t errsz) {
  const uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  return ptxrun_in(NULL, ptx, kernel, g, b, shared, args, err, errsz);
}

char *ptx_lanes_src(const char *regs, unsigned in_stride, unsigned out_stride,
                    const char *body) {
  static const char fmt[] =
      PTX_HEAD
      ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
      "{\n"
      "  .reg .b32 %%t;\n"
      "  .reg .b64 %%ip, %%op;\n"
      "%s\n"
      "  ld.param.u64 %%op, [pout];\n"
      "  ld.param.u64 %%ip, [pin];\n"
      "  cvta.to.global.u64 %%op, %%op;\n"
      "  cvta.to.global.u64 %%ip, %%ip;\n"
      "  mov.u32 %%t, %%tid.x;\n"
      "  mad.wide.u32 %%ip, %%t, %u, %%ip;\n"
      "  mad.wide.u32 %%op, %%t, %u, %%op;\n"
      "%s\n"
      "  ret;\n"
      "}\n";
  size_t n = sizeof fmt + strlen(regs) + strlen(body) + 64;
  char *s = malloc(n);
  if (!s) abort();
  snprintf(s, n, fmt, regs, in_stride, out_stride, body);
  return s;
}

int ptx_lanes(const char *src, uint32_t n, const void *in, size_t in_bytes,
              void *out, size_t out_bytes, char *err, size_t errsz) {
  void *din = dev_in(in, in_bytes);
  void *dout = dev_alloc(out_bytes, 0xCD);
  void *args[2] = {&dout, &din};
  int st;
  if (!din || !dout) {
    put_err(err, errsz, "ptxrun: device allocation failed");
    dev_free(din);
    dev_free(dout);
    return SMEMU_ERR_OUT_OF_MEMORY;
  }
  st = ptxrun(src, "k", 1, n, 0, args, err, errsz);
  if (st == SMEMU_OK && out_bytes &&
      smemu_memcpy(ptxrun_ctx(), out, dout, out_bytes) != SMEMU_OK)
    st = SMEMU_ERR_INVALID_VALUE;
  dev_free(din);
  dev_free(dout);
  return st;
}

int ptx_lanes_run(const char *regs, unsigned in_stride, unsigned out_stride,
                  const char *body, uint32_t n, const void *in, size_t in_bytes,
                  void *out, size_t out_bytes, char *err, size_t errsz) {
  char *src = ptx_lanes_src(regs, in_stride, out_stride, body);
  int st = ptx_lanes(src, n, in, in_bytes, out, out_bytes, err, errsz);
  free(src);
  return st;
}

int ptx_lanes3(const char *insn, int out_bits, uint32_t n, const uint64_t *in,
               uint64_t *out, char *err, size_t errsz) {
  static const char regs[] =
      "  .reg .b16 %a16, %b16, %c16, %d16, %e16, %f16, %g16;\n"
      "  .reg .b32 %a32, %b32, %c32, %d32, %e32, %f32, %g32;\n"
      "  .reg .b64 %a64, %b64, %c64, %d64, %e64, %f64, %g64;\n"
      "  .reg .b16 %h<8>;\n"
      "  .reg .b32 %r<16>;\n"
      "  .reg .b64 %rd<16>;\n"
      "  .reg .pred %p, %q, %pk, %pt<4>;\n";
  static const char fmt[] =
      "  ld.global.u16 %%a16, [%%ip];\n"
      "  ld.global.u16 %%b16, [%%ip+8];\n"
      "  ld.global.u16 %%c16, [%%ip+16];\n"
      "  ld.global.u32 %%a32, [%%ip];\n"
      "  ld.global.u32 %%b32, [%%ip+8];\n"
      "  ld.global.u32 %%c32, [%%ip+16];\n"
      "  ld.global.u64 %%a64, [%%ip];\n"
      "  ld.global.u64 %%b64, [%%ip+8];\n"
      "  ld.global.u64 %%c64, [%%ip+16];\n"
      "  mov.b%d %%d%d, 0;\n  mov.b%d %%e%d, 0;\n"
      "  mov.b%d %%f%d, 0;\n  mov.b%d %%g%d, 0;\n"
      "  %s\n"
      "  st.global.b%d [%%op], %%d%d;\n"
      "  st.global.b%d [%%op+8], %%e%d;\n"
      "  st.global.b%d [%%op+16], %%f%d;\n"
      "  st.global.b%d [%%op+24], %%g%d;\n";
  int b = out_bits, st;
  size_t len = sizeof fmt + strlen(insn) + 64;
  char *body = malloc(len);
  if (!body) abort();
  snprintf(body, len, fmt, b, b, b, b, b, b, b, b, insn, b, b, b, b, b, b, b, b);
  st = ptx_lanes_run(regs, 24, 32, body, n, in, (size_t)n * 24, out, (size_t)n * 32,
                     err, errsz);
  free(body);
  return st;
}

int hw_replay(const char *ptx_path, const char *kernel, uint32_t block, int in_first, const void *in, size_t in_bytes,
              const char *recording, size_t out_bytes, size_t elem, char *err, size_t errsz) {
  uint8_t *want = malloc(out_bytes);
  FILE *f = fopen(recording, "rb");
  int ok = want && f && fread(want, out_bytes, 1, f) == 1;
  if (f) fclose(f);
  if (!ok) {
    snprintf(err, errsz, "cannot read %zu bytes of %s", out_bytes, recording);
    free(want);
    return -1;
  }
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  void *din = NULL, *dout = NULL;
  int bad = -1;
  if (smemu_create(&o, &c) != SMEMU_OK || smemu_module_load_file(c, ptx_path, &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, kernel, &k) != SMEMU_OK || smemu_malloc(c, &din, in_bytes) != SMEMU_OK ||
      smemu_malloc(c, &dout, out_bytes) != SMEMU_OK) {
    snprintf(err, errsz, "%s", c ? smemu_errmsg(c) : "no context");
    goto out;
  }
  memcpy(din, in, in_bytes);
  memset(dout, 0x55, out_bytes);
  void *args[] = {in_first ? &din : &dout, in_first ? &dout : &din};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {block, 1, 1};
  if (smemu_launch(c, k, g, b, 0, args) != SMEMU_OK) {
    snprintf(err, errsz, "%s", smemu_errmsg(c));
    goto out;
  }
  bad = 0;
  for (size_t i = 0; i < out_bytes / elem; i++) {
    uint64_t got = 0, rec = 0;
    memcpy(&got, (uint8_t *)dout + i * elem, elem);
    memcpy(&rec, want + i * elem, elem);
    if (got != rec && bad++ < 8)
      fprintf(stderr, "%s element %zu: smemu %016llx, GPU %016llx\n", kernel, i, (unsigned long long)got,
              (unsigned long long)rec);
  }
out:
  free(want);
  smemu_destroy(c);
  return bad;
}
