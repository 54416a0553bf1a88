/* fuzz_rtnew.c: the libFuzzer target of the runtime's smaller API areas
 * (runtime/cudart/stream.c's attributes, launch_attr.c, library.c,
 * userobj.c, log.c, peer.c, memcpy_batch.c, memory3d.c's cudaMalloc3D,
 * driver/memory.c's 2D fills, driver/vmm.c, the generated stubs). The input is a list of
 * calls, each with fuzzed handles (live, stale, forged or NULL), attribute
 * ids and values, counts, sizes, strings and buffer lengths. Every call
 * must return an error code and leave the runtime usable: no crash, no
 * hang, nothing written outside what the call was given (ASan, in the
 * libFuzzer build). Pointers the runtime cannot check (the program's host
 * memory) stay inside the harness's buffers. tests/fuzz/replay.c runs it
 * over tests/fuzz/corpus_rtnew. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../runtime/cuda_abi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                 size_t count, void *attrs, size_t *attrsIdxs, size_t numAttrs,
                                 cudaStream_t stream);
int cuMemsetD2D32_v2(uintptr_t p, size_t pitch, unsigned v, size_t w, size_t h);
int cuMemsetD2D16_v2(uintptr_t p, size_t pitch, unsigned short v, size_t w, size_t h);
int cuInit(unsigned flags);
int cuMemCreate(unsigned long long *h, size_t size, const void *prop, unsigned long long flags);
int cuMemRelease(unsigned long long h);
int cuMemAddressReserve(unsigned long long *p, size_t size, size_t align, unsigned long long addr,
                        unsigned long long flags);
int cuMemAddressFree(unsigned long long p, size_t size);
int cuMemMap(unsigned long long p, size_t size, size_t offset, unsigned long long h, unsigned long long flags);
int cuMemUnmap(unsigned long long p, size_t size);
int cuMemSetAccess(unsigned long long p, size_t size, const void *desc, size_t count);
/* a stub of runtime/entries.def, called with harmless arguments */
cudaError_t cudaSignalExternalSemaphoresAsync(const void *sems, const void *params, unsigned n,
                                              cudaStream_t s);

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".global .align 4 .u32 g = 3;\n"
                          ".visible .entry k(.param .u64 p, .param .u32 n) {\n"
                          "  .reg .u64 %a; .reg .u32 %v;\n"
                          "  ld.param.u64 %a, [p]; cvta.to.global.u64 %a, %a;\n"
                          "  ld.param.u32 %v, [n]; st.global.u32 [%a], %v; ret; }\n";

enum { HOST_BYTES = 1 << 16 };
static uint8_t *host;
static void *dev; /* 4096 bytes of device memory */
static cudaStream_t streams[2];
static cudaLibrary_t libs[2];
static cudaUserObject_t objs[4];
static unsigned long long vhandles[4], vbase[4];
static int ready;

static void noop(void *p) { (void)p; }

static void setup(void) {
  host = calloc(1, HOST_BYTES);
  if (!host || cudaMalloc(&dev, 4096) || cudaStreamCreate(&streams[0]) || cudaStreamCreate(&streams[1]))
    abort();
  if (cudaLibraryLoadData(&libs[0], ptx, NULL, NULL, 0, NULL, NULL, 0)) abort();
  cuInit(0);
  ready = 1;
}

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static uint64_t take(reader *r, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint64_t)(r->n ? (r->n--, *r->p++) : 0) << (8 * i);
  return v;
}

/* A stream: a live one, the default, legacy, per-thread, or forged. */
static cudaStream_t a_stream(reader *r) {
  switch (take(r, 1) % 6) {
  case 0:
    return streams[0];
  case 1:
    return streams[1];
  case 2:
    return 0;
  case 3:
    return cudaStreamLegacy;
  case 4:
    return cudaStreamPerThread;
  default:
    return (cudaStream_t)(uintptr_t)(take(r, 2) | 0x10000);
  }
}

/* A library: the loaded one, one unloaded by the input, or forged. */
static cudaLibrary_t a_lib(reader *r) {
  uint8_t s = (uint8_t)take(r, 1) % 4;
  return s < 2 ? libs[s] : s == 2 ? NULL : (cudaLibrary_t)(uintptr_t)(take(r, 2) | 0x10000);
}

/* A NUL-terminated string of up to 15 fuzzed bytes, or a known name. */
static const char *a_name(reader *r, char *buf) {
  uint8_t s = (uint8_t)take(r, 1);
  if (s % 4 == 0) return "k";
  if (s % 4 == 1) return "g";
  size_t n = take(r, 1) % 16;
  for (size_t i = 0; i < n; i++) buf[i] = (char)take(r, 1);
  buf[n] = 0;
  return buf;
}

static void one_call(reader *r) {
  int op = (int)(take(r, 1) % 15);
  unsigned char val[64];
  char name[16];
  switch (op) {
  case 0: { /* stream attributes: any id, any value */
    int id = (int)(int8_t)take(r, 1);
    for (int i = 0; i < 64; i++) val[i] = (unsigned char)take(r, 1);
    cudaStream_t s = a_stream(r);
    if (take(r, 1) & 1)
      cudaStreamSetAttribute(s, id, val);
    else
      cudaStreamGetAttribute(s, id, take(r, 1) & 1 ? val : NULL);
    cudaStreamCopyAttributes(a_stream(r), a_stream(r));
    unsigned long long sid;
    cudaStreamGetId(a_stream(r), &sid);
    break;
  }
  case 1: { /* a launch with fuzzed attributes (events: live or forged) */
    struct {
      int id;
      char pad[4];
      unsigned char v[64];
    } attrs[3];
    cudaEvent_t ev = NULL;
    cudaEventCreate(&ev);
    unsigned n = (unsigned)take(r, 1) % 4;
    for (unsigned i = 0; i < 3; i++) {
      attrs[i].id = (int)(int8_t)take(r, 1);
      for (int j = 0; j < 64; j++) attrs[i].v[j] = (unsigned char)take(r, 1);
      if (take(r, 1) & 1) memcpy(attrs[i].v, &ev, sizeof ev);
    }
    cudaKernel_t k = NULL;
    if (libs[0] && !cudaLibraryGetKernel(&k, libs[0], "k")) {
      void *p = dev;
      unsigned v = 1;
      void *args[] = {&p, &v};
      cudaLaunchConfig_t cfg = {{1 + (unsigned)take(r, 1) % 3, 1, 1},
                                {1 + (unsigned)take(r, 1) % 64, 1, 1},
                                0,
                                a_stream(r),
                                (cudaLaunchAttribute *)attrs,
                                n};
      cudaLaunchKernelExC(&cfg, (const void *)k, args);
      size_t off, sz;
      cudaFuncGetParamInfo((const void *)k, take(r, 1), &off, &sz);
    }
    cudaDeviceSynchronize();
    cudaEventDestroy(ev);
    break;
  }
  case 2: { /* libraries: names, globals, enumeration */
    cudaLibrary_t l = a_lib(r);
    cudaKernel_t k = NULL, ks[4];
    void *p;
    size_t n;
    unsigned c;
    cudaLibraryGetKernel(&k, l, a_name(r, name));
    cudaLibraryGetGlobal(&p, &n, l, a_name(r, name));
    cudaLibraryGetManaged(&p, &n, l, a_name(r, name));
    cudaLibraryGetKernelCount(&c, l);
    cudaLibraryEnumerateKernels(ks, (unsigned)take(r, 1) % 5, l);
    break;
  }
  case 3: /* load and unload the second library */
    if (take(r, 1) & 1) {
      if (!libs[1]) cudaLibraryLoadData(&libs[1], ptx, NULL, NULL, 0, NULL, NULL, 0);
    } else {
      cudaLibraryUnload(libs[1]);
      cudaLibraryUnload(libs[1]); /* twice: the second is refused */
      libs[1] = NULL;
    }
    break;
  case 4: { /* user objects, with counts that overflow or exceed */
    int i = (int)take(r, 1) % 4;
    unsigned count = (unsigned)take(r, 4);
    switch (take(r, 1) % 3) {
    case 0:
      cudaUserObjectCreate(&objs[i], NULL, noop, count % 3, (unsigned)take(r, 1) % 3);
      break;
    case 1:
      cudaUserObjectRetain(objs[i], count);
      break;
    default:
      cudaUserObjectRelease(objs[i], count);
      break;
    }
    break;
  }
  case 5: { /* the log: any iterator, any buffer size up to the buffer */
    cudaLogIterator it = (cudaLogIterator)take(r, 4);
    size_t n = take(r, 2) % 2048;
    char *buf = (char *)host;
    cudaLogsDumpToMemory(take(r, 1) & 1 ? &it : NULL, buf, &n, (unsigned)take(r, 1) % 2);
    cudaLogsCurrent(&it, 0);
    break;
  }
  case 6: { /* peers and device lookup */
    int v;
    unsigned caps[4];
    int ops[4];
    for (int i = 0; i < 4; i++) ops[i] = (int)(int8_t)take(r, 1);
    cudaDeviceGetP2PAttribute(&v, (int)(int8_t)take(r, 1), (int)(int8_t)take(r, 1), (int)(int8_t)take(r, 1));
    cudaDeviceGetP2PAtomicCapabilities(caps, ops, (unsigned)take(r, 1) % 5, (int)(int8_t)take(r, 1), 0);
    cudaDeviceEnablePeerAccess((int)(int8_t)take(r, 1), (unsigned)take(r, 1) % 2);
    cudaDeviceDisablePeerAccess((int)(int8_t)take(r, 1));
    cudaDeviceGetByPCIBusId(&v, a_name(r, name));
    break;
  }
  case 7: { /* a batch of copies inside the device buffer and the host buffer */
    size_t count = take(r, 1) % 4, idx[4];
    void *dsts[4];
    const void *srcs[4];
    size_t sizes[4];
    struct {
      int order;
      int loc[4];
      unsigned flags;
    } attrs[4];
    for (size_t i = 0; i < 4; i++) {
      size_t n = take(r, 2) % 2048, d = take(r, 2) % 2048, s = take(r, 2) % 2048;
      int dh = (int)take(r, 1) & 1, sh = (int)take(r, 1) & 1;
      dsts[i] = dh ? (void *)(host + d) : (void *)((uint8_t *)dev + d);
      srcs[i] = sh ? (const void *)(host + s) : (const void *)((uint8_t *)dev + s);
      sizes[i] = n;
      idx[i] = take(r, 1) % 5;
      attrs[i].order = (int)take(r, 1) % 5;
      attrs[i].flags = 0;
    }
    cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, idx, take(r, 1) % 5, a_stream(r));
    cudaDeviceSynchronize();
    break;
  }
  case 8: { /* 2D fills of the device buffer: pitch, width, height fuzzed */
    size_t pitch = take(r, 2), w = take(r, 2) % 2048, h = take(r, 1) % 16;
    if (take(r, 1) & 1)
      cuMemsetD2D32_v2((uintptr_t)dev + take(r, 1), pitch, 7, w, h);
    else
      cuMemsetD2D16_v2((uintptr_t)dev + take(r, 1), pitch, 7, w, h);
    break;
  }
  case 9: { /* 3D allocations: extents up to overflow */
    struct cudaPitchedPtr pp;
    uint8_t s = (uint8_t)take(r, 1);
    struct cudaExtent e = {take(r, 2), s & 1 ? SIZE_MAX / 2 : take(r, 1),
                           s & 2 ? SIZE_MAX / 3 : take(r, 1) % 4};
    if (!cudaMalloc3D(&pp, e)) cudaFree(pp.ptr);
    break;
  }
  case 10: /* a stub */
    cudaSignalExternalSemaphoresAsync(NULL, NULL, (unsigned)take(r, 1), a_stream(r));
    break;
  case 11: { /* stream attach of managed memory: any pointer, length, flag */
    void *m = NULL;
    if (!cudaMallocManaged(&m, 256, cudaMemAttachGlobal)) {
      uint8_t s = (uint8_t)take(r, 1);
      cudaStreamAttachMemAsync(a_stream(r), s & 1 ? m : (uint8_t *)m + (s >> 1), take(r, 2),
                               (unsigned)take(r, 1) % 8);
      cudaFree(m);
    }
    break;
  }
  case 12: { /* kernels by host handle: forged ones are refused */
    cudaKernel_t k;
    cudaGetKernel(&k, (const void *)(uintptr_t)take(r, 8));
    cudaKernelSetAttributeForDevice((cudaKernel_t)(uintptr_t)take(r, 8), (enum cudaFuncAttribute)take(r, 1),
                                    (int)take(r, 4), (int)(int8_t)take(r, 1));
    break;
  }
  case 14: { /* virtual memory: reservations, allocations, mappings, access */
    struct {
      int type, handle_types, loc_type, loc_id;
      void *win32;
      unsigned char flags[8];
    } prop = {1, 0, 1, (int)take(r, 1) % 2, NULL, {0}};
    struct {
      int loc_type, loc_id, flags;
    } acc = {1, 0, (int)take(r, 1) % 5};
    size_t g = 2u << 20, n = g * (take(r, 1) % 3) + (take(r, 1) & 1 ? 0 : take(r, 2));
    int i = (int)take(r, 1) % 4;
    switch (take(r, 1) % 7) {
    case 0: cuMemCreate(&vhandles[i], n, &prop, 0); break;
    case 1: cuMemRelease(vhandles[i]); break;
    case 2: cuMemAddressReserve(&vbase[i], n ? n : g, g * (take(r, 1) % 3), 0, 0); break;
    case 3: cuMemAddressFree(vbase[i], n); break;
    case 4: cuMemMap(vbase[i] + g * (take(r, 1) % 3), n, g * (take(r, 1) % 2), vhandles[(i + 1) % 4], 0); break;
    case 5: cuMemSetAccess(vbase[i] + g * (take(r, 1) % 2), n, &acc, 1); break;
    default: cuMemUnmap(vbase[i] + g * (take(r, 1) % 2), n); break;
    }
    /* a copy into whatever is mapped there: refused unless it is device memory now */
    int v = 7;
    cudaMemcpy((void *)(uintptr_t)vbase[i], &v, sizeof v, cudaMemcpyHostToDevice);
    break;
  }
  default: { /* pitched allocation through the runtime, then a 2D fill in it */
    void *p = NULL;
    size_t pitch = 0, w = take(r, 2) % 4096, h = take(r, 1) % 8;
    if (!cudaMallocPitch(&p, &pitch, w, h) && p) {
      cuMemsetD2D32_v2((uintptr_t)p, pitch, 1, w / 4, h);
      cudaFree(p);
    }
    break;
  }
  }
  cudaGetLastError();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) setup();
  reader r = {data, size};
  for (int i = 0; i < 32 && r.n; i++) one_call(&r);
  return 0;
}
