// tma.cu: the Tensor Memory Accelerator and bulk copies on an sm_90 GPU.
//   ./tma encode   cuTensorMapEncodeTiled / Im2col / ReplaceAddress return
//                  codes for the argument table of encode_cases.h
//   ./tma tile [I] cp.async.bulk.tensor loads (case I only; ntiles: count) (1d..5d, tile and im2col,
//                  swizzle none/32/64/128, interleave, element strides,
//                  out-of-bounds fill): the shared tile's bytes
//   ./tma store [I] tensor stores shared -> global (swizzled, partly OOB;
//                  case I only; nstores: count)
//   ./tma reduce T cp.reduce.async.bulk.tensor, every operation on type T
//                  (0 u32, 1 s32, 2 f32, 3 f16, 4 bf16, 5 u64, 6 s64); T = 7:
//                  the non-tensor cp.reduce.async.bulk operations;
//                  ./tma reduce T OP: operation OP (0 add .. 7 xor) only
//   ./tma replace  cuTensorMapReplaceAddress and tensormap.replace
//   ./tma txmis    expect_tx not matching the box's bytes
//   ./tma mcast    .multicast::cluster to a cluster of 2
//   ./tma banks    threads reading a TMA-loaded tile (for ncu)
//   ./tma misalign OFF [CASE]  a load to a shared address OFF bytes past
//                  1024 (CASE 3: 128B swizzle, the default; 0: none)
//   ./tma race N   misuse for racecheck: 0 read before the wait, 1 the
//                  same with the wait, 2 TMA store without
//                  fence.proxy.async, 3 with it, 4 overwrite before
//                  wait_group.read, 5 with it
// Every wait is bounded: "done 0" means the phase never completed.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "encode_cases.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("cuda error %d (%s) at line %d\n", (int)e_, cudaGetErrorString(e_), __LINE__); fflush(stdout); exit(1); } } while (0)

typedef CUresult (*encode_tiled_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                   const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*encode_im2col_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                    const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
                                    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                    CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*replace_t)(CUtensorMap *, void *);
static encode_tiled_t enc_tiled;
static encode_im2col_t enc_im2col;
static replace_t enc_replace;

static void *entry(const char *name) {
  void *fn = NULL;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q));
  if (!fn || q != cudaDriverEntryPointSuccess) { printf("no driver entry point %s\n", name); exit(1); }
  return fn;
}

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint32_t b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint32_t b, uint32_t tx) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(tx) : "memory");
}
__device__ __forceinline__ uint32_t mb_try(uint32_t b, uint32_t par) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "r"(par) : "memory");
  return r;
}
__device__ uint32_t wait_bounded(uint32_t b, uint32_t par) {
  for (int i = 0; i < 20000; i++)
    if (mb_try(b, par)) return 1;
  return 0;
}

struct LoadArgs {
  int rank, im2col, nowait, prefetch;
  int c[5];
  unsigned short off[3];
  uint32_t smem_off, expect, out_bytes;
};

// The load: one TMA copy of the map's box at coordinates c into dynamic
// shared memory at a 1024-aligned base + smem_off; the bytes before and
// after hold 0xEE. Thread 0 arrives with expect_tx; all wait.
__device__ void tma_load(const void *tm, const LoadArgs &a, uint32_t dst, uint32_t bar) {
  const int *c = a.c;
  if (!a.im2col) {
    switch (a.rank) {
    case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(bar) : "memory"); break;
    case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar) : "memory"); break;
    case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar) : "memory"); break;
    case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar) : "memory"); break;
    case 5: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory"); break;
    }
  } else {
    switch (a.rank) {
    case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(a.off[0]) : "memory"); break;
    case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(a.off[0]), "h"(a.off[1]) : "memory"); break;
    case 5: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                         :: "r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(a.off[0]), "h"(a.off[1]), "h"(a.off[2]) : "memory"); break;
    }
  }
}

__global__ void k_load(const __grid_constant__ CUtensorMap tm, LoadArgs a, uint8_t *out, uint32_t *info) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  __shared__ __align__(8) uint64_t bar;
  uint32_t base = (sa(dsm) + 1023) & ~1023u;
  uint8_t *p = dsm + (base - sa(dsm));
  uint32_t b = sa(&bar);
  int tid = threadIdx.x;
  for (uint32_t i = tid; i < a.smem_off + a.out_bytes + 256; i += blockDim.x) p[i] = 0xEE;
  if (tid == 0) {
    mb_init(b, 1);
    if (a.prefetch) {
      asm volatile("prefetch.tensormap [%0];" :: "l"(&tm) : "memory");
      asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(&tm), "r"(a.c[0]), "r"(a.c[1]) : "memory");
    }
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (tid == 0) {
    mb_arrive_tx(b, a.expect);
    tma_load(&tm, a, base + a.smem_off, b);
  }
  uint32_t early = 0;
  if (a.nowait) early = p[a.smem_off + tid];  // a read the copy may not have written yet
  uint32_t done = wait_bounded(b, 0);
  if (tid == 0) { info[0] = done; info[1] = base & 1023; info[2] = early; }
  __syncthreads();
  for (uint32_t i = tid; i < a.out_bytes; i += blockDim.x) out[i] = p[a.smem_off + i];
}

// A tensor store (or reduction, op >= 0) of the box at (c0, c1) from shared
// memory filled by the threads with fill(i). fence: fence.proxy.async
// before the copy; early: the threads overwrite the tile right after the
// copy is issued, before (0) or after (1) wait_group.read.
__device__ __forceinline__ uint8_t fillb(uint32_t i) { return (uint8_t)(i * 37u + (i >> 8) * 11u + 5u); }
__global__ void k_store(const __grid_constant__ CUtensorMap tm, int c0, int c1, int op, int fence, int early, uint32_t nbytes, uint32_t *fillw) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  uint32_t base = (sa(dsm) + 1023) & ~1023u;
  uint8_t *p = dsm + (base - sa(dsm));
  int tid = threadIdx.x;
  for (uint32_t i = tid; i < nbytes; i += blockDim.x) p[i] = fillw ? ((uint8_t *)fillw)[i] : fillb(i);
  if (fence) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (tid == 0) {
    switch (op) {
    case -1: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 0: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 1: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 2: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 3: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 4: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.dec.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 5: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 6: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    case 7: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(c0), "r"(c1), "r"(base) : "memory"); break;
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (early) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  if (early >= 0 && tid != 0) {
    if (early) __syncthreads();
    for (uint32_t i = tid; i < nbytes; i += blockDim.x) p[i] = 0x55;
    if (!early) __syncthreads();
  } else if (early >= 0) {
    __syncthreads();
  }
  if (tid == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Non-tensor bulk reductions shared -> global: 64 bytes per operation.
__global__ void k_bulkred(uint8_t *g, const uint8_t *src) {
  __shared__ __align__(128) uint8_t s[64];
  int tid = threadIdx.x;
  if (tid < 64) s[tid] = src[tid];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (tid == 0) {
    uint32_t a = sa(s);
#define RED(i, t) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." t " [%0], [%1], 64;" :: "l"(g + 64 * (i)), "r"(a) : "memory")
    RED(0, "add.u32"); RED(1, "min.u32"); RED(2, "max.u32"); RED(3, "inc.u32"); RED(4, "dec.u32");
    RED(5, "and.b32"); RED(6, "or.b32"); RED(7, "xor.b32"); RED(8, "min.s32"); RED(9, "max.s32");
    RED(10, "add.s32"); RED(11, "add.u64"); RED(12, "min.s64"); RED(13, "max.u64"); RED(14, "and.b64");
    RED(15, "add.f32"); RED(16, "add.f64"); RED(17, "add.noftz.f16"); RED(18, "add.noftz.bf16"); RED(19, "min.f16");
    RED(20, "max.bf16"); RED(21, "xor.b64");
#undef RED
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// tensormap.replace on a copy of the map in global memory, then a load
// through it (generic address of global memory).
__global__ void k_replace(CUtensorMap *gtm, uint64_t newaddr, uint8_t *out, uint32_t bytes, uint32_t *info) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  __shared__ __align__(8) uint64_t bar;
  uint32_t base = (sa(dsm) + 1023) & ~1023u;
  uint8_t *p = dsm + (base - sa(dsm));
  uint32_t b = sa(&bar);
  int tid = threadIdx.x;
  if (tid == 0) {
    asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" :: "l"(gtm), "l"(newaddr) : "memory");
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(gtm) : "memory");
    mb_init(b, 1);
  }
  __syncthreads();
  if (tid == 0) {
    mb_arrive_tx(b, bytes);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(base), "l"(gtm), "r"(0), "r"(0), "r"(b) : "memory");
  }
  uint32_t done = wait_bounded(b, 0);
  if (tid == 0) info[0] = done;
  for (uint32_t i = tid; i < bytes; i += blockDim.x) out[i] = p[i];
}

// Multicast: CTA rank 0 of a cluster of 2 loads the box into both CTAs.
__global__ void __cluster_dims__(2, 1, 1) k_mcast(const __grid_constant__ CUtensorMap tm, uint8_t *out, uint32_t bytes, uint32_t *info) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  __shared__ __align__(8) uint64_t bar;
  uint32_t base = (sa(dsm) + 1023) & ~1023u;
  uint8_t *p = dsm + (base - sa(dsm));
  uint32_t b = sa(&bar);
  int tid = threadIdx.x;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  for (uint32_t i = tid; i < bytes; i += blockDim.x) p[i] = 0xEE;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (tid == 0) { mb_init(b, 1); mb_arrive_tx(b, bytes); }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (tid == 0 && rank == 0) {
    unsigned short mask = 3;
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"(base), "l"(&tm), "r"(0), "r"(8), "r"(b), "h"(mask) : "memory");
  }
  uint32_t done = wait_bounded(b, 0);
  if (tid == 0) info[rank] = done;
  for (uint32_t i = tid; i < bytes; i += blockDim.x) out[rank * bytes + i] = p[i];
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Bank behaviour: one warp reads a TMA-loaded tile (32 rows of `span`
// bytes, swizzled with mode swz) with access pattern `pat`.
__device__ __forceinline__ uint32_t swz_off(uint32_t off, int swz) {
  if (swz == 0) return off;
  uint32_t mask = (1u << (swz - 1 + 1)) - 1;  // 1, 3, 7 chunks of 16 B
  return off ^ (((off >> 7) & mask) << 4);
}
__global__ void k_banks(const __grid_constant__ CUtensorMap tm, int swz, int pat, uint32_t span, uint32_t *out) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  __shared__ __align__(8) uint64_t bar;
  uint32_t base = (sa(dsm) + 1023) & ~1023u;
  uint32_t b = sa(&bar);
  int l = threadIdx.x;
  if (l == 0) { mb_init(b, 1); mb_arrive_tx(b, span * 32); }
  __syncwarp();
  if (l == 0)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(base), "l"(&tm), "r"(0), "r"(0), "r"(b) : "memory");
  while (!mb_try(b, 0)) {}
  uint32_t v0 = 0, v1 = 0, v2 = 0, v3 = 0, a;
  switch (pat) {
  case 0: a = base + l * span; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a)); break;  // column, unswizzled address
  case 1: a = base + swz_off(l * span, swz); asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a)); break;  // column, swizzled
  case 2: a = base + swz_off(l * span, swz); asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a)); break;
  case 3: { uint32_t o = l * 16; a = base + swz_off((o / span) * span + o % span, swz);  // row-major 16 B chunks
            asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a)); break; }
  case 4: a = base + l * span; asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a)); break;
  case 5: { unsigned short h; a = base + swz_off(l * span + 2, swz); asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a)); v0 = h; break; }
  case 6: a = base + l * 4; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a)); break;
  case 7: a = base + swz_off(l * span + 16, swz); asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a)); break;
  default: break;
  }
  out[l] = v0 + v1 + v2 + v3;
}

// ---------------------------------------------------------------- host
static uint8_t *g_src;  // 1 MB of 16-bit indices: element i holds i
static const size_t SRC_BYTES = 1 << 20;
static uint8_t *g_out;
static uint32_t *g_info;

static size_t esize(int dt) {
  static const size_t s[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return dt >= 0 && dt < 13 ? s[dt] : 1;
}

static void hexdump(const char *tag, const uint8_t *p, size_t n) {
  printf("%s %zu bytes\n", tag, n);
  for (size_t i = 0; i < n; i += 64) {
    printf("  %04zx:", i);
    for (size_t j = i; j < n && j < i + 64; j++) printf("%s%02x", (j % 16) ? "" : " ", p[j]);
    printf("\n");
  }
}

static void do_encode(void) {
  static __align__(64) uint8_t maps[256];
  for (size_t i = 0; i < N_ENC_CASES; i++) {
    const enc_case *e = &enc_cases[i];
    CUtensorMap *tm = (CUtensorMap *)(maps + e->map_off);
    void *addr = e->addr_off == ~0u ? NULL : g_src + (e->addr_off & 0xffff);
    CUresult r;
    if (e->im2col == 1) {
      r = enc_im2col(tm, (CUtensorMapDataType)e->dtype, e->rank, addr, e->dim, e->stride, e->lower, e->upper, e->cpp,
                     e->ppc, e->estride, (CUtensorMapInterleave)e->interleave, (CUtensorMapSwizzle)e->swizzle,
                     (CUtensorMapL2promotion)e->l2, (CUtensorMapFloatOOBfill)e->oob);
    } else if (e->im2col == 2) {
      r = enc_tiled(tm, (CUtensorMapDataType)e->dtype, e->rank, g_src, e->dim, e->stride, e->box, e->estride,
                    (CUtensorMapInterleave)e->interleave, (CUtensorMapSwizzle)e->swizzle,
                    (CUtensorMapL2promotion)e->l2, (CUtensorMapFloatOOBfill)e->oob);
      if (r == CUDA_SUCCESS) r = enc_replace(tm, addr);
      else printf("(base encode failed) ");
    } else {
      r = enc_tiled(tm, (CUtensorMapDataType)e->dtype, e->rank, addr, e->dim, e->stride, e->box, e->estride,
                    (CUtensorMapInterleave)e->interleave, (CUtensorMapSwizzle)e->swizzle,
                    (CUtensorMapL2promotion)e->l2, (CUtensorMapFloatOOBfill)e->oob);
    }
    printf("%s %d\n", e->name, (int)r);
    fflush(stdout);
  }
}

struct TileCase {
  const char *name;
  int dtype, rank;
  uint64_t dim[5], stride[4];
  uint32_t box[5], estride[5];
  int interleave, swizzle, oob;
  int c[5];
  uint32_t smem_off;
  int im2col;  // then box is unused: lower/upper, cpp, ppc, offsets
  int lower[3], upper[3];
  uint32_t cpp, ppc;
  unsigned short off[3];
};

static const TileCase tiles[] = {
  {"sw0_u16_64x8", 1, 2, {64, 32}, {128}, {64, 8}, {1, 1}, 0, 0, 0, {0, 4}, 0},
  {"sw1_u16_16x16", 1, 2, {64, 32}, {128}, {16, 16}, {1, 1}, 0, 1, 0, {8, 4}, 0},
  {"sw2_u16_32x16", 1, 2, {64, 32}, {128}, {32, 16}, {1, 1}, 0, 2, 0, {16, 2}, 0},
  {"sw3_u16_64x16", 1, 2, {64, 32}, {128}, {64, 16}, {1, 1}, 0, 3, 0, {0, 3}, 0},
  {"sw3_u16_32x16_narrow", 1, 2, {64, 32}, {128}, {32, 16}, {1, 1}, 0, 3, 0, {8, 3}, 0},
  {"sw3_u16_8x16_narrow", 1, 2, {64, 32}, {128}, {8, 16}, {1, 1}, 0, 3, 0, {8, 3}, 0},
  {"sw2_u16_16x16_narrow", 1, 2, {64, 32}, {128}, {16, 16}, {1, 1}, 0, 2, 0, {8, 3}, 0},
  {"sw1_u16_8x16_narrow", 1, 2, {64, 32}, {128}, {8, 16}, {1, 1}, 0, 1, 0, {8, 3}, 0},
  {"sw3_off128", 1, 2, {64, 32}, {128}, {64, 16}, {1, 1}, 0, 3, 0, {0, 3}, 128},
  {"sw3_off512", 1, 2, {64, 32}, {128}, {64, 16}, {1, 1}, 0, 3, 0, {0, 3}, 512},
  {"sw2_off128", 1, 2, {64, 32}, {128}, {32, 16}, {1, 1}, 0, 2, 0, {16, 2}, 128},
  {"sw2_off256", 1, 2, {64, 32}, {128}, {32, 16}, {1, 1}, 0, 2, 0, {16, 2}, 256},
  {"sw1_off128", 1, 2, {64, 32}, {128}, {16, 16}, {1, 1}, 0, 1, 0, {8, 4}, 128},
  {"sw0_off128", 1, 2, {64, 32}, {128}, {64, 8}, {1, 1}, 0, 0, 0, {0, 4}, 128},
  {"oob_neg", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {-8, -3}, 0},
  {"oob_pos", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {24, 16}, 0},
  {"oob_all", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {100, 100}, 0},
  {"oob_sw3", 1, 2, {40, 20}, {80}, {64, 8}, {1, 1}, 0, 3, 0, {-8, 15}, 0},
  {"oob_nan_f32", 7, 2, {20, 10}, {80}, {32, 8}, {1, 1}, 0, 3, 1, {-4, 6}, 0},
  {"oob_nan_f16", 6, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 1, {-8, -3}, 0},
  {"oob_nan_bf16", 9, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 1, {-8, -3}, 0},
  {"oob_zero_f32", 7, 2, {20, 10}, {80}, {32, 8}, {1, 1}, 0, 3, 0, {-4, 6}, 0},
  {"estride_1_2", 1, 2, {64, 32}, {128}, {64, 8}, {1, 2}, 0, 0, 0, {0, 1}, 0},
  {"estride_1_3", 1, 2, {64, 32}, {128}, {64, 8}, {1, 3}, 0, 0, 0, {0, 1}, 0},
  {"estride_2_1", 1, 2, {64, 32}, {128}, {64, 4}, {2, 1}, 0, 0, 0, {0, 1}, 0},
  {"estride_1_2_oob", 1, 2, {64, 32}, {128}, {64, 8}, {1, 2}, 0, 0, 0, {0, 27}, 0},
  {"rank1", 1, 1, {1000}, {0}, {256}, {1}, 0, 0, 0, {900}, 0},
  {"rank1_neg", 1, 1, {1000}, {0}, {64}, {1}, 0, 0, 0, {-24}, 0},
  {"rank3", 1, 3, {16, 5, 3}, {32, 160}, {8, 4, 2}, {1, 1, 1}, 0, 0, 0, {4, -1, 2}, 0},
  {"rank4", 1, 4, {8, 3, 3, 3}, {16, 48, 144}, {8, 2, 2, 2}, {1, 1, 1, 1}, 0, 0, 0, {0, 2, -1, 1}, 0},
  {"rank5", 1, 5, {8, 3, 3, 3, 3}, {16, 48, 144, 432}, {8, 2, 2, 2, 2}, {1, 1, 1, 1, 1}, 0, 0, 0, {0, 1, 2, -1, 1}, 0},
  {"rank5_estride", 1, 5, {8, 5, 3, 5, 3}, {16, 80, 240, 1200}, {8, 4, 2, 4, 2}, {1, 2, 1, 2, 1}, 0, 0, 0, {0, 1, 0, 1, 1}, 0},
  {"rank3_sw3", 1, 3, {64, 4, 3}, {128, 512}, {64, 4, 2}, {1, 1, 1}, 0, 3, 0, {0, 1, 1}, 0},
  {"u8_sw3", 0, 2, {256, 16}, {256}, {128, 8}, {1, 1}, 0, 3, 0, {64, 2}, 0},
  {"f64_sw2", 8, 2, {16, 16}, {128}, {8, 8}, {1, 1}, 0, 2, 0, {4, 4}, 0},
  {"u32_sw1_oob", 2, 2, {12, 12}, {48}, {8, 8}, {1, 1}, 0, 1, 0, {6, -2}, 0},
  {"interleave16", 1, 3, {8, 16, 4}, {16, 256}, {8, 8, 2}, {1, 1, 1}, 1, 0, 0, {0, 2, 1}, 0},
  {"interleave16_sw128", 1, 3, {8, 16, 4}, {16, 256}, {8, 16, 2}, {1, 1, 1}, 1, 3, 0, {0, 0, 1}, 0},
  {"interleave16_sw32", 1, 3, {8, 16, 4}, {16, 256}, {8, 8, 2}, {1, 1, 1}, 1, 1, 0, {0, 2, 1}, 0},
  {"interleave32_sw32", 1, 3, {16, 16, 4}, {32, 512}, {16, 8, 2}, {1, 1, 1}, 2, 1, 0, {0, 2, 1}, 0},
  {"interleave16_oob", 1, 3, {8, 6, 4}, {16, 96}, {8, 8, 2}, {1, 1, 1}, 1, 0, 0, {0, 2, 3}, 0},
  {"i2c_4d", 1, 4, {16, 6, 5, 2}, {32, 192, 960}, {0}, {1, 1, 1, 1}, 0, 0, 0, {0, -1, -1, 0}, 0, 1, {-1, -1}, {-1, -1}, 16, 16, {0, 0}},
  {"i2c_4d_off", 1, 4, {16, 6, 5, 2}, {32, 192, 960}, {0}, {1, 1, 1, 1}, 0, 0, 0, {0, -1, -1, 0}, 0, 1, {-1, -1}, {-1, -1}, 16, 16, {1, 2}},
  {"i2c_4d_wrap", 1, 4, {16, 6, 5, 2}, {32, 192, 960}, {0}, {1, 1, 1, 1}, 0, 0, 0, {0, 3, 2, 0}, 0, 1, {-1, -1}, {-1, -1}, 16, 40, {0, 0}},
  {"i2c_4d_c8", 1, 4, {32, 6, 5, 2}, {64, 384, 1920}, {0}, {1, 1, 1, 1}, 0, 0, 0, {8, 0, 1, 1}, 0, 1, {-1, -1}, {-1, -1}, 16, 16, {2, 0}},
  {"i2c_4d_corners", 1, 4, {16, 6, 5, 2}, {32, 192, 960}, {0}, {1, 1, 1, 1}, 0, 0, 0, {0, 0, 0, 0}, 0, 1, {0, 0}, {-2, -2}, 8, 30, {0, 0}},
  {"i2c_4d_estride", 1, 4, {16, 6, 5, 2}, {32, 192, 960}, {0}, {1, 2, 2, 1}, 0, 0, 0, {0, -1, -1, 0}, 0, 1, {-1, -1}, {-1, -1}, 16, 16, {0, 0}},
  {"i2c_3d", 1, 3, {8, 20, 2}, {16, 320}, {0}, {1, 1, 1}, 0, 0, 0, {0, -2, 0}, 0, 1, {-2}, {-2}, 8, 24, {3}},
  {"i2c_5d", 1, 5, {8, 3, 3, 3, 2}, {16, 48, 144, 432}, {0}, {1, 1, 1, 1, 1}, 0, 0, 0, {0, -1, -1, -1, 0}, 0, 1, {-1, -1, -1}, {-1, -1, -1}, 8, 20, {1, 1, 1}},
  {"i2c_4d_sw128", 1, 4, {64, 6, 5, 2}, {128, 768, 3840}, {0}, {1, 1, 1, 1}, 0, 3, 0, {0, -1, -1, 0}, 0, 1, {-1, -1}, {-1, -1}, 64, 16, {1, 1}},
};

static uint32_t tile_bytes(const TileCase *t) {
  if (t->im2col) return t->cpp * (uint32_t)esize(t->dtype) * t->ppc;
  uint32_t n = t->box[0] * (uint32_t)esize(t->dtype);
  for (int i = 1; i < t->rank; i++) n *= (t->box[i] + t->estride[i] - 1) / t->estride[i];
  return n;
}

static int encode_case(CUtensorMap *tm, const TileCase *t, void *addr) {
  CUresult r;
  if (t->im2col)
    r = enc_im2col(tm, (CUtensorMapDataType)t->dtype, t->rank, addr, t->dim, t->stride, t->lower, t->upper, t->cpp,
                   t->ppc, t->estride, (CUtensorMapInterleave)t->interleave, (CUtensorMapSwizzle)t->swizzle,
                   CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)t->oob);
  else
    r = enc_tiled(tm, (CUtensorMapDataType)t->dtype, t->rank, addr, t->dim, t->stride, t->box, t->estride,
                  (CUtensorMapInterleave)t->interleave, (CUtensorMapSwizzle)t->swizzle,
                  CU_TENSOR_MAP_L2_PROMOTION_NONE, (CUtensorMapFloatOOBfill)t->oob);
  return (int)r;
}

static void run_load(const TileCase *t, uint32_t expect, uint32_t smem_off, int nowait, int prefetch) {
  CUtensorMap tm;
  int r = encode_case(&tm, t, g_src);
  if (r) { printf("case %s: encode returned %d\n", t->name, r); return; }
  LoadArgs a;
  memset(&a, 0, sizeof a);
  a.rank = t->rank; a.im2col = t->im2col; a.nowait = nowait; a.prefetch = prefetch;
  memcpy(a.c, t->c, sizeof a.c);
  memcpy(a.off, t->off, sizeof a.off);
  a.smem_off = smem_off;
  a.expect = expect;
  a.out_bytes = tile_bytes(t) + 128;
  CK(cudaMemset(g_out, 0, 65536));
  CK(cudaMemset(g_info, 0xff, 64));
  k_load<<<1, 128, 16384>>>(tm, a, g_out, g_info);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("case %s: kernel error %d (%s)\n", t->name, (int)e, cudaGetErrorString(e)); fflush(stdout); exit(2); }
  uint8_t host[65536];
  uint32_t info[4];
  CK(cudaMemcpy(host, g_out, a.out_bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(info, g_info, sizeof info, cudaMemcpyDeviceToHost));
  char tag[160];
  snprintf(tag, sizeof tag, "case %s: done %u expect %u smem_off %u:", t->name, info[0], expect, smem_off);
  hexdump(tag, host, a.out_bytes);
  fflush(stdout);
}

#define N_TILES (sizeof tiles / sizeof tiles[0])
static void do_tile(int only) {
  for (size_t i = 0; i < N_TILES; i++)
    if (only < 0 || (size_t)only == i) run_load(&tiles[i], tile_bytes(&tiles[i]), tiles[i].smem_off, 0, i == 0);
}

static void do_txmis(void) {
  const TileCase *t = &tiles[3];
  uint32_t n = tile_bytes(t);
  run_load(t, n + 16, 0, 0, 0);   // expects more than the box: never completes
  run_load(t, 0, 0, 0, 0);        // an arrival with no bytes expected
  run_load(t, n - 256, 0, 0, 0);  // expects less: an over-run
}

static const TileCase st_cases[] = {
  {"st_sw0", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {0, 0}, 0},
  {"st_sw3_oob", 1, 2, {40, 20}, {80}, {64, 8}, {1, 1}, 0, 3, 0, {-8, 15}, 0},
  {"st_sw1", 1, 2, {40, 20}, {80}, {16, 16}, {1, 1}, 0, 1, 0, {8, 2}, 0},
  {"st_sw2_estride", 1, 2, {40, 20}, {80}, {32, 8}, {1, 2}, 0, 2, 0, {8, 3}, 0},
  {"st_sw0_neg", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {-8, -3}, 0},
  {"st_sw0_tail", 1, 2, {40, 20}, {80}, {32, 8}, {1, 1}, 0, 0, 0, {16, 16}, 0},
  {"st_sw3_in", 1, 2, {64, 20}, {128}, {64, 8}, {1, 1}, 0, 3, 0, {0, 4}, 0},
  {"st_sw3_neg_row", 1, 2, {64, 20}, {128}, {64, 8}, {1, 1}, 0, 3, 0, {0, -2}, 0},
  {"st_sw3_tail_row", 1, 2, {64, 20}, {128}, {64, 8}, {1, 1}, 0, 3, 0, {0, 15}, 0},
  {"st_sw3_wide_dim", 1, 2, {40, 20}, {80}, {64, 8}, {1, 1}, 0, 3, 0, {0, 4}, 0},
};

static void do_store(int only) {
  uint8_t host[16384];
  for (size_t i = 0; i < sizeof st_cases / sizeof st_cases[0]; i++) {
    if (only >= 0 && (size_t)only != i) continue;
    const TileCase *t = &st_cases[i];
    CUtensorMap tm;
    CK(cudaMemset(g_out, 0xcd, 4096));
    int r = encode_case(&tm, t, g_out);
    if (r) { printf("case %s: encode returned %d\n", t->name, r); continue; }
    k_store<<<1, 128, 8192>>>(tm, t->c[0], t->c[1], -1, 1, -1, tile_bytes(t), NULL);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(host, g_out, 1600, cudaMemcpyDeviceToHost));
    char tag[96];
    snprintf(tag, sizeof tag, "case %s: global after the store:", t->name);
    hexdump(tag, host, 1600);
  }
}

static void do_reduce(int which, int only_op) {
  static const char *ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  uint32_t g[64], s[64], res[64];
  uint32_t *d_fill;
  CK(cudaMalloc(&d_fill, 4096));
  for (int i = 0; i < 64; i++) {
    g[i] = i % 5 == 0 ? 0xfffffff0u + i : (uint32_t)(i * 0x01030507u) % 1000u;
    s[i] = (uint32_t)(i * 0x9e3779b9u) % 700u;
    if (i % 7 == 0) s[i] = 0;
  }
  struct { const char *name; int dtype; } types[] = {{"u32", 2}, {"s32", 3}, {"f32", 7}, {"f16", 6}, {"bf16", 9}, {"u64", 4}, {"s64", 5}};
  for (int ti = which; ti < 7 && ti == which; ti++) {
    for (int op = 0; op < 8; op++) {
      if (only_op >= 0 && op != only_op) continue;
      int dt = types[ti].dtype;
      // which operations a type allows: the driver/PTX decide; floats only add/min/max
      if ((dt == 7 || dt == 6 || dt == 9) && op > 2) continue;
      if (dt == 7 && op > 0) continue;
      if ((dt == 3 || dt == 5) && (op == 3 || op == 4)) continue;
      if ((dt == 4 || dt == 5) && (op == 3 || op == 4)) continue;
      uint32_t gg[64], ss[64];
      memcpy(gg, g, sizeof gg);
      memcpy(ss, s, sizeof ss);
      if (dt == 7) for (int i = 0; i < 64; i++) { float f = (float)(int)g[i % 32] * 0.25f - 3.f, h = (float)s[i] * 0.125f - 7.f; memcpy(&gg[i], &f, 4); memcpy(&ss[i], &h, 4); }
      if (dt == 6 || dt == 9) for (int i = 0; i < 64; i++) { gg[i] = (g[i] & 0x3fff3fff) | 0x40004000u * (i & 1); ss[i] = (s[i] * 0x00010001u) ^ 0x3c003c00u; }
      CK(cudaMemcpy(g_out, gg, sizeof gg, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(d_fill, ss, sizeof ss, cudaMemcpyHostToDevice));
      // a 16-byte-wide row of 4 rows (8 rows of 16 bytes in global), box at row 2
      size_t es = esize(dt);
      cuuint64_t dim[2] = {16 / es, 16}, stride[1] = {16};
      cuuint32_t box[2] = {(cuuint32_t)(16 / es), 4}, est[2] = {1, 1};
      CUtensorMap tm;
      CUresult r = enc_tiled(&tm, (CUtensorMapDataType)dt, 2, g_out, dim, stride, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { printf("reduce %s %s: encode %d\n", ops[op], types[ti].name, (int)r); continue; }
      k_store<<<1, 128, 8192>>>(tm, 0, 2, op, 1, -1, 64, d_fill);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("reduce %s %s: kernel error %d (%s)\n", ops[op], types[ti].name, (int)e, cudaGetErrorString(e)); fflush(stdout); exit(2); }
      CK(cudaMemcpy(res, g_out, sizeof res, cudaMemcpyDeviceToHost));
      char tag[64];
      snprintf(tag, sizeof tag, "reduce.tensor %s %s:", ops[op], types[ti].name);
      hexdump(tag, (uint8_t *)res, 256);
    }
  }
  if (which != 7) { CK(cudaFree(d_fill)); return; }
  // non-tensor bulk reductions: 22 operations on 64-byte blocks
  uint8_t gb[22 * 64], sb[64];
  for (int i = 0; i < 22 * 64; i++) gb[i] = (uint8_t)(i * 29 + 3);
  for (int i = 0; i < 64; i++) sb[i] = (uint8_t)(i * 53 + 17);
  for (int i = 0; i < 22; i++) { gb[i * 64 + 3] = 0x3c; gb[i * 64 + 7] = 0x80; }
  uint8_t *d_sb;
  CK(cudaMalloc(&d_sb, 64));
  CK(cudaMemcpy(g_out, gb, sizeof gb, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_sb, sb, 64, cudaMemcpyHostToDevice));
  k_bulkred<<<1, 64>>>(g_out, d_sb);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(gb, g_out, sizeof gb, cudaMemcpyDeviceToHost));
  hexdump("reduce.bulk 22 operations:", gb, sizeof gb);
  CK(cudaFree(d_sb));
  CK(cudaFree(d_fill));
}

static void do_replace(void) {
  const TileCase *t = &tiles[0];
  uint32_t n = tile_bytes(t);
  uint8_t *other;
  CK(cudaMalloc(&other, 65536));
  uint8_t pat[65536];
  for (int i = 0; i < 65536; i++) pat[i] = (uint8_t)(255 - (i & 255)) ^ (uint8_t)(i >> 8);
  CK(cudaMemcpy(other, pat, sizeof pat, cudaMemcpyHostToDevice));
  // host: cuTensorMapReplaceAddress
  CUtensorMap tm;
  if (encode_case(&tm, t, g_src)) { printf("replace: encode failed\n"); return; }
  printf("replace host rc %d\n", (int)enc_replace(&tm, other + 256));
  LoadArgs a;
  memset(&a, 0, sizeof a);
  a.rank = 2; a.expect = n; a.out_bytes = n; a.c[0] = 0; a.c[1] = 1;
  k_load<<<1, 128, 16384>>>(tm, a, g_out, g_info);
  CK(cudaDeviceSynchronize());
  uint8_t host[4096];
  uint32_t info[4];
  CK(cudaMemcpy(host, g_out, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(info, g_info, sizeof info, cudaMemcpyDeviceToHost));
  printf("replace host done %u\n", info[0]);
  hexdump("replace host tile:", host, n);
  // device: tensormap.replace on a global copy of the original map
  if (encode_case(&tm, t, g_src)) return;
  CUtensorMap *gtm;
  CK(cudaMalloc(&gtm, sizeof tm));
  CK(cudaMemcpy(gtm, &tm, sizeof tm, cudaMemcpyHostToDevice));
  k_replace<<<1, 128, 8192>>>(gtm, (uint64_t)(uintptr_t)(other + 512), g_out, n, g_info);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(host, g_out, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(info, g_info, sizeof info, cudaMemcpyDeviceToHost));
  printf("replace device done %u\n", info[0]);
  hexdump("replace device tile:", host, n);
  CK(cudaFree(gtm));
  CK(cudaFree(other));
}

static void do_mcast(void) {
  const TileCase *t = &tiles[0];
  uint32_t n = tile_bytes(t);
  CUtensorMap tm;
  if (encode_case(&tm, t, g_src)) { printf("mcast: encode failed\n"); return; }
  CK(cudaMemset(g_info, 0xff, 64));
  k_mcast<<<2, 128, 8192>>>(tm, g_out, n, g_info);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("mcast: kernel error %d (%s)\n", (int)e, cudaGetErrorString(e)); return; }
  uint8_t host[8192];
  uint32_t info[2];
  CK(cudaMemcpy(host, g_out, 2 * n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(info, g_info, sizeof info, cudaMemcpyDeviceToHost));
  printf("mcast done %u %u\n", info[0], info[1]);
  hexdump("mcast rank 0:", host, n);
  hexdump("mcast rank 1:", host + n, n);
}

static void do_banks(void) {
  for (int swz = 0; swz < 4; swz++) {
    uint32_t span = swz ? 16u << swz : 128u;
    cuuint64_t dim[2] = {span / 2, 64}, stride[1] = {span};
    cuuint32_t box[2] = {span / 2, 32}, est[2] = {1, 1};
    CUtensorMap tm;
    CUresult r = enc_tiled(&tm, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, g_src, dim, stride, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                           (CUtensorMapSwizzle)swz, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r) { printf("banks swz %d: encode %d\n", swz, (int)r); continue; }
    for (int pat = -1; pat < 8; pat++) {
      k_banks<<<1, 32, 8192>>>(tm, swz, pat, span, (uint32_t *)g_out);
      CK(cudaDeviceSynchronize());
      uint32_t host[32];
      CK(cudaMemcpy(host, g_out, sizeof host, cudaMemcpyDeviceToHost));
      printf("banks swz %d pat %d:", swz, pat);
      for (int i = 0; i < 32; i++) printf(" %x", host[i]);
      printf("\n");
    }
  }
}

static void do_race(int n) {
  if (n <= 1) {  // 0: threads read the tile before the wait
    LoadArgs a;
    memset(&a, 0, sizeof a);
    CUtensorMap tm;
    if (encode_case(&tm, &tiles[3], g_src)) return;
    a.rank = 2; a.expect = tile_bytes(&tiles[3]); a.out_bytes = a.expect; a.nowait = n == 0;
    k_load<<<1, 128, 16384>>>(tm, a, g_out, g_info);
    CK(cudaDeviceSynchronize());
    printf("race %d done\n", n);
    return;
  }
  const TileCase *t = &st_cases[0];
  CUtensorMap tm;
  if (encode_case(&tm, t, g_out)) return;
  if (n <= 3) k_store<<<1, 128, 8192>>>(tm, 0, 0, -1, n == 3, -1, tile_bytes(t), NULL);
  else k_store<<<1, 128, 8192>>>(tm, 0, 0, -1, 1, n == 5, tile_bytes(t), NULL);
  CK(cudaDeviceSynchronize());
  printf("race %d done\n", n);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "encode";
  enc_tiled = (encode_tiled_t)entry("cuTensorMapEncodeTiled");
  enc_im2col = (encode_im2col_t)entry("cuTensorMapEncodeIm2col");
  enc_replace = (replace_t)entry("cuTensorMapReplaceAddress");
  CK(cudaMalloc(&g_src, SRC_BYTES));
  CK(cudaMalloc(&g_out, 65536));
  CK(cudaMalloc(&g_info, 64));
  {
    uint16_t *h = (uint16_t *)malloc(SRC_BYTES);
    for (size_t i = 0; i < SRC_BYTES / 2; i++) h[i] = (uint16_t)i;
    CK(cudaMemcpy(g_src, h, SRC_BYTES, cudaMemcpyHostToDevice));
    free(h);
  }
  if (!strcmp(mode, "encode")) do_encode();
  else if (!strcmp(mode, "tile")) do_tile(argc > 2 ? atoi(argv[2]) : -1);
  else if (!strcmp(mode, "ntiles")) printf("%zu\n", N_TILES);
  else if (!strcmp(mode, "store")) do_store(argc > 2 ? atoi(argv[2]) : -1);
  else if (!strcmp(mode, "nstores")) printf("%zu\n", sizeof st_cases / sizeof st_cases[0]);
  else if (!strcmp(mode, "reduce")) do_reduce(argc > 2 ? atoi(argv[2]) : 0, argc > 3 ? atoi(argv[3]) : -1);
  else if (!strcmp(mode, "replace")) do_replace();
  else if (!strcmp(mode, "txmis")) do_txmis();
  else if (!strcmp(mode, "mcast")) do_mcast();
  else if (!strcmp(mode, "banks")) do_banks();
  else if (!strcmp(mode, "race") && argc > 2) do_race(atoi(argv[2]));
  else if (!strcmp(mode, "misalign") && argc > 2) {
    uint32_t off = (uint32_t)atoi(argv[2]);
    const TileCase *t = &tiles[argc > 3 ? atoi(argv[3]) : 3];  // 3: 128B swizzle, 0: none
    run_load(t, tile_bytes(t), off, 0, 0);
  } else { printf("unknown mode %s\n", mode); return 1; }
  return 0;
}
