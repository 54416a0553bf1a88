/* test_ginit.c: the global-memory initialisation check (SMEMU_ANALYZE_INIT,
 * src/check/ginit.c) through smemu.h: which bytes count as written (fills,
 * copies from the host, device-to-device copies carrying the source's
 * state, kernel stores and atomics, byte by byte), the records of reads of
 * unwritten bytes (thread, block, address, size, line; one per thread and
 * access, in block and thread order with several workers), the per-line
 * report and JSON, and the fault records memcheck's report is built from.
 * Expected values are arithmetic on the kernels below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

/* Load ptx into c (kept loaded: the records name its lines) and launch
 * kernel; the status, with the message in err. */
static int launch_in(smemu_ctx *c, const char *ptx, const char *kernel, const uint32_t g[3], const uint32_t b[3],
                     void **args, char *err, size_t n) {
  smemu_module *m;
  smemu_kernel *k;
  int s = smemu_module_load_data(c, ptx, strlen(ptx), "test.ptx", &m);
  if (!s) s = smemu_module_get_kernel(m, kernel, &k);
  if (!s) s = smemu_launch(c, k, g, b, 0, args);
  snprintf(err, n, "%s", smemu_errmsg(c));
  return s;
}

static smemu_ctx *new_ctx(int threads) {
  smemu_options o = {0};
  o.threads = threads;
  o.analyses = SMEMU_ANALYZE_INIT;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  return c;
}

/* out[i] = in[i] (u32), i = ctaid.x * ntid.x + tid.x; the load is on line 20 of "k.cu". */
static const char copy_ptx[] = PTX_HEAD
    ".file 1 \"k.cu\"\n"
    ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  ld.param.u64 %rd2, [pin];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  add.s64 %rd5, %rd1, %rd3;\n"
    "  .loc 1 20 3\n"
    "  ld.global.u32 %r5, [%rd4];\n"
    "  .loc 1 21 3\n"
    "  st.global.u32 [%rd5], %r5;\n"
    "  ret;\n"
    "}\n";

static int run_copy(smemu_ctx *c, void *out, void *in, uint32_t grid, uint32_t block) {
  char err[1024];
  void *args[] = {&out, &in};
  const uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  int s = launch_in(c, copy_ptx, "k", g, b, args, err, sizeof err);
  if (s) fail_msg("launch: %s", err);
  return s;
}

/* More unwritten reads than the records kept: 96 blocks of 128 threads
 * copy 12288 words of which the first 1024 were set, so 11264 reads count
 * and the first 4096 of them (in block, thread order: words 1024..5119)
 * are kept, on one worker or two. */
static void test_past_kept(void **state) {
  (void)state;
  for (int workers = 1; workers <= 2; workers++) {
    smemu_ctx *c = new_ctx(workers);
    void *in, *out;
    assert_int_equal(smemu_malloc(c, &in, 4 * 12288), SMEMU_OK);
    assert_int_equal(smemu_malloc(c, &out, 4 * 12288), SMEMU_OK);
    assert_int_equal(smemu_memset(c, in, 0, 4 * 1024), SMEMU_OK);
    run_copy(c, out, in, 96, 128);
    assert_int_equal(smemu_uninit_total(c), 11264);
    assert_int_equal(smemu_uninit_count(c), 4096);
    for (int i = 0; i < 4096; i += 4095) {
      smemu_uninit_read r;
      assert_int_equal(smemu_uninit_get(c, i, &r), SMEMU_OK);
      assert_int_equal(r.block[0], (1024 + i) / 128);
      assert_int_equal(r.thread[0], (1024 + i) % 128);
      assert_int_equal(r.address, (uint64_t)(uintptr_t)in + 4 * (1024 + (uint64_t)i));
    }
    smemu_destroy(c);
  }
}

/* Half-warps reading 16 consecutive words are settled by whole bytes of
 * the bitmap when all or none of their bytes are written (ginit.c); a run
 * with some written goes lane by lane. 22 bytes set: words 0..4 and half
 * of word 5 are written, so threads 5..31 of one warp read unwritten bytes
 * (27 records, thread 5's 4-byte read counts though 2 bytes were set). */
static void test_partial_run(void **state) {
  (void)state;
  smemu_ctx *c = new_ctx(1);
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 128), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 128), SMEMU_OK);
  assert_int_equal(smemu_memset(c, in, 0, 22), SMEMU_OK);
  run_copy(c, out, in, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 27);
  assert_int_equal(smemu_uninit_count(c), 27);
  for (int i = 0; i < 27; i++) {
    smemu_uninit_read r;
    assert_int_equal(smemu_uninit_get(c, i, &r), SMEMU_OK);
    assert_int_equal(r.thread[0], 5 + i);
    assert_int_equal(r.address, (uint64_t)(uintptr_t)in + 4 * (5 + (uint64_t)i));
  }
  smemu_destroy(c);
}

/* Past the records kept, runs are counted: 300 blocks of 32 threads copy
 * 9600 words of which every 16th from word 7 on (7, 23, ...) was set, so
 * every half-warp's run is partly written: 9000 reads count, and the
 * 4096th (15 per run, 4095 in runs 0..272: run 273's first, word
 * 273 * 16 = 4368) is thread 16 of block 136. */
static void test_partial_runs_past_kept(void **state) {
  (void)state;
  smemu_ctx *c = new_ctx(1);
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 4 * 9600), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 4 * 9600), SMEMU_OK);
  for (int j = 0; j < 600; j++) assert_int_equal(smemu_memset(c, (char *)in + 4 * (16 * j + 7), 1, 4), SMEMU_OK);
  run_copy(c, out, in, 300, 32);
  assert_int_equal(smemu_uninit_total(c), 9000);
  assert_int_equal(smemu_uninit_count(c), 4096);
  smemu_uninit_read r;
  assert_int_equal(smemu_uninit_get(c, 4095, &r), SMEMU_OK);
  assert_int_equal(r.block[0], 136);
  assert_int_equal(r.thread[0], 16);
  assert_int_equal(r.address, (uint64_t)(uintptr_t)in + 4 * 4368);
  smemu_destroy(c);
}

/* A memset of half the buffer: threads 16..31 read unwritten words. */
static void test_memset_half(void **state) {
  (void)state;
  smemu_ctx *c = new_ctx(1);
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 128), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 128), SMEMU_OK);
  assert_int_equal(smemu_memset(c, in, 0, 64), SMEMU_OK);
  run_copy(c, out, in, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 16);
  assert_int_equal(smemu_uninit_count(c), 16);
  for (int i = 0; i < 16; i++) {
    smemu_uninit_read r;
    assert_int_equal(smemu_uninit_get(c, i, &r), SMEMU_OK);
    assert_int_equal(r.thread[0], 16 + i);
    assert_int_equal(r.block[0], 0);
    assert_int_equal(r.size, 4);
    assert_int_equal(r.address, (uint64_t)(uintptr_t)in + 64 + 4 * (uint64_t)i);
    assert_int_equal(r.line, 20);
    assert_string_equal(r.file, "k.cu");
  }
  smemu_uninit_read r;
  assert_int_not_equal(smemu_uninit_get(c, 16, &r), SMEMU_OK);
  /* the kernel's stores wrote out: copying it back in makes in written */
  assert_int_equal(smemu_memcpy(c, in, out, 128), SMEMU_OK);
  run_copy(c, out, in, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 0);
  smemu_destroy(c);
}

/* Copies write their destination, from the host or from device memory
 * (whatever the source held: compute-sanitizer reports the source instead,
 * per 32-byte sector). A fresh allocation is unwritten again. */
static void test_copies(void **state) {
  (void)state;
  smemu_ctx *c = new_ctx(1);
  void *a, *b, *out;
  uint32_t host[32] = {0};
  assert_int_equal(smemu_malloc(c, &a, 128), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &b, 128), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 128), SMEMU_OK);
  assert_int_equal(smemu_memcpy(c, a, host, 40), SMEMU_OK); /* words 0..9 */
  uint64_t sec[8];
  /* unwritten bytes 40..127: sectors 32..63 (from 40), 64..95, 96..127 */
  assert_int_equal(smemu_mem_unwritten_sectors(c, a, 128, sec, 8), 3);
  assert_int_equal(sec[0], (uint64_t)(uintptr_t)a + 40);
  assert_int_equal(sec[1], (uint64_t)(uintptr_t)a + 64);
  assert_int_equal(sec[2], (uint64_t)(uintptr_t)a + 96);
  assert_int_equal(smemu_mem_unwritten_sectors(c, (char *)a + 100, 8, sec, 8), 1);
  assert_int_equal(sec[0], (uint64_t)(uintptr_t)a + 100);
  assert_int_equal(smemu_mem_unwritten_sectors(c, a, 40, sec, 8), 0);
  run_copy(c, out, a, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 22);
  smemu_uninit_read r;
  assert_int_equal(smemu_uninit_get(c, 0, &r), SMEMU_OK);
  assert_int_equal(r.thread[0], 10);
  assert_int_equal(smemu_memcpy(c, b, a, 128), SMEMU_OK);
  run_copy(c, out, b, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 0);
  /* freed and allocated again: unwritten */
  assert_int_equal(smemu_free(c, b), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &b, 128), SMEMU_OK);
  run_copy(c, out, b, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 32);
  /* set_written by hand, and back */
  assert_int_equal(smemu_mem_set_written(c, b, 128, 1), SMEMU_OK);
  run_copy(c, out, b, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 0);
  assert_int_equal(smemu_mem_set_written(c, b, 8, 0), SMEMU_OK);
  run_copy(c, out, b, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 2);
  smemu_destroy(c);
}

/* Kernel byte stores, then int, short and float4 loads of partly written
 * words; an atomic on an unwritten word is a read of it and writes it. */
static void test_kernel_bytes(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".visible .entry w(.param .u64 pp)\n"
      "{\n"
      "  .reg .b16 %h<2>;\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pp];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  cvt.u64.u32 %rd2, %r1;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  cvt.u16.u32 %h1, %r1;\n"
      "  st.global.u8 [%rd3], %h1;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry r4(.param .u64 pp, .param .u64 po)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd1, [pp];\n"
      "  ld.param.u64 %rd4, [po];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd2, %r1, 4;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  ld.u32 %r2, [%rd3];\n" /* generic */
      "  st.global.u32 [%rd4], %r2;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry r16(.param .u64 pp, .param .u64 po)\n"
      "{\n"
      "  .reg .f32 %f<5>;\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd1, [pp];\n"
      "  ld.param.u64 %rd4, [po];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd2, %r1, 16;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n"
      "  st.global.f32 [%rd4], %f1;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry at(.param .u64 pp)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pp];\n"
      "  atom.global.add.u32 %r1, [%rd1+32], 1;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *c = new_ctx(1);
  void *p, *o;
  char err[1024];
  assert_int_equal(smemu_malloc(c, &p, 64), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &o, 64), SMEMU_OK);
  smemu_mem_set_written(c, o, 64, 1);
  void *a1[] = {&p}, *a2[] = {&p, &o};
  const uint32_t g[3] = {1, 1, 1}, b6[3] = {6, 1, 1}, b4[3] = {4, 1, 1}, b1[3] = {1, 1, 1}, b32[3] = {32, 1, 1};
  PTX_OK(launch_in(c, ptx, "w", g, b6, a1, err, sizeof err), err); /* bytes 0..5 */
  assert_int_equal(smemu_uninit_total(c), 0);
  PTX_OK(launch_in(c, ptx, "r4", g, b4, a2, err, sizeof err), err);
  assert_int_equal(smemu_uninit_total(c), 3); /* int 1 half written, 2 and 3 not */
  smemu_uninit_read r;
  assert_int_equal(smemu_uninit_get(c, 0, &r), SMEMU_OK);
  assert_int_equal(r.thread[0], 1);
  assert_int_equal(r.size, 4);
  PTX_OK(launch_in(c, ptx, "r16", g, b4, a2, err, sizeof err), err);
  assert_int_equal(smemu_uninit_total(c), 4); /* every float4: only bytes 0..5 are written */
  assert_int_equal(smemu_uninit_get(c, 0, &r), SMEMU_OK);
  assert_int_equal(r.size, 16);
  assert_int_equal(r.address, (uint64_t)(uintptr_t)p);
  /* 32 lanes add to one unwritten word: all read it unwritten (the GPU's
   * initcheck reports each), then it is written */
  PTX_OK(launch_in(c, ptx, "at", g, b32, a1, err, sizeof err), err);
  assert_int_equal(smemu_uninit_total(c), 32);
  PTX_OK(launch_in(c, ptx, "at", g, b1, a1, err, sizeof err), err);
  assert_int_equal(smemu_uninit_total(c), 0);
  smemu_destroy(c);
}

/* Several workers, 8 blocks of 64: every read is recorded and the kept
 * records come in block, thread order; the report and JSON aggregate them. */
static void test_workers_and_report(void **state) {
  (void)state;
  smemu_ctx *c = new_ctx(4);
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 2048), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 2048), SMEMU_OK);
  assert_int_equal(smemu_memset(c, in, 1, 1024), SMEMU_OK); /* blocks 0..3 */
  run_copy(c, out, in, 8, 64);
  assert_int_equal(smemu_uninit_total(c), 256);
  assert_int_equal(smemu_uninit_count(c), 256);
  for (int i = 0; i < 256; i++) {
    smemu_uninit_read r;
    assert_int_equal(smemu_uninit_get(c, i, &r), SMEMU_OK);
    assert_int_equal(r.block[0], 4 + i / 64);
    assert_int_equal(r.thread[0], i % 64);
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_int_equal(smemu_write_uninit_report(c, f), 1);
  assert_int_equal(smemu_write_uninit_json(c, f), 1);
  fclose(f);
  assert_non_null(strstr(buf, "Uninitialized __global__ memory read of size 4 bytes"));
  assert_non_null(strstr(buf, "k.cu:20 by thread (0,0,0) in block (4,0,0)"));
  assert_non_null(strstr(buf, "[256 reads]"));
  assert_non_null(strstr(buf, "\"line\": 20, \"ptx_line\""));
  assert_non_null(strstr(buf, "\"count\": 256, \"size\": 4"));
  free(buf);
  smemu_destroy(c);
}

/* Without the check nothing is recorded; module variables are never
 * unwritten. */
static void test_off_and_variables(void **state) {
  (void)state;
  smemu_options o = {0};
  o.threads = 1;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 128), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 128), SMEMU_OK);
  run_copy(c, out, in, 1, 32);
  assert_int_equal(smemu_uninit_total(c), 0);
  smemu_destroy(c);
  static const char ptx[] = PTX_HEAD
      ".global .align 4 .b8 gv[128];\n"
      ".visible .entry k(.param .u64 po)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd4, [po];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd2, %r1, 4;\n"
      "  mov.u64 %rd1, gv;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  ld.global.u32 %r2, [%rd3];\n"
      "  add.s64 %rd5, %rd4, %rd2;\n"
      "  st.global.u32 [%rd5], %r2;\n"
      "  ret;\n"
      "}\n";
  c = new_ctx(1);
  assert_int_equal(smemu_malloc(c, &out, 128), SMEMU_OK);
  char err[1024];
  void *args[] = {&out};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  PTX_OK(launch_in(c, ptx, "k", g, b, args, err, sizeof err), err);
  assert_int_equal(smemu_uninit_total(c), 0);
  smemu_destroy(c);
}

/* The fault record: a misaligned store and an overrun, with their thread,
 * block, address, size and nearest allocation. */
static void test_fault_records(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".file 1 \"f.cu\"\n"
      ".visible .entry k(.param .u64 pp, .param .u64 poff)\n"
      "{\n"
      "  .reg .pred %p;\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd1, [pp];\n"
      "  ld.param.u64 %rd2, [poff];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.ne.u32 %p, %r1, 7;\n"
      "  @%p ret;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  .loc 1 9 5\n"
      "  st.global.u32 [%rd3], %r1;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *c = new_ctx(1);
  void *p;
  assert_int_equal(smemu_malloc(c, &p, 128), SMEMU_OK);
  char err[1024];
  smemu_fault ft;
  const uint32_t g[3] = {2, 1, 1}, b[3] = {32, 1, 1};
  uint64_t off = 2;
  void *args[] = {&p, &off};
  assert_int_equal(launch_in(c, ptx, "k", g, b, args, err, sizeof err), SMEMU_ERR_MISALIGNED);
  assert_int_equal(smemu_last_fault(c, &ft), SMEMU_OK);
  assert_int_equal(ft.status, SMEMU_ERR_MISALIGNED);
  assert_true(ft.access && ft.write && ft.misaligned && ft.has_thread);
  assert_int_equal(ft.thread[0], 7);
  assert_int_equal(ft.size, 4);
  assert_int_equal(ft.address, (uint64_t)(uintptr_t)p + 2);
  assert_int_equal(ft.line, 9);
  assert_string_equal(ft.space, "global");
  off = 128;
  assert_int_equal(launch_in(c, ptx, "k", g, b, args, err, sizeof err), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_int_equal(smemu_last_fault(c, &ft), SMEMU_OK);
  assert_false(ft.misaligned);
  assert_int_equal(ft.address, (uint64_t)(uintptr_t)p + 128);
  assert_int_equal(ft.near_base, (uint64_t)(uintptr_t)p);
  assert_int_equal(ft.near_size, 128);
  off = 0;
  PTX_OK(launch_in(c, ptx, "k", g, b, args, err, sizeof err), err);
  assert_int_equal(smemu_last_fault(c, &ft), SMEMU_ERR_NOT_FOUND);
  smemu_destroy(c);
}

/* SMEMU_ANALYZE_MEMCHECK: every lane that makes a bad address is recorded
 * and ends; the others go on, past a barrier (64 threads read in[t + 40]
 * of 64 words, as tests/hw/sanitizer/mem_oob_many.cu: threads 24..63). */
static void test_memcheck_all_lanes(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 po, .param .u64 pi)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  ld.param.u64 %rd1, [po];\n"
      "  ld.param.u64 %rd2, [pi];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd3, %r1, 4;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  ld.global.u32 %r2, [%rd4+160];\n"
      "  bar.sync 0;\n"
      "  add.s64 %rd5, %rd1, %rd3;\n"
      "  st.global.u32 [%rd5], %r2;\n"
      "  ret;\n"
      "}\n";
  smemu_options o = {0};
  o.threads = 2;
  o.analyses = SMEMU_ANALYZE_MEMCHECK;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  uint32_t host[64], got[64];
  for (int i = 0; i < 64; i++) host[i] = 1000u + (uint32_t)i;
  void *in, *out;
  assert_int_equal(smemu_malloc(c, &in, 256), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, &out, 256), SMEMU_OK);
  assert_int_equal(smemu_memcpy(c, in, host, 256), SMEMU_OK);
  assert_int_equal(smemu_memset(c, out, 0, 256), SMEMU_OK);
  char err[1024];
  void *args[] = {&out, &in};
  const uint32_t g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
  assert_int_equal(launch_in(c, ptx, "k", g, b, args, err, sizeof err), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_int_equal(smemu_fault_total(c), 80);
  assert_int_equal(smemu_fault_count(c), 80);
  for (int i = 0; i < 80; i++) {
    smemu_fault f;
    assert_int_equal(smemu_fault_get(c, i, &f), SMEMU_OK);
    assert_int_equal(f.block[0], i / 40);
    assert_int_equal(f.thread[0], 24 + i % 40);
    assert_int_equal(f.address, (uint64_t)(uintptr_t)in + 4 * (24 + (uint64_t)(i % 40)) + 160);
    assert_int_equal(f.size, 4);
    assert_true(f.access && !f.write && !f.misaligned);
  }
  /* the lanes that read in bounds stored what they read */
  assert_int_equal(smemu_memcpy(c, got, out, 256), SMEMU_OK);
  for (int t = 0; t < 24; t++) assert_int_equal(got[t], 1000u + (uint32_t)t + 40);
  for (int t = 24; t < 64; t++) assert_int_equal(got[t], 0);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_memset_half),        cmocka_unit_test(test_copies),
      cmocka_unit_test(test_kernel_bytes),       cmocka_unit_test(test_workers_and_report),
      cmocka_unit_test(test_off_and_variables),  cmocka_unit_test(test_fault_records),
      cmocka_unit_test(test_memcheck_all_lanes), cmocka_unit_test(test_past_kept), cmocka_unit_test(test_partial_run),
      cmocka_unit_test(test_partial_runs_past_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
