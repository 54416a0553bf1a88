/* ptxrun.h: small helpers for the unit tests: a shared one-worker context,
 * device buffers in it, and one-call "load this PTX, launch this kernel"
 * runners that return an smemu_status and leave the message in err. */
#ifndef PTXRUN_H
#define PTXRUN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smemu.h"

/* The header every test module starts with. */
#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* The context shared by the helpers (created on first use, 1 worker thread,
 * destroyed at exit). */
smemu_ctx *ptxrun_ctx(void);

/* Device buffers in ptxrun_ctx(): dev_alloc fills with `fill` bytes; dev_in
 * allocates and copies `bytes` from host memory. Abort the test on failure
 * (they return NULL). */
void *dev_alloc(size_t bytes, int fill);
void *dev_in(const void *src, size_t bytes);
void dev_free(void *p);

/* Loads `ptx` (named "test.ptx" in messages) into ctx (ptxrun_ctx() when
 * NULL) and launches `kernel` on grid x block with `shared` dynamic bytes.
 * The module is unloaded afterwards. */
int ptxrun_in(smemu_ctx *ctx, const char *ptx, const char *kernel,
              const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
              void **args, char *err, size_t errsz);
/* Replays a GPU recording: loads the PTX file, launches `kernel` on one
 * block of `block` threads with (out, in) as its arguments ((in, out) when
 * in_first), `in` holding
 * in_bytes copied from host memory and `out` out_bytes (filled with 0x55
 * first), and compares out with the recorded file, element by element of
 * `elem` bytes. Returns the number of differing elements (printing the
 * first ones), or -1 with err set when the file or the launch fails. */
int hw_replay(const char *ptx_path, const char *kernel, uint32_t block, int in_first, const void *in, size_t in_bytes,
              const char *recording, size_t out_bytes, size_t elem, char *err, size_t errsz);

/* The same on ptxrun_ctx() with 1-D grid and block. */
int ptxrun(const char *ptx, const char *kernel, uint32_t grid, uint32_t block,
           uint32_t shared, void **args, char *err, size_t errsz);

/* Lane kernels: a module with one kernel `k(.param .u64 pout, .param .u64 pin)`
 * and a fixed prologue that declares %t (= %tid.x, .b32), %ip (= in +
 * %t * in_stride) and %op (= out + %t * out_stride) as global addresses
 * (.b64), followed by `regs` (declarations) and `body`. ptx_lanes_src
 * returns a malloc'd string. */
char *ptx_lanes_src(const char *regs, unsigned in_stride, unsigned out_stride,
                    const char *body);
/* Runs such a kernel on one block of n threads: `in` (in_bytes) is copied to
 * the device, the device output (out_bytes, pre-filled with 0xCD bytes) is
 * copied back to `out`. */
int ptx_lanes(const char *src, uint32_t n, const void *in, size_t in_bytes,
              void *out, size_t out_bytes, char *err, size_t errsz);
/* ptx_lanes_src + ptx_lanes in one call. */
int ptx_lanes_run(const char *regs, unsigned in_stride, unsigned out_stride,
                  const char *body, uint32_t n, const void *in, size_t in_bytes,
                  void *out, size_t out_bytes, char *err, size_t errsz);

/* The three-input lane harness: one lane per vector. Lane i reads the 64-bit
 * slots in[3i], in[3i+1], in[3i+2] into %a16/%a32/%a64, %b16.. and %c16..
 * (the low 16, 32 and 64 bits, as .b16/.b32/.b64 registers); `insn` computes
 * up to four results %dN, %eN, %fN, %gN (N = out_bits, pre-set to 0) that are
 * stored to out[4i .. 4i+3] (the bytes above N bits keep 0xCD). Scratch
 * registers: %h<8> (.b16), %r<16> (.b32), %rd<16> (.b64) and the predicates
 * %p, %q, %pk, %pt<4>. */
int ptx_lanes3(const char *insn, int out_bits, uint32_t n, const uint64_t *in,
               uint64_t *out, char *err, size_t errsz);

/* Bit casts. */
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* For files that include cmocka: fail the test with the emulator's message
 * when a runner did not return SMEMU_OK. */
#define PTX_OK(call, err)                                                    \
  do {                                                                       \
    int st_ = (call);                                                        \
    if (st_ != SMEMU_OK)                                                     \
      fail_msg("%s failed: %s: %s", #call,                                   \
               smemu_status_name((smemu_status)st_), (err));                 \
  } while (0)

#endif
