// cluster.cu: thread-block clusters and distributed shared memory on sm_90.
//   ./cluster launch   launch configurations (cudaLaunchKernelEx with cluster
//                      dimensions, __cluster_dims__, function attributes,
//                      cuLaunchKernelEx): error codes and, for launches that
//                      run, the cluster special registers of every block.
//   ./cluster occ      cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize.
//   ./cluster dsmem    remote shared memory: mapa, ld/st/atom/red
//                      .shared::cluster, generic remote pointers, getctarank,
//                      isspacep, cvta, barrier.cluster, fence.acq_rel.cluster,
//                      a remote mbarrier arrive.
//   ./cluster ncu      tiny one-warp kernels for the shared-memory counters.
//   ./cluster bad N    misuse case N (see bad_case below).
// Every line printed is deterministic, so a recording can be compared.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

#define DEV __device__ __forceinline__

DEV uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
DEV uint32_t rank_() { uint32_t r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
DEV uint32_t nrank_() { uint32_t r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
DEV uint32_t mapa32(uint32_t a, uint32_t r) {
  uint32_t d; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r)); return d;
}
DEV uint64_t mapa64(const void *p, uint32_t r) {
  uint64_t d; asm volatile("mapa.u64 %0, %1, %2;" : "=l"(d) : "l"(p), "r"(r)); return d;
}
DEV uint32_t ldc(uint32_t a) { uint32_t v; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
DEV void stc(uint32_t a, uint32_t v) { asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
DEV uint32_t atomc(uint32_t a, uint32_t v) {
  uint32_t o; asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(o) : "r"(a), "r"(v) : "memory"); return o;
}
DEV void redc(uint32_t a, uint32_t v) { asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
DEV void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
DEV uint32_t getrank_g(const void *p) { uint32_t d; asm volatile("getctarank.u64 %0, %1;" : "=r"(d) : "l"(p)); return d; }
DEV uint32_t getrank_c(uint32_t a) { uint32_t d; asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(d) : "r"(a)); return d; }
DEV uint32_t is_cluster(const void *p) {
  uint32_t r; asm volatile("{ .reg .pred q; isspacep.shared::cluster q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "l"(p)); return r;
}
DEV uint32_t is_cta(const void *p) {
  uint32_t r; asm volatile("{ .reg .pred q; isspacep.shared::cta q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "l"(p)); return r;
}
DEV uint32_t is_global(const void *p) {
  uint32_t r; asm volatile("{ .reg .pred q; isspacep.global q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r) : "l"(p)); return r;
}

// ---- special registers -------------------------------------------------
#define SR(name, v) asm volatile("mov.u32 %0, " name ";" : "=r"(v))
DEV void sregs(uint32_t *out) {
  if (threadIdx.x != 0) return;
  uint32_t b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint32_t *o = out + b * 16, e;
  SR("%%cluster_ctaid.x", o[0]); SR("%%cluster_ctaid.y", o[1]); SR("%%cluster_ctaid.z", o[2]);
  SR("%%cluster_nctaid.x", o[3]); SR("%%cluster_nctaid.y", o[4]); SR("%%cluster_nctaid.z", o[5]);
  SR("%%cluster_ctarank", o[6]); SR("%%cluster_nctarank", o[7]);
  SR("%%clusterid.x", o[8]); SR("%%clusterid.y", o[9]); SR("%%clusterid.z", o[10]);
  SR("%%nclusterid.x", o[11]); SR("%%nclusterid.y", o[12]); SR("%%nclusterid.z", o[13]);
  asm volatile("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }" : "=r"(e));
  o[14] = e;
  o[15] = b;
}
__global__ void k_sreg(uint32_t *out) { extern __shared__ uint32_t dyn[]; if (out == nullptr) dyn[0] = 1; sregs(out); }
__global__ void k_sreg2(uint32_t *out) { sregs(out); }
__global__ void __cluster_dims__(2, 2, 1) k_sreg_cd(uint32_t *out) { sregs(out); }
__global__ void __launch_bounds__(32, 1, 4) k_sreg_mr(uint32_t *out) { sregs(out); }

// ---- distributed shared memory -----------------------------------------
// One cluster of 4 blocks of 128 threads (grid 8: two clusters). Each block
// writes out[block*OUTW + ...]; the layout is listed in main.
#define OUTW 1024
__global__ void k_dsmem(uint32_t *out, uint32_t *gdummy) {
  __shared__ uint32_t buf[128];
  __shared__ uint32_t buf2[128];
  __shared__ uint32_t cnt[4];
  __shared__ uint32_t flag, mp[32];
  uint32_t tid = threadIdx.x, r = rank_(), n = nrank_();
  uint32_t *o = out + blockIdx.x * OUTW;
  buf[tid] = r * 1000 + tid;
  buf2[tid] = 0;
  if (tid < 4) cnt[tid] = 0;
  if (tid == 0) flag = 0;
  if (tid < 32) mp[tid] = 0;
  csync();
  // [0,128): the next rank's buf[tid] through mapa + ld.shared::cluster
  o[tid] = ldc(mapa32(sa(&buf[tid]), (r + 1) % n));
  // [128,256): the previous rank's buf[127-tid] through a generic pointer
  const uint32_t *g = (const uint32_t *)mapa64(&buf[127 - tid], (r + n - 1) % n);
  o[128 + tid] = *g;
  // st through a generic remote pointer into the next rank's buf2
  uint32_t *g2 = (uint32_t *)mapa64(&buf2[tid], (r + 1) % n);
  *g2 = r * 10000 + tid;
  // atomics: every thread of the cluster adds 1 to rank 0's cnt[0];
  // red adds r+1 into cnt[1] of rank (r+2)%n; atom returns old values
  uint32_t old = atomc(mapa32(sa(&cnt[0]), 0), 1);
  redc(mapa32(sa(&cnt[1]), (r + 2) % n), r + 1);
  // generic atomics on a remote address: cnt[2] of rank n-1
  atomicAdd((uint32_t *)mapa64(&cnt[2], n - 1), 2u);
  csync();
  // [256,384): buf2 written by the previous rank
  o[256 + tid] = buf2[tid];
  if (tid < 4) o[384 + tid] = cnt[tid];
  // [388]: whether this thread's atom saw old < cluster threads (always 1)
  if (tid == 0) o[388] = old < n * blockDim.x;
  if (tid == 0) {
    // [400,416): mapa of cnt[0] to every rank (raw shared::cluster values),
    // own shared::cta address of cnt[0] at [416]
    for (uint32_t q = 0; q < n && q < 16; q++) o[400 + q] = mapa32(sa(&cnt[0]), q);
    o[416] = sa(&cnt[0]);
    // [420,436): generic mapa of cnt[0] to every rank minus own generic address
    for (uint32_t q = 0; q < n && q < 16; q++) o[420 + q] = (uint32_t)(mapa64(&cnt[0], q) - (uint64_t)&cnt[0]);
    // [440..]: getctarank on generic and shared::cluster addresses
    o[440] = getrank_g(&cnt[0]);
    o[441] = getrank_g((void *)mapa64(&cnt[0], (r + 1) % n));
    o[442] = getrank_c(sa(&cnt[0]));
    o[443] = getrank_c(mapa32(sa(&cnt[0]), (r + 3) % n));
    // [444..]: isspacep on own, remote, global generic addresses
    const void *rem = (const void *)mapa64(&cnt[0], (r + 1) % n);
    const void *self = (const void *)mapa64(&cnt[0], r);
    o[444] = is_cta(&cnt[0]); o[445] = is_cluster(&cnt[0]);
    o[446] = is_cta(rem); o[447] = is_cluster(rem);
    o[448] = is_cta(gdummy); o[449] = is_cluster(gdummy); o[450] = is_global(rem);
    o[451] = self == (const void *)&cnt[0];
    // cvta between generic and shared::cluster
    uint64_t ca = mapa32(sa(&cnt[0]), (r + 1) % n), gen, back, back_own;
    asm volatile("cvta.shared::cluster.u64 %0, %1;" : "=l"(gen) : "l"(ca));
    asm volatile("cvta.to.shared::cluster.u64 %0, %1;" : "=l"(back) : "l"(rem));
    asm volatile("cvta.to.shared::cluster.u64 %0, %1;" : "=l"(back_own) : "l"((const void *)&cnt[0]));
    o[452] = gen == (uint64_t)rem;
    o[453] = (uint32_t)back == (uint32_t)ca;
    o[454] = (uint32_t)back_own;
    o[455] = (uint32_t)(back >> 32);
    // ld.shared::cluster of an own shared::cta address reads the own block
    o[456] = ldc(sa(&buf[5]));
    // ld.shared::cta of the own address mapped to the own rank
    uint32_t v; asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(mapa32(sa(&buf[6]), r)));
    o[457] = v;
    o[458] = (uint32_t)((uint64_t)rem >> 32) == (uint32_t)((uint64_t)&cnt[0] >> 32);
  }
  // message passing: rank 0 warp 0 writes mp[] of rank 1, fence, flag
  if (r == 0 && tid < 32) {
    stc(mapa32(sa(&mp[tid]), 1), 7000 + tid);
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    __syncwarp();
    if (tid == 0) asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0], %1;" :: "r"(mapa32(sa(&flag), 1)), "r"(1u) : "memory");
  }
  if (r == 1 && tid < 32) {
    uint32_t f = 0, it = 0;
    while (it < 1000000) {
      asm volatile("ld.relaxed.cluster.shared::cluster.u32 %0, [%1];" : "=r"(f) : "r"(sa(&flag)) : "memory");
      if (f) break;
      it++;
    }
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    o[460 + tid] = f ? mp[tid] : 0xdead;
  }
  // split barrier: relaxed arrive, independent work, wait
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  o[500 + tid] = tid * 3;
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  // non-aligned barrier in divergent code (legal without .aligned)
  if (tid & 1) {
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  } else {
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
  }
  o[640 + tid] = 1;
}

// remote mbarrier: cluster of 2 x 64 threads. Rank 0 owns the barrier
// (count 64); the 64 threads of rank 1 write into rank 0's data and
// arrive remotely; rank 0 waits on the phase and reads the data.
__global__ void k_mbar(uint32_t *out) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ uint32_t data[64];
  uint32_t tid = threadIdx.x, r = rank_();
  if (r == 0 && tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(&bar)), "r"(64u) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  data[tid] = 0;
  csync();
  if (r == 1) {
    stc(mapa32(sa(&data[tid]), 0), 500 + tid);
    uint32_t rb = mapa32(sa(&bar), 0);
    if (tid < 32)
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(rb) : "memory");
    else if (tid == 32)
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" :: "r"(rb), "r"(32u) : "memory");
  } else {
    uint32_t ok = 0;
    for (int i = 0; i < 100000 && !ok; i++)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(sa(&bar)), "r"(0u) : "memory");
    out[tid] = ok ? data[tid] : 0xdead;
  }
  csync();
}

// the programming guide's style of a histogram in distributed shared
// memory, written for this test: each block of a cluster holds
// nbins/cluster bins; any thread adds into whichever block owns a bin.
__global__ void k_hist(uint32_t *bins, const uint32_t *in, int n, int nbins) {
  extern __shared__ uint32_t sh[];
  uint32_t csize = nrank_(), r = rank_();
  int per = nbins / (int)csize;
  for (int i = threadIdx.x; i < per; i += blockDim.x) sh[i] = 0;
  csync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = (int)(in[i] % (uint32_t)nbins);
    uint32_t dst = (uint32_t)(b / per), off = (uint32_t)(b % per);
    uint32_t *p = (uint32_t *)mapa64(&sh[off], dst);
    atomicAdd(p, 1u);
  }
  csync();
  for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&bins[r * per + i], sh[i]);
}

// ---- one-warp kernels for ncu ------------------------------------------
__global__ void k_ncu_ld_remote(uint32_t *out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = threadIdx.x;
  csync();
  if (rank_() == 0) out[threadIdx.x] = ldc(mapa32(sa(&s[threadIdx.x]), 1));
  csync();
}
__global__ void k_ncu_st_remote(uint32_t *out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = 0;
  csync();
  if (rank_() == 0) stc(mapa32(sa(&s[threadIdx.x]), 1), threadIdx.x);
  csync();
  if (rank_() == 1) out[threadIdx.x] = s[threadIdx.x];
}
__global__ void k_ncu_atom_remote(uint32_t *out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = 0;
  csync();
  if (rank_() == 0) out[threadIdx.x] = atomc(mapa32(sa(&s[threadIdx.x]), 1), 1);
  csync();
}
__global__ void k_ncu_ld_stride2_remote(uint32_t *out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = threadIdx.x;
  csync();
  if (rank_() == 0) out[threadIdx.x] = ldc(mapa32(sa(&s[threadIdx.x * 2]), 1));
  csync();
}
__global__ void k_ncu_ld_self_cluster(uint32_t *out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = threadIdx.x;
  csync();
  out[threadIdx.x] = ldc(mapa32(sa(&s[threadIdx.x]), rank_()));
  csync();
}

// ---- misuse --------------------------------------------------------------
// 0: remote load just past the target block's shared memory (512 B static)
// 1: remote load far past it (offset 1 MiB)
// 2: mapa to rank 5 in a cluster of 2, then a load
// 3: rank 1 exits at once; rank 0 reads rank 1's shared memory later
// 4: race: rank 0 stores into rank 1's s[], rank 1 reads s[] with no
//    cluster barrier in between
// 5: as 4 with barrier.cluster between the store and the read (no race)
// 6: a cluster barrier that cannot complete while warp 0 of rank 0 spins
//    on a flag rank 1 sets only after the barrier (bounded spin)
// 7: barrier.cluster.arrive/wait.aligned in divergent code (lanes 0-15 and
//    16-31 of warp 0 of rank 0 at different instructions)
// 8: misaligned remote load (shared::cluster address + 2)
// 9: remote store through a generic pointer past the end of the target
// 10: race through generic remote pointers: every block writes word 0 of
//     the next rank's s[] while that rank reads it (no barrier)
__global__ void k_bad(uint32_t *out, int c) {
  __shared__ uint32_t s[128];
  uint32_t tid = threadIdx.x, r = rank_();
  s[tid] = r * 100 + tid;
  __shared__ uint32_t flag;
  if (tid == 0) flag = 0;
  if (c == 3) {
    if (r == 1) return;
    if (tid == 0) {
      uint64_t t0 = clock64();
      while (clock64() - t0 < 20000000) {}
      out[0] = ldc(mapa32(sa(&s[3]), 1));
    }
    return;
  }
  if (c == 4 || c == 5 || c == 10) {
    __syncthreads();
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (c == 10) {
      uint32_t *p = (uint32_t *)mapa64(&s[0], (r + 1) % nrank_());
      if (tid == 0) *p = 77;
      out[r * 128 + tid] = s[0];
    } else {
      if (r == 0) stc(mapa32(sa(&s[tid]), 1), 900 + tid);
      if (c == 5) csync();
      if (r == 1) out[tid] = s[tid];
    }
    csync();
    return;
  }
  csync();
  if (c == 6) {
    uint32_t timed_out = 0;
    if (r == 0 && tid < 32) {
      uint32_t f = 0, it = 0;
      for (; it < 200000; it++) {
        asm volatile("ld.relaxed.cluster.shared::cta.u32 %0, [%1];" : "=r"(f) : "r"(sa(&flag)) : "memory");
        if (f) break;
      }
      timed_out = f == 0;
    }
    csync();
    if (r == 1 && tid == 0) stc(mapa32(sa(&flag), 0), 1);
    if (r == 0 && tid == 0) out[0] = timed_out;
    csync();
    return;
  }
  if (c == 7) {
    if (r == 0 && tid < 32) {
      if (tid < 16) {
        asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
        out[tid] = 1;
      } else {
        asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
        out[tid] = 2;
      }
    } else {
      asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    }
    csync();
    return;
  }
  if (r == 0 && tid == 0) {
    if (c == 0) out[0] = ldc(mapa32(sa(&s[0]), 1) + 512);
    if (c == 1) out[0] = ldc(mapa32(sa(&s[0]), 1) + (1u << 20));
    if (c == 2) out[0] = ldc(mapa32(sa(&s[0]), 5));
    if (c == 8) out[0] = ldc(mapa32(sa(&s[0]), 1) + 2);
    if (c == 9) ((uint32_t *)mapa64(&s[0], 1))[130] = 5;
  }
  csync();
}

// ---- host ------------------------------------------------------------------
static uint32_t *d_out, *h_out;
static const size_t OUTN = 1 << 20;

static void check_kernel_error(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s sync=%d %s\n", what, (int)e, cudaGetErrorName(e));
}

template <typename K>
static cudaError_t launch_ex(K k, dim3 g, dim3 b, dim3 c, size_t dyn, uint32_t *arg) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = g; cfg.blockDim = b; cfg.dynamicSmemBytes = dyn;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = c.x; at[0].val.clusterDim.y = c.y; at[0].val.clusterDim.z = c.z;
  cfg.attrs = at; cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, k, arg);
}

// prints the special registers of every block of a finished launch
static void dump_sregs(dim3 g) {
  cudaMemcpy(h_out, d_out, (size_t)g.x * g.y * g.z * 64, cudaMemcpyDeviceToHost);
  for (uint32_t b = 0; b < g.x * g.y * g.z; b++) {
    uint32_t *o = h_out + b * 16;
    printf("  blk %u: cctaid %u %u %u cnctaid %u %u %u rank %u nrank %u cid %u %u %u ncid %u %u %u expl %u b %u\n", b,
           o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15]);
  }
}

template <typename K>
static void case_ex(const char *name, K k, dim3 g, dim3 b, dim3 c, size_t dyn) {
  cudaMemset(d_out, 0xff, 1 << 16);
  cudaError_t e = launch_ex(k, g, b, c, dyn, d_out);
  cudaError_t last = cudaGetLastError();
  printf("case %s grid %u %u %u block %u cluster %u %u %u dyn %zu: launch=%d %s last=%d\n", name, g.x, g.y, g.z, b.x, c.x,
         c.y, c.z, dyn, (int)e, cudaGetErrorName(e), (int)last);
  check_kernel_error(name);
  if (e == cudaSuccess && g.x * g.y * g.z <= 64) dump_sregs(g);
}

template <typename K>
static void case_chevron(const char *name, K k, dim3 g, dim3 b) {
  cudaMemset(d_out, 0xff, 1 << 16);
  k<<<g, b>>>(d_out);
  cudaError_t e = cudaGetLastError();
  printf("case %s grid %u %u %u block %u chevron: launch=%d %s\n", name, g.x, g.y, g.z, b.x, (int)e, cudaGetErrorName(e));
  check_kernel_error(name);
  if (e == cudaSuccess && g.x * g.y * g.z <= 64) dump_sregs(g);
}

static void print_attrs(const char *name, const void *k) {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, k);
  printf("attrs %s: rc=%d mustset %d req %d %d %d policy %d nonportable %d maxdyn %d\n", name, (int)e,
         a.clusterDimMustBeSet, a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth,
         a.clusterSchedulingPolicyPreference, a.nonPortableClusterSizeAllowed, a.maxDynamicSharedSizeBytes);
}

static void mode_launch() {
  int v = -1;
  cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0);
  printf("cudaDevAttrClusterLaunch %d\n", v);
  print_attrs("k_sreg", (const void *)k_sreg);
  print_attrs("k_sreg_cd", (const void *)k_sreg_cd);
  print_attrs("k_sreg_mr", (const void *)k_sreg_mr);
  dim3 b32(32), b1024(1024);
  case_ex("c2", k_sreg, dim3(8), b32, dim3(2, 1, 1), 0);
  case_ex("c2x1x2", k_sreg, dim3(4, 2, 2), b32, dim3(2, 1, 2), 0);
  case_ex("c1", k_sreg, dim3(4), b32, dim3(1, 1, 1), 0);
  case_ex("c0", k_sreg, dim3(4), b32, dim3(0, 0, 0), 0);
  case_ex("c0x1x1", k_sreg, dim3(4), b32, dim3(0, 1, 1), 0);
  case_ex("notdiv", k_sreg, dim3(6), b32, dim3(4, 1, 1), 0);
  case_ex("notdiv_y", k_sreg, dim3(4, 3), b32, dim3(1, 2, 1), 0);
  case_ex("c3", k_sreg, dim3(9), b32, dim3(3, 1, 1), 0);
  case_ex("c8", k_sreg, dim3(16), b32, dim3(8, 1, 1), 0);
  case_ex("c2x2x2", k_sreg, dim3(4, 4, 2), b32, dim3(2, 2, 2), 0);
  case_ex("c16_portable", k_sreg, dim3(16), b32, dim3(16, 1, 1), 0);
  cudaError_t e = cudaFuncSetAttribute(k_sreg, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  printf("set nonportable=1: %d %s\n", (int)e, cudaGetErrorName(e));
  print_attrs("k_sreg", (const void *)k_sreg);
  case_ex("c16", k_sreg, dim3(16), b32, dim3(16, 1, 1), 0);
  case_ex("c4x4", k_sreg, dim3(8, 8), b32, dim3(4, 4, 1), 0);
  case_ex("c12", k_sreg, dim3(24), b32, dim3(12, 1, 1), 0);
  case_ex("c32", k_sreg, dim3(32), b32, dim3(32, 1, 1), 0);
  case_ex("c17", k_sreg, dim3(17), b32, dim3(17, 1, 1), 0);
  case_ex("c16_b1024", k_sreg, dim3(16), b1024, dim3(16, 1, 1), 0);
  e = cudaFuncSetAttribute(k_sreg, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448);
  printf("set maxdyn=232448: %d %s\n", (int)e, cudaGetErrorName(e));
  case_ex("c2_dyn200k", k_sreg, dim3(8), b32, dim3(2, 1, 1), 200 * 1024);
  case_ex("c8_dyn227k", k_sreg, dim3(16), b32, dim3(8, 1, 1), 232448);
  case_ex("c16_dyn227k", k_sreg, dim3(16), b32, dim3(16, 1, 1), 232448);
  case_ex("c16_dyn227k_b1024", k_sreg, dim3(16), b1024, dim3(16, 1, 1), 232448);
  case_ex("c8_dyn_over", k_sreg, dim3(16), b32, dim3(8, 1, 1), 232448 + 1024);
  e = cudaFuncSetAttribute(k_sreg, cudaFuncAttributeNonPortableClusterSizeAllowed, 0);
  printf("set nonportable=0: %d %s\n", (int)e, cudaGetErrorName(e));
  case_ex("c16_again_portable", k_sreg, dim3(16), b32, dim3(16, 1, 1), 0);
  e = cudaFuncSetAttribute(k_sreg, cudaFuncAttributeNonPortableClusterSizeAllowed, 2);
  printf("set nonportable=2: %d %s\n", (int)e, cudaGetErrorName(e));
  // compile-time cluster dims (2,2,1)
  case_chevron("cd_chevron", k_sreg_cd, dim3(4, 4), b32);
  case_chevron("cd_chevron_notdiv", k_sreg_cd, dim3(3, 4), b32);
  case_ex("cd_ex_same", k_sreg_cd, dim3(4, 4), b32, dim3(2, 2, 1), 0);
  case_ex("cd_ex_other", k_sreg_cd, dim3(4, 4), b32, dim3(4, 1, 1), 0);
  e = cudaFuncSetAttribute(k_sreg_cd, cudaFuncAttributeRequiredClusterWidth, 4);
  printf("cd set width=4: %d %s\n", (int)e, cudaGetErrorName(e));
  e = cudaFuncSetAttribute(k_sreg_cd, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  printf("cd set nonportable=1: %d %s\n", (int)e, cudaGetErrorName(e));
  // .maxclusterrank 4
  case_ex("mr_c4", k_sreg_mr, dim3(8), b32, dim3(4, 1, 1), 0);
  case_ex("mr_c8", k_sreg_mr, dim3(8), b32, dim3(8, 1, 1), 0);
  case_chevron("mr_chevron", k_sreg_mr, dim3(8), b32);
  // cluster dims set at run time on a plain kernel
  e = cudaFuncSetAttribute(k_sreg2, cudaFuncAttributeRequiredClusterWidth, 2);
  printf("k2 set width=2: %d %s\n", (int)e, cudaGetErrorName(e));
  print_attrs("k_sreg2", (const void *)k_sreg2);
  e = cudaFuncSetAttribute(k_sreg2, cudaFuncAttributeRequiredClusterHeight, 1);
  printf("k2 set height=1: %d %s\n", (int)e, cudaGetErrorName(e));
  e = cudaFuncSetAttribute(k_sreg2, cudaFuncAttributeRequiredClusterDepth, 1);
  printf("k2 set depth=1: %d %s\n", (int)e, cudaGetErrorName(e));
  print_attrs("k_sreg2", (const void *)k_sreg2);
  case_chevron("k2_chevron", k_sreg2, dim3(8), b32);
  case_chevron("k2_chevron_odd", k_sreg2, dim3(7), b32);
  case_ex("k2_ex_c4", k_sreg2, dim3(8), b32, dim3(4, 1, 1), 0);
  e = cudaFuncSetAttribute(k_sreg2, cudaFuncAttributeClusterSchedulingPolicyPreference, (int)cudaClusterSchedulingPolicySpread);
  printf("k2 set policy=spread: %d %s\n", (int)e, cudaGetErrorName(e));
  // plain chevron launch of a plain kernel: implicit clusters of one
  case_chevron("plain_chevron", k_sreg, dim3(4), b32);
  // cuLaunchKernelEx
  cudaFunction_t f;
  e = cudaGetFuncBySymbol(&f, (const void *)k_sreg);
  printf("cudaGetFuncBySymbol: %d\n", (int)e);
  unsigned cds[3][4] = {{2, 1, 1, 8}, {3, 1, 1, 8}, {32, 1, 1, 32}};
  for (int i = 0; i < 3; i++) {
    cudaMemset(d_out, 0xff, 1 << 16);
    CUlaunchConfig cfg = {};
    cfg.gridDimX = cds[i][3]; cfg.gridDimY = 1; cfg.gridDimZ = 1;
    cfg.blockDimX = 32; cfg.blockDimY = 1; cfg.blockDimZ = 1;
    CUlaunchAttribute at[1];
    at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    at[0].value.clusterDim.x = cds[i][0]; at[0].value.clusterDim.y = cds[i][1]; at[0].value.clusterDim.z = cds[i][2];
    cfg.attrs = at; cfg.numAttrs = 1;
    void *params[] = {&d_out};
    CUresult r = cuLaunchKernelEx(&cfg, (CUfunction)f, params, nullptr);
    const char *nm = "?";
    cuGetErrorName(r, &nm);
    printf("case cu_c%u grid %u: cuLaunchKernelEx=%d %s\n", cds[i][0], cds[i][3], (int)r, nm);
    check_kernel_error("cu");
    if (r == CUDA_SUCCESS) dump_sregs(dim3(cds[i][3]));
  }
}

static void mode_occ() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("sms %d\n", sms);
  cudaFuncSetAttribute(k_sreg, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448);
  unsigned sizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 32};
  int blocks[] = {32, 128, 256, 1024};
  size_t dyns[] = {0, 64 * 1024, 100 * 1024, 200 * 1024, 232448};
  for (int np = 0; np < 2; np++) {
    cudaFuncSetAttribute(k_sreg, cudaFuncAttributeNonPortableClusterSizeAllowed, np);
    for (unsigned cs : sizes)
      for (int bs : blocks)
        for (size_t dyn : dyns) {
          cudaLaunchConfig_t cfg = {};
          cfg.gridDim = dim3(cs * 4); cfg.blockDim = dim3(bs); cfg.dynamicSmemBytes = dyn;
          cudaLaunchAttribute at[1];
          at[0].id = cudaLaunchAttributeClusterDimension;
          at[0].val.clusterDim.x = cs; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
          cfg.attrs = at; cfg.numAttrs = 1;
          int n = -1;
          cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void *)k_sreg, &cfg);
          cudaGetLastError();
          printf("maxactive np %d cluster %u block %d dyn %zu: rc=%d %s n=%d\n", np, cs, bs, dyn, (int)e,
                 cudaGetErrorName(e), n);
        }
    for (int bs : blocks)
      for (size_t dyn : dyns) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(64); cfg.blockDim = dim3(bs); cfg.dynamicSmemBytes = dyn;
        int n = -1;
        cudaError_t e = cudaOccupancyMaxPotentialClusterSize(&n, (void *)k_sreg, &cfg);
        cudaGetLastError();
        printf("potential np %d block %d dyn %zu: rc=%d %s n=%d\n", np, bs, dyn, (int)e, cudaGetErrorName(e), n);
      }
  }
  // a kernel with compile-time dims, no launch attribute
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4, 4); cfg.blockDim = dim3(128);
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, (void *)k_sreg_cd, &cfg);
  printf("maxactive cd noattr: rc=%d %s n=%d\n", (int)e, cudaGetErrorName(e), n);
  n = -1;
  e = cudaOccupancyMaxPotentialClusterSize(&n, (void *)k_sreg_cd, &cfg);
  printf("potential cd: rc=%d %s n=%d\n", (int)e, cudaGetErrorName(e), n);
  n = -1;
  cfg.gridDim = dim3(8);
  e = cudaOccupancyMaxActiveClusters(&n, (void *)k_sreg, &cfg);
  printf("maxactive plain noattr: rc=%d %s n=%d\n", (int)e, cudaGetErrorName(e), n);
  cudaGetLastError();
  int nb = -1;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k_sreg, 1024, 0);
  printf("blocks/SM b1024: rc=%d n=%d\n", (int)e, nb);
}

static void mode_dsmem() {
  uint32_t *d_dummy;
  cudaMalloc(&d_dummy, 64);
  cudaMemset(d_out, 0xff, 8 * OUTW * 4);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8); cfg.blockDim = dim3(128);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 4; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at; cfg.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&cfg, k_dsmem, d_out, d_dummy);
  printf("dsmem launch=%d %s\n", (int)e, cudaGetErrorName(e));
  check_kernel_error("dsmem");
  cudaMemcpy(h_out, d_out, 8 * OUTW * 4, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 8; b++) {
    uint32_t *o = h_out + b * OUTW;
    printf("block %d:", b);
    for (int i = 0; i < 704; i++) printf(" %u", o[i]);
    printf("\n");
  }
  cudaMemset(d_out, 0xff, 4096);
  e = launch_ex(k_mbar, dim3(4), dim3(64), dim3(2, 1, 1), 0, d_out);
  printf("mbar launch=%d %s\n", (int)e, cudaGetErrorName(e));
  check_kernel_error("mbar");
  cudaMemcpy(h_out, d_out, 256, cudaMemcpyDeviceToHost);
  printf("mbar:");
  for (int i = 0; i < 64; i++) printf(" %u", h_out[i]);
  printf("\n");
  // histogram
  const int n = 1 << 16, nbins = 1024;
  uint32_t *in = (uint32_t *)malloc(n * 4), *ref = (uint32_t *)calloc(nbins, 4);
  uint32_t x = 12345;
  for (int i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    in[i] = x >> 8;
    ref[in[i] % nbins]++;
  }
  uint32_t *d_in, *d_bins;
  cudaMalloc(&d_in, n * 4);
  cudaMalloc(&d_bins, nbins * 4);
  cudaMemcpy(d_in, in, n * 4, cudaMemcpyHostToDevice);
  for (unsigned cs = 1; cs <= 8; cs *= 2) {
    cudaMemset(d_bins, 0, nbins * 4);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(16); cfg.blockDim = dim3(256); cfg.dynamicSmemBytes = nbins / cs * 4;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cs; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    e = cudaLaunchKernelEx(&cfg, k_hist, d_bins, (const uint32_t *)d_in, n, nbins);
    cudaError_t s = cudaDeviceSynchronize();
    cudaMemcpy(h_out, d_bins, nbins * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    uint64_t sum = 0;
    // bins are summed over the grid's clusters: each cluster counts its
    // own blocks' elements into its own shared bins
    for (int i = 0; i < nbins; i++) { bad += h_out[i] != ref[i]; sum += h_out[i]; }
    printf("hist cluster %u: launch=%d sync=%d mismatches %d total %llu bin0 %u bin1023 %u\n", cs, (int)e, (int)s, bad,
           (unsigned long long)sum, h_out[0], h_out[1023]);
  }
}

static void mode_ncu() {
  cudaError_t e;
  e = launch_ex(k_ncu_ld_remote, dim3(2), dim3(32), dim3(2, 1, 1), 0, d_out);
  printf("ld_remote %d\n", (int)e);
  e = launch_ex(k_ncu_st_remote, dim3(2), dim3(32), dim3(2, 1, 1), 0, d_out);
  printf("st_remote %d\n", (int)e);
  e = launch_ex(k_ncu_atom_remote, dim3(2), dim3(32), dim3(2, 1, 1), 0, d_out);
  printf("atom_remote %d\n", (int)e);
  e = launch_ex(k_ncu_ld_stride2_remote, dim3(2), dim3(32), dim3(2, 1, 1), 0, d_out);
  printf("ld_stride2_remote %d\n", (int)e);
  e = launch_ex(k_ncu_ld_self_cluster, dim3(2), dim3(32), dim3(2, 1, 1), 0, d_out);
  printf("ld_self_cluster %d\n", (int)e);
  check_kernel_error("ncu");
}

static void mode_bad(int c) {
  cudaMemset(d_out, 0xff, 4096);
  cudaError_t e = cudaSuccess;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2); cfg.blockDim = dim3(128);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at; cfg.numAttrs = 1;
  e = cudaLaunchKernelEx(&cfg, k_bad, d_out, c);
  printf("bad %d launch=%d %s\n", c, (int)e, cudaGetErrorName(e));
  cudaError_t s = cudaDeviceSynchronize();
  printf("bad %d sync=%d %s\n", c, (int)s, cudaGetErrorName(s));
  if (s == cudaSuccess) {
    cudaMemcpy(h_out, d_out, 1024, cudaMemcpyDeviceToHost);
    printf("bad %d out:", c);
    for (int i = 0; i < 256; i++) printf(" %u", h_out[i]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: cluster launch|occ|dsmem|ncu|bad N\n"); return 2; }
  cudaMalloc(&d_out, OUTN * 4);
  h_out = (uint32_t *)malloc(OUTN * 4);
  if (!strcmp(argv[1], "launch")) mode_launch();
  else if (!strcmp(argv[1], "occ")) mode_occ();
  else if (!strcmp(argv[1], "dsmem")) mode_dsmem();
  else if (!strcmp(argv[1], "ncu")) mode_ncu();
  else if (!strcmp(argv[1], "bad") && argc > 2) mode_bad(atoi(argv[2]));
  else { fprintf(stderr, "unknown mode\n"); return 2; }
  return 0;
}
