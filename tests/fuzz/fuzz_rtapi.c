/* fuzz_rtapi.c: the libFuzzer target of the CUDA runtime drop-in's copy
 * and fill entry points (runtime/cudart/memory.c, memory3d.c, driver/driver.c). The
 * input is a list of calls: each picks an entry point, its pointers (a
 * device, pinned, managed or registered allocation, a __device__ variable,
 * host memory or NULL, plus a signed offset), sizes, pitches and a kind.
 * Whatever the runtime accepts it must do inside the allocations it
 * tracks: ASan catches a copy it let through out of range. Host sides the
 * runtime cannot check (pageable memory is the program's) are kept inside
 * a host buffer by the harness: a call whose host side would leave it is
 * skipped. A pointer outside every allocation is host memory to the
 * runtime too (as to CUDA): it is only used where the call needs device
 * memory, which the runtime must then refuse.
 * tests/fuzz/replay.c runs it over tests/fuzz/corpus_rtapi. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_reader.h"
#include "../../runtime/cuda_abi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind);
int cuInit(unsigned int flags);
int cuMemcpyHtoD_v2(uintptr_t dst, const void *src, size_t n);
int cuMemcpyDtoH_v2(void *dst, uintptr_t src, size_t n);
int cuMemcpy(uintptr_t dst, uintptr_t src, size_t n);
int cuMemsetD16_v2(uintptr_t p, unsigned short v, size_t n);
int cuMemsetD32_v2(uintptr_t p, unsigned int v, size_t n);

#define HOST_BYTES (1u << 20)
#define HOST_MID (HOST_BYTES / 2)

static uint8_t *host;       /* pageable: the harness keeps host sides in it */
static void *bases[6];      /* dev 64, dev 4096, pinned, managed, registered, symbol */
static size_t sizes[6];
static int ready;

/* A module with one 256-byte __device__ variable, registered as nvcc's
 * host code does. */
static char shadow_sym[256];
static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .b8 sym[256];\n"
    ".visible .entry k() { ret; }\n";

static void setup(void) {
  host = calloc(1, HOST_BYTES);
  static uint8_t fb[16 + 64 + 512];
  uint32_t u32;
  uint16_t u16;
  uint64_t u64, padded = (sizeof ptx + 7) / 8 * 8;
  u32 = 0xBA55ED50u, memcpy(fb, &u32, 4);
  u16 = 1, memcpy(fb + 4, &u16, 2);
  u16 = 16, memcpy(fb + 6, &u16, 2);
  u64 = 64 + padded, memcpy(fb + 8, &u64, 8);
  u16 = 1, memcpy(fb + 16, &u16, 2);
  u32 = 64, memcpy(fb + 20, &u32, 4);
  u64 = padded, memcpy(fb + 24, &u64, 8);
  u32 = 90, memcpy(fb + 44, &u32, 4);
  memcpy(fb + 80, ptx, sizeof ptx);
  static struct { int magic, version; const void *data; void *name; } wrap = {0x466243b1, 1, fb, NULL};
  void **h = __cudaRegisterFatBinary(&wrap);
  __cudaRegisterVar(h, shadow_sym, (char *)"sym", "sym", 0, 256, 0, 0);
  __cudaRegisterFatBinaryEnd(h);
  sizes[0] = 64, sizes[1] = 4096, sizes[2] = 100, sizes[3] = 256, sizes[4] = 300, sizes[5] = 256;
  if (cudaMalloc(&bases[0], sizes[0]) || cudaMalloc(&bases[1], sizes[1]) || cudaMallocHost(&bases[2], sizes[2]) ||
      cudaMallocManaged(&bases[3], sizes[3], cudaMemAttachGlobal))
    abort();
  /* registered: a range inside a larger host block, canaries around it */
  static uint8_t reg_block[4096];
  bases[4] = reg_block + 1024;
  if (cudaHostRegister(bases[4], sizes[4], 0) || cudaGetSymbolAddress(&bases[5], shadow_sym)) abort();
  cuInit(0);
  ready = 1;
}

/* A size: mostly small, sometimes huge (overflow checks). */
static size_t a_size(reader *r) { return take_size(r, 8, 12, 5000, 300); }

enum { P_TRACKED, P_HOST, P_STRAY, P_NULL };

/* A pointer: one of the bases plus an offset, host memory, or NULL; *cls
 * says which (P_STRAY: a base's offset fell outside its allocation). */
static uint8_t *a_ptr(reader *r, int *cls) {
  uint8_t sel = (uint8_t)take(r, 1) % 9;
  int16_t off = (int16_t)take(r, 2);
  if (sel == 8) {
    *cls = P_NULL;
    return NULL;
  }
  if (sel >= 6) {
    *cls = P_HOST;
    return host + HOST_MID + off;
  }
  int o = off % 512;
  *cls = o >= 0 && (size_t)o < sizes[sel] ? P_TRACKED : P_STRAY;
  return (uint8_t *)bases[sel] + o;
}

/* Whether the harness may pass [p, p+n) where the runtime may take it for
 * host memory (need_dev 0): inside the host buffer, or tracked. */
static int side_ok(const uint8_t *p, int cls, size_t n, int need_dev) {
  if (cls == P_STRAY) return need_dev;
  if (cls != P_HOST) return 1;
  size_t off = (size_t)(p - host);
  return off <= HOST_BYTES && n <= HOST_BYTES - off;
}
#define host_ok(p, cls, n) side_ok(p, cls, n, 0)
#define DEV_DST(k) ((k) == cudaMemcpyHostToDevice || (k) == cudaMemcpyDeviceToDevice)
#define DEV_SRC(k) ((k) == cudaMemcpyDeviceToHost || (k) == cudaMemcpyDeviceToDevice)

static size_t span2d(size_t pitch, size_t w, size_t h) {
  if (!w || !h) return 0;
  if (h > 1 && pitch > (SIZE_MAX - w) / (h - 1)) return SIZE_MAX;
  return pitch * (h - 1) + w;
}

static void one_call(reader *r) {
  int op = (int)(take(r, 1) % 16), hd, hs;
  uint8_t *dst = a_ptr(r, &hd), *src = a_ptr(r, &hs);
  size_t n = a_size(r), w = a_size(r) % 600, h = take(r, 1) % 8, pitch = a_size(r);
  int kind = (int)(take(r, 1) % 6);
  cudaStream_t st = NULL;
  switch (op) {
  case 0: case 1:
    if (side_ok(dst, hd, n, DEV_DST(kind)) && side_ok(src, hs, n, DEV_SRC(kind)))
      op ? cudaMemcpyAsync(dst, src, n, (enum cudaMemcpyKind)kind, st) : cudaMemcpy(dst, src, n, (enum cudaMemcpyKind)kind);
    break;
  case 2: case 3: {
    size_t sp = take(r, 1) & 1 ? pitch : w, sp2 = span2d(sp, w, h), dp2 = span2d(pitch, w, h);
    if (side_ok(dst, hd, dp2, DEV_DST(kind)) && side_ok(src, hs, sp2, DEV_SRC(kind)))
      op == 2 ? cudaMemcpy2D(dst, pitch, src, sp, w, h, (enum cudaMemcpyKind)kind)
              : cudaMemcpy2DAsync(dst, pitch, src, sp, w, h, (enum cudaMemcpyKind)kind, st);
    break;
  }
  case 4: case 5:
    if (side_ok(dst, hd, n, 1)) op == 4 ? cudaMemset(dst, 7, n) : cudaMemsetAsync(dst, 7, n, st);
    break;
  case 6:
    if (side_ok(dst, hd, span2d(pitch, w, h), 1)) cudaMemset2D(dst, pitch, 7, w, h);
    break;
  case 7: case 8: {
    /* pitched regions; host sides only with a small pitch and extent */
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    size_t d = take(r, 1) % 4, ys = take(r, 1) % 8;
    p.srcPtr = (struct cudaPitchedPtr){src, pitch, w, ys};
    p.dstPtr = (struct cudaPitchedPtr){dst, pitch, w, ys};
    p.srcPos = (struct cudaPos){take(r, 1), take(r, 1) % 4, take(r, 1) % 4};
    p.extent = (struct cudaExtent){w, h, d};
    p.kind = (enum cudaMemcpyKind)kind;
    if ((hd == P_HOST || hs == P_HOST) && pitch > 1024) break;
    if ((hd == P_STRAY && !DEV_DST(kind)) || (hs == P_STRAY && !DEV_SRC(kind))) break;
    if (op == 7) cudaMemcpy3D(&p);
    else if (hd != P_HOST) cudaMemset3D(p.dstPtr, 1, p.extent);
    break;
  }
  case 9:
    if (side_ok(src, hs, n, kind == cudaMemcpyDeviceToDevice)) cudaMemcpyToSymbol(shadow_sym, src, n, take(r, 2) % 300, (enum cudaMemcpyKind)kind);
    break;
  case 10:
    if (side_ok(dst, hd, n, kind == cudaMemcpyDeviceToDevice)) cudaMemcpyFromSymbol(dst, shadow_sym, n, take(r, 2) % 300, (enum cudaMemcpyKind)kind);
    break;
  case 11:
    cudaMemcpyPeer(dst, 0, src, 0, n);
    break;
  case 12:
    if (side_ok(dst, hd, n, 1) && host_ok(src, hs, n)) cuMemcpyHtoD_v2((uintptr_t)dst, src, n);
    break;
  case 13:
    if (host_ok(dst, hd, n) && side_ok(src, hs, n, 1)) cuMemcpyDtoH_v2(dst, (uintptr_t)src, n);
    break;
  case 14:
    if (host_ok(dst, hd, n) && host_ok(src, hs, n)) cuMemcpy((uintptr_t)dst, (uintptr_t)src, n);
    break;
  default:
    if (side_ok(dst, hd, n, 1)) (n & 1) ? cuMemsetD16_v2((uintptr_t)dst, 3, n / 2) : cuMemsetD32_v2((uintptr_t)dst, 3, n / 4);
    break;
  }
  cudaGetLastError();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) setup();
  reader r = {data, size};
  for (int i = 0; i < 64 && r.n; i++) one_call(&r);
  return 0;
}
