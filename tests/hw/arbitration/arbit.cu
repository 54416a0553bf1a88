// arbit.cu: one probe kernel whose shared-memory accesses are fixed by
// construction (inline PTX, so ptxas neither merges nor drops them), run in
// configurations that vary one factor at a time: resident warps per SM (one
// block, one block per SM of 1-32 warps, several blocks per SM, several
// waves), global traffic through L1 between the shared accesses (none,
// ld.global.ca hitting a 16 KB table, ld.global.ca and .cg streaming from a
// 128 MB array, ld.global.cg hitting L2, st.global), the access mix (LDS,
// STS, LDS+STS, LDS.128) and the address pattern (conflict-free, 2-way).
// Every warp does the same: 8 STS.32 to set its 1 KB region, then ITERS
// iterations of its mix, so one block's counts times the number of warps
// are the counts the addresses give; whatever a launch has beyond that is
// what the GPU adds.
// Usage: arbit [REPS] [ONLY]  (REPS launches of each configuration, default
// 5; ONLY: a comma-separated list of configuration names or prefixes)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 128
#define SMALL 4096              // floats in the table that stays in L1
#define STREAM (32u << 20)      // floats in the streamed arrays (128 MB)

enum { M_LD, M_ST, M_LDST, M_LD128 };
enum { T_NONE, T_CA_HIT, T_CA_MISS, T_CG_MISS, T_CG_HIT, T_ST };
static const char *const mix_name[] = {"ld", "st", "ldst", "ld128"};
static const char *const traffic_name[] = {"none", "ca_hit", "ca_miss", "cg_miss", "cg_hit", "st"};

__device__ static float lds(unsigned a) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
  return v;
}
__device__ static float lds128(unsigned a) {
  float x, y, z, w;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "r"(a) : "memory");
  return x + y + z + w;
}
// Volatile forms, so that ptxas keeps repeated accesses to one word.
__device__ static float ldsv(unsigned a) {
  float v;
  asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
  return v;
}
__device__ static void stsv(unsigned a, float v) {
  asm volatile("st.volatile.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
}
__device__ static void sts(unsigned a, float v) { asm volatile("st.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory"); }
__device__ static float ldca(const float *p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}
__device__ static float ldcg(const float *p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}
__device__ static void stg(float *p, float v) { asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory"); }

// Each warp owns 256 floats (1 KB) of the dynamic shared memory.
__global__ void probe(const float *tab, const float *stream, float *sink, float *out, int mix, int stride,
                      int traffic, int gk) {
  extern __shared__ __align__(16) float s[];
  unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  unsigned g = blockIdx.x * blockDim.x + t, nthreads = gridDim.x * blockDim.x;
  float *mine = s + w * 256;
  for (int k = 0; k < 8; k++) mine[lane + 32 * k] = (float)((lane + k) & 7);
  __syncwarp();
  unsigned base = (unsigned)__cvta_generic_to_shared(mine);
  unsigned a = base + 4 * lane * stride;          // 32-bit loads
  unsigned a4 = base + 16 * lane * stride;        // 128-bit loads
  unsigned ast = base + 512 + 4 * lane * stride;  // 32-bit stores (upper half)
  float acc = 0;
  for (int it = 0; it < ITERS; it++) {
    if (mix == M_LD || mix == M_LDST) acc += lds(a);
    if (mix == M_LD128) acc += lds128(a4);
    if (mix == M_ST || mix == M_LDST) sts(ast, acc + (float)it);
    if (traffic != T_NONE && (it & (gk - 1)) == 0) {
      unsigned si = (g + (unsigned)it * nthreads) & (STREAM - 1), ti = (g * 33u + (unsigned)it * 129u) & (SMALL - 1);
      if (traffic == T_CA_HIT) acc += ldca(tab + ti);
      else if (traffic == T_CA_MISS) acc += ldca(stream + si);
      else if (traffic == T_CG_MISS) acc += ldcg(stream + si);
      else if (traffic == T_CG_HIT) acc += ldcg(tab + ti);
      else stg(sink + si, acc);
    }
  }
  out[g] = acc;
}

// K independent shared accesses back to back per iteration (mix ld: K
// LDS.32 over the region's 8 rows, st: K STS.32 over its upper 4 rows, all
// conflict-free and volatile, so that ptxas keeps every one), then one
// global access of the traffic kind: how many accesses a warp has in
// flight at once.
template <int K>
__global__ void burst(const float *tab, const float *stream, float *sink, float *out, int mix, int traffic) {
  extern __shared__ __align__(16) float s[];
  unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  unsigned g = blockIdx.x * blockDim.x + t, nthreads = gridDim.x * blockDim.x;
  float *mine = s + w * 256;
  for (int k = 0; k < 8; k++) mine[lane + 32 * k] = (float)((lane + k) & 7);
  __syncwarp();
  unsigned base = (unsigned)__cvta_generic_to_shared(mine) + 4 * lane;
  float acc = 0;
  for (int it = 0; it < ITERS; it++) {
    if (mix == M_LD) {
      float v[K];
#pragma unroll
      for (int k = 0; k < K; k++) v[k] = ldsv(base + 128 * (k & 7));
#pragma unroll
      for (int k = 0; k < K; k++) acc += v[k];
    } else {
#pragma unroll
      for (int k = 0; k < K; k++) stsv(base + 512 + 128 * (k & 3), acc + (float)(it + k));
    }
    if (traffic != T_NONE) {
      unsigned si = (g + (unsigned)it * nthreads) & (STREAM - 1), ti = (g * 33u + (unsigned)it * 129u) & (SMALL - 1);
      if (traffic == T_CA_HIT) acc += ldca(tab + ti);
      else if (traffic == T_CA_MISS) acc += ldca(stream + si);
      else if (traffic == T_CG_MISS) acc += ldcg(stream + si);
    }
  }
  out[g] = acc;
}

// A loop of one STS.32 (conflict-free) and, chosen at compile time (no
// switch, so no jump table), an L1-cached global load (CA), an indexed
// constant load (LDC: ld.const with a register address), or both. The
// probe's switch over the traffic kinds is a jump table (an indexed LDC
// and a BRX per iteration) on the path of its two .ca kinds only.
#define PK_CA 1
#define PK_LDC 2
__constant__ float ctab[64];
template <int KIND>
__global__ void pure(const float *tab, float *out) {
  extern __shared__ __align__(16) float s[];
  unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;
  unsigned g = blockIdx.x * blockDim.x + t;
  float *mine = s + w * 256;
  for (int k = 0; k < 8; k++) mine[lane + 32 * k] = (float)((lane + k) & 7);
  __syncwarp();
  unsigned ast = (unsigned)__cvta_generic_to_shared(mine) + 512 + 4 * lane;
  float acc = 0;
  for (int it = 0; it < ITERS; it++) {
    sts(ast, acc + (float)it);
    if (KIND & PK_CA) acc += ldca(tab + ((g * 33u + (unsigned)it * 129u) & (SMALL - 1)));
    if (KIND & PK_LDC) acc += ctab[(unsigned)(it * 7 + (int)lane) & 63];
  }
  out[g] = acc;
}

// What out[g] must be: the loaded shared words hold (lane + k) & 7 and
// every global word holds 1.
static float expect(unsigned lane, int mix, int stride, int traffic, int gk) {
  float ld = 0;
  if (mix == M_LD || mix == M_LDST) {
    unsigned i = lane * stride;
    ld = (float)(((i & 31) + i / 32) & 7);
  } else if (mix == M_LD128) {
    for (unsigned i = 4 * lane * stride; i < 4 * lane * stride + 4; i++) ld += (float)(((i & 31) + i / 32) & 7);
  }
  int nglob = (traffic != T_NONE && traffic != T_ST) ? (ITERS + gk - 1) / gk : 0;
  return ld * ITERS + (float)nglob;
}

// What burst<K> writes: K loads of words (lane + (k & 7)) & 7 per
// iteration (mix ld) and one global word of 1 per iteration with loads.
static float expect_burst(unsigned lane, int k_n, int mix, int traffic) {
  float ld = 0;
  if (mix == M_LD)
    for (int k = 0; k < k_n; k++) ld += (float)((lane + (k & 7)) & 7);
  int nglob = (traffic == T_CA_HIT || traffic == T_CA_MISS || traffic == T_CG_MISS) ? ITERS : 0;
  return ld * ITERS + (float)nglob;
}

// What pure<KIND> writes: 1 per global load, ctab[j] = j & 3 per constant
// load (j = (it * 7 + lane) & 63).
static float expect_pure(unsigned lane, int kind) {
  float a = 0;
  for (int it = 0; it < ITERS; it++) {
    if (kind & PK_CA) a += 1.0f;
    if (kind & PK_LDC) a += (float)(((unsigned)(it * 7) + lane) & 63 & 3);
  }
  return a;
}

static void ck(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "arbit: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

// A configuration: blocks per SM (grid = that times the SMs; 0: one
// block), warps per block, mix, stride in words (1: conflict-free, 2:
// 2-way), traffic, one global access every gk iterations.
struct cfg {
  const char *name;
  int per_sm, warps, mix, stride, traffic, gk;
  int burst; /* 0: probe; K: burst<K> (stride 1, gk 1); -1..-3: pure<1..3> */
};

static const struct cfg cfgs[] = {
    // resident warps, no global traffic, LDS+STS, conflict-free and 2-way
    {"res_b1_w1_s1", 0, 1, M_LDST, 1, T_NONE, 1},
    {"res_b1_w8_s1", 0, 8, M_LDST, 1, T_NONE, 1},
    {"res_b1_w32_s1", 0, 32, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w1_s1", 1, 1, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w2_s1", 1, 2, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w4_s1", 1, 4, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w8_s1", 1, 8, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w16_s1", 1, 16, M_LDST, 1, T_NONE, 1},
    {"res_sm1_w32_s1", 1, 32, M_LDST, 1, T_NONE, 1},
    {"res_sm4_w8_s1", 4, 8, M_LDST, 1, T_NONE, 1},
    {"res_sm8_w8_s1", 8, 8, M_LDST, 1, T_NONE, 1},
    {"res_sm32_w8_s1", 32, 8, M_LDST, 1, T_NONE, 1},
    {"res_b1_w1_s2", 0, 1, M_LDST, 2, T_NONE, 1},
    {"res_b1_w8_s2", 0, 8, M_LDST, 2, T_NONE, 1},
    {"res_b1_w32_s2", 0, 32, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w1_s2", 1, 1, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w2_s2", 1, 2, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w4_s2", 1, 4, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w8_s2", 1, 8, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w16_s2", 1, 16, M_LDST, 2, T_NONE, 1},
    {"res_sm1_w32_s2", 1, 32, M_LDST, 2, T_NONE, 1},
    {"res_sm4_w8_s2", 4, 8, M_LDST, 2, T_NONE, 1},
    {"res_sm8_w8_s2", 8, 8, M_LDST, 2, T_NONE, 1},
    {"res_sm32_w8_s2", 32, 8, M_LDST, 2, T_NONE, 1},
    // global traffic, LDS+STS conflict-free: one block, 1 warp per SM, 8
    // warps per SM, 64 warps per SM
    {"trf_b1_w8_ca_hit", 0, 8, M_LDST, 1, T_CA_HIT, 1},
    {"trf_b1_w8_ca_miss", 0, 8, M_LDST, 1, T_CA_MISS, 1},
    {"trf_b1_w8_cg_miss", 0, 8, M_LDST, 1, T_CG_MISS, 1},
    {"trf_b1_w8_cg_hit", 0, 8, M_LDST, 1, T_CG_HIT, 1},
    {"trf_b1_w8_st", 0, 8, M_LDST, 1, T_ST, 1},
    {"trf_sm1_w1_ca_hit", 1, 1, M_LDST, 1, T_CA_HIT, 1},
    {"trf_sm1_w1_ca_miss", 1, 1, M_LDST, 1, T_CA_MISS, 1},
    {"trf_sm1_w1_cg_miss", 1, 1, M_LDST, 1, T_CG_MISS, 1},
    {"trf_sm1_w1_cg_hit", 1, 1, M_LDST, 1, T_CG_HIT, 1},
    {"trf_sm1_w1_st", 1, 1, M_LDST, 1, T_ST, 1},
    {"trf_sm1_w8_ca_hit", 1, 8, M_LDST, 1, T_CA_HIT, 1},
    {"trf_sm1_w8_ca_miss", 1, 8, M_LDST, 1, T_CA_MISS, 1},
    {"trf_sm1_w8_cg_miss", 1, 8, M_LDST, 1, T_CG_MISS, 1},
    {"trf_sm1_w8_cg_hit", 1, 8, M_LDST, 1, T_CG_HIT, 1},
    {"trf_sm1_w8_st", 1, 8, M_LDST, 1, T_ST, 1},
    {"trf_sm8_w8_ca_hit", 8, 8, M_LDST, 1, T_CA_HIT, 1},
    {"trf_sm8_w8_ca_miss", 8, 8, M_LDST, 1, T_CA_MISS, 1},
    {"trf_sm8_w8_cg_miss", 8, 8, M_LDST, 1, T_CG_MISS, 1},
    {"trf_sm8_w8_cg_hit", 8, 8, M_LDST, 1, T_CG_HIT, 1},
    {"trf_sm8_w8_st", 8, 8, M_LDST, 1, T_ST, 1},
    {"trf_sm8_w8_ca_hit_gk4", 8, 8, M_LDST, 1, T_CA_HIT, 4},
    {"trf_sm8_w8_ca_miss_gk4", 8, 8, M_LDST, 1, T_CA_MISS, 4},
    {"trf_sm8_w8_ca_hit_s2", 8, 8, M_LDST, 2, T_CA_HIT, 1},
    {"trf_sm8_w8_ca_miss_s2", 8, 8, M_LDST, 2, T_CA_MISS, 1},
    {"trf_sm8_w8_cg_miss_s2", 8, 8, M_LDST, 2, T_CG_MISS, 1},
    {"trf_sm8_w8_st_s2", 8, 8, M_LDST, 2, T_ST, 1},
    // access mix at 64 warps per SM: no traffic, L1 hits, L1 misses
    {"mix_ld_s1_none", 8, 8, M_LD, 1, T_NONE, 1},
    {"mix_ld_s2_none", 8, 8, M_LD, 2, T_NONE, 1},
    {"mix_ld_s1_ca_hit", 8, 8, M_LD, 1, T_CA_HIT, 1},
    {"mix_ld_s2_ca_hit", 8, 8, M_LD, 2, T_CA_HIT, 1},
    {"mix_ld_s1_ca_miss", 8, 8, M_LD, 1, T_CA_MISS, 1},
    {"mix_ld_s2_ca_miss", 8, 8, M_LD, 2, T_CA_MISS, 1},
    {"mix_st_s1_none", 8, 8, M_ST, 1, T_NONE, 1},
    {"mix_st_s2_none", 8, 8, M_ST, 2, T_NONE, 1},
    {"mix_st_s1_ca_hit", 8, 8, M_ST, 1, T_CA_HIT, 1},
    {"mix_st_s2_ca_hit", 8, 8, M_ST, 2, T_CA_HIT, 1},
    {"mix_st_s1_ca_miss", 8, 8, M_ST, 1, T_CA_MISS, 1},
    {"mix_st_s2_ca_miss", 8, 8, M_ST, 2, T_CA_MISS, 1},
    {"mix_ld128_s1_none", 8, 8, M_LD128, 1, T_NONE, 1},
    {"mix_ld128_s2_none", 8, 8, M_LD128, 2, T_NONE, 1},
    {"mix_ld128_s1_ca_hit", 8, 8, M_LD128, 1, T_CA_HIT, 1},
    {"mix_ld128_s2_ca_hit", 8, 8, M_LD128, 2, T_CA_HIT, 1},
    {"mix_ld128_s1_ca_miss", 8, 8, M_LD128, 1, T_CA_MISS, 1},
    {"mix_ld128_s2_ca_miss", 8, 8, M_LD128, 2, T_CA_MISS, 1},
    // one block of each mix with traffic: the counts the addresses give
    {"mix_b1_ld128_s2_ca_miss", 0, 8, M_LD128, 2, T_CA_MISS, 1},
    {"mix_b1_ld_s2_ca_hit", 0, 8, M_LD, 2, T_CA_HIT, 1},
    {"mix_b1_st_s2_ca_hit", 0, 8, M_ST, 2, T_CA_HIT, 1},
    // back-to-back shared accesses (burst<K>): 64 and 8 warps per SM, one
    // block
    {"ilp_sm8_ld_k1_none", 8, 8, M_LD, 1, T_NONE, 1, 1},
    {"ilp_sm8_ld_k1_ca_hit", 8, 8, M_LD, 1, T_CA_HIT, 1, 1},
    {"ilp_sm8_ld_k1_ca_miss", 8, 8, M_LD, 1, T_CA_MISS, 1, 1},
    {"ilp_sm8_ld_k1_cg_miss", 8, 8, M_LD, 1, T_CG_MISS, 1, 1},
    {"ilp_sm8_ld_k4_none", 8, 8, M_LD, 1, T_NONE, 1, 4},
    {"ilp_sm8_ld_k4_ca_hit", 8, 8, M_LD, 1, T_CA_HIT, 1, 4},
    {"ilp_sm8_ld_k4_ca_miss", 8, 8, M_LD, 1, T_CA_MISS, 1, 4},
    {"ilp_sm8_ld_k4_cg_miss", 8, 8, M_LD, 1, T_CG_MISS, 1, 4},
    {"ilp_sm8_ld_k16_none", 8, 8, M_LD, 1, T_NONE, 1, 16},
    {"ilp_sm8_ld_k16_ca_hit", 8, 8, M_LD, 1, T_CA_HIT, 1, 16},
    {"ilp_sm8_ld_k16_ca_miss", 8, 8, M_LD, 1, T_CA_MISS, 1, 16},
    {"ilp_sm8_ld_k16_cg_miss", 8, 8, M_LD, 1, T_CG_MISS, 1, 16},
    {"ilp_sm8_st_k1_none", 8, 8, M_ST, 1, T_NONE, 1, 1},
    {"ilp_sm8_st_k1_ca_hit", 8, 8, M_ST, 1, T_CA_HIT, 1, 1},
    {"ilp_sm8_st_k1_ca_miss", 8, 8, M_ST, 1, T_CA_MISS, 1, 1},
    {"ilp_sm8_st_k1_cg_miss", 8, 8, M_ST, 1, T_CG_MISS, 1, 1},
    {"ilp_sm8_st_k4_none", 8, 8, M_ST, 1, T_NONE, 1, 4},
    {"ilp_sm8_st_k4_ca_hit", 8, 8, M_ST, 1, T_CA_HIT, 1, 4},
    {"ilp_sm8_st_k4_ca_miss", 8, 8, M_ST, 1, T_CA_MISS, 1, 4},
    {"ilp_sm8_st_k4_cg_miss", 8, 8, M_ST, 1, T_CG_MISS, 1, 4},
    {"ilp_sm8_st_k16_none", 8, 8, M_ST, 1, T_NONE, 1, 16},
    {"ilp_sm8_st_k16_ca_hit", 8, 8, M_ST, 1, T_CA_HIT, 1, 16},
    {"ilp_sm8_st_k16_ca_miss", 8, 8, M_ST, 1, T_CA_MISS, 1, 16},
    {"ilp_sm8_st_k16_cg_miss", 8, 8, M_ST, 1, T_CG_MISS, 1, 16},
    {"ilp_sm1_ld_k1_none", 1, 8, M_LD, 1, T_NONE, 1, 1},
    {"ilp_sm1_ld_k1_ca_hit", 1, 8, M_LD, 1, T_CA_HIT, 1, 1},
    {"ilp_sm1_ld_k1_ca_miss", 1, 8, M_LD, 1, T_CA_MISS, 1, 1},
    {"ilp_sm1_ld_k1_cg_miss", 1, 8, M_LD, 1, T_CG_MISS, 1, 1},
    {"ilp_sm1_ld_k4_none", 1, 8, M_LD, 1, T_NONE, 1, 4},
    {"ilp_sm1_ld_k4_ca_hit", 1, 8, M_LD, 1, T_CA_HIT, 1, 4},
    {"ilp_sm1_ld_k4_ca_miss", 1, 8, M_LD, 1, T_CA_MISS, 1, 4},
    {"ilp_sm1_ld_k4_cg_miss", 1, 8, M_LD, 1, T_CG_MISS, 1, 4},
    {"ilp_sm1_ld_k16_none", 1, 8, M_LD, 1, T_NONE, 1, 16},
    {"ilp_sm1_ld_k16_ca_hit", 1, 8, M_LD, 1, T_CA_HIT, 1, 16},
    {"ilp_sm1_ld_k16_ca_miss", 1, 8, M_LD, 1, T_CA_MISS, 1, 16},
    {"ilp_sm1_ld_k16_cg_miss", 1, 8, M_LD, 1, T_CG_MISS, 1, 16},
    {"ilp_sm1_st_k1_none", 1, 8, M_ST, 1, T_NONE, 1, 1},
    {"ilp_sm1_st_k1_ca_hit", 1, 8, M_ST, 1, T_CA_HIT, 1, 1},
    {"ilp_sm1_st_k1_ca_miss", 1, 8, M_ST, 1, T_CA_MISS, 1, 1},
    {"ilp_sm1_st_k1_cg_miss", 1, 8, M_ST, 1, T_CG_MISS, 1, 1},
    {"ilp_sm1_st_k4_none", 1, 8, M_ST, 1, T_NONE, 1, 4},
    {"ilp_sm1_st_k4_ca_hit", 1, 8, M_ST, 1, T_CA_HIT, 1, 4},
    {"ilp_sm1_st_k4_ca_miss", 1, 8, M_ST, 1, T_CA_MISS, 1, 4},
    {"ilp_sm1_st_k4_cg_miss", 1, 8, M_ST, 1, T_CG_MISS, 1, 4},
    {"ilp_sm1_st_k16_none", 1, 8, M_ST, 1, T_NONE, 1, 16},
    {"ilp_sm1_st_k16_ca_hit", 1, 8, M_ST, 1, T_CA_HIT, 1, 16},
    {"ilp_sm1_st_k16_ca_miss", 1, 8, M_ST, 1, T_CA_MISS, 1, 16},
    {"ilp_sm1_st_k16_cg_miss", 1, 8, M_ST, 1, T_CG_MISS, 1, 16},
    {"ilp_b1_ld_k16_none", 0, 8, M_LD, 1, T_NONE, 1, 16},
    {"ilp_b1_ld_k16_ca_hit", 0, 8, M_LD, 1, T_CA_HIT, 1, 16},
    {"ilp_b1_ld_k16_ca_miss", 0, 8, M_LD, 1, T_CA_MISS, 1, 16},
    {"ilp_b1_ld_k16_cg_miss", 0, 8, M_LD, 1, T_CG_MISS, 1, 16},
    {"ilp_b1_st_k16_none", 0, 8, M_ST, 1, T_NONE, 1, 16},
    {"ilp_b1_st_k16_ca_hit", 0, 8, M_ST, 1, T_CA_HIT, 1, 16},
    {"ilp_b1_st_k16_ca_miss", 0, 8, M_ST, 1, T_CA_MISS, 1, 16},
    {"ilp_b1_st_k16_cg_miss", 0, 8, M_ST, 1, T_CG_MISS, 1, 16},
    // STS with a cached load, an indexed constant load, both (pure<KIND>)
    {"pure_sm8_ca", 8, 8, M_ST, 1, T_NONE, 1, -1},
    {"pure_sm8_ldc", 8, 8, M_ST, 1, T_NONE, 1, -2},
    {"pure_sm8_ca_ldc", 8, 8, M_ST, 1, T_NONE, 1, -3},
    {"pure_sm1_ca", 1, 8, M_ST, 1, T_NONE, 1, -1},
    {"pure_sm1_ldc", 1, 8, M_ST, 1, T_NONE, 1, -2},
    {"pure_sm1_ca_ldc", 1, 8, M_ST, 1, T_NONE, 1, -3},
};

static const char *burst_tag(int k) {
  switch (k) {
  case 1: return "burst=1 ";
  case 4: return "burst=4 ";
  case 16: return "burst=16 ";
  case -1: return "pure=ca ";
  case -2: return "pure=ldc ";
  default: return "pure=ca_ldc ";
  }
}

static int wanted(const char *only, const char *name) {
  if (!only) return 1;
  const char *p = only;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && strncmp(name, p, n) == 0) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  const char *only = argc > 2 ? argv[2] : NULL;
  if (reps < 1 || reps > 100) {
    fprintf(stderr, "usage: arbit [REPS 1-100] [ONLY]\n");
    return 2;
  }
  int nsm = 0;
  ck(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0), "attribute");
  if (nsm < 1) nsm = 1;
  int maxgrid = 32 * nsm, maxthreads = maxgrid * 256;
  float *d_tab, *d_stream, *d_sink, *d_out;
  ck(cudaMalloc(&d_tab, SMALL * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_stream, STREAM * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_sink, STREAM * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_out, (size_t)maxthreads * sizeof(float)), "malloc");
  float *h = (float *)malloc(STREAM * sizeof(float)), *o = (float *)malloc((size_t)maxthreads * sizeof(float));
  if (!h || !o) return 1;
  for (unsigned i = 0; i < STREAM; i++) h[i] = 1.0f;
  ck(cudaMemcpy(d_tab, h, SMALL * sizeof(float), cudaMemcpyHostToDevice), "copy");
  ck(cudaMemcpy(d_stream, h, STREAM * sizeof(float), cudaMemcpyHostToDevice), "copy");
  float hc[64];
  for (int j = 0; j < 64; j++) hc[j] = (float)(j & 3);
  ck(cudaMemcpyToSymbol(ctab, hc, sizeof hc), "constant table");
  printf("sms=%d iters=%d\n", nsm, ITERS);
  int bad = 0;
  for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
    const struct cfg *k = &cfgs[c];
    if (!wanted(only, k->name)) continue;
    int grid = k->per_sm ? k->per_sm * nsm : 1, block = 32 * k->warps;
    for (int r = 0; r < reps; r++) {
      size_t sh = (size_t)k->warps * 1024;
      if (k->burst == 1) burst<1><<<grid, block, sh>>>(d_tab, d_stream, d_sink, d_out, k->mix, k->traffic);
      else if (k->burst == 4) burst<4><<<grid, block, sh>>>(d_tab, d_stream, d_sink, d_out, k->mix, k->traffic);
      else if (k->burst == 16) burst<16><<<grid, block, sh>>>(d_tab, d_stream, d_sink, d_out, k->mix, k->traffic);
      else if (k->burst == -1) pure<PK_CA><<<grid, block, sh>>>(d_tab, d_out);
      else if (k->burst == -2) pure<PK_LDC><<<grid, block, sh>>>(d_tab, d_out);
      else if (k->burst == -3) pure<PK_CA | PK_LDC><<<grid, block, sh>>>(d_tab, d_out);
      else probe<<<grid, block, sh>>>(d_tab, d_stream, d_sink, d_out, k->mix, k->stride, k->traffic, k->gk);
      ck(cudaGetLastError(), k->name);
      ck(cudaDeviceSynchronize(), k->name);
      ck(cudaMemcpy(o, d_out, (size_t)grid * block * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
      int wrong = 0;
      for (int i = 0; i < grid * block; i++)
        if (o[i] != (k->burst < 0   ? expect_pure((unsigned)i & 31, -k->burst)
                     : k->burst ? expect_burst((unsigned)i & 31, k->burst, k->mix, k->traffic)
                              : expect((unsigned)i & 31, k->mix, k->stride, k->traffic, k->gk)))
          wrong++;
      bad += wrong != 0;
      printf("%s grid=%d block=%d mix=%s stride=%d traffic=%s gk=%d %srep=%d %s\n", k->name, grid, block,
             mix_name[k->mix], k->stride, traffic_name[k->traffic], k->gk, k->burst ? burst_tag(k->burst) : "", r,
             wrong ? "WRONG" : "ok");
    }
  }
  return bad ? 1 : 0;
}
