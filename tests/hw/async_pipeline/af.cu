// af.cu: async-copy corner cases for smemu findings F6, F7, F8 (sm_90).
//   ./af init      16x16 block, the 16 threads with threadIdx.x == 0 all run
//                  mbarrier.init (cuda::barrier init) with the same count (F6)
//   ./af rd|wr|own|ok   cp.async in flight (F7): rd another thread reads the
//                  destination before the copier waits; wr another thread
//                  writes it; own the copier reads it before its wait; ok the
//                  correct order. 256 blocks, histogram of what was seen.
//   ./af cnt       cp.async.mbarrier.arrive (default and .noinc) counts (F8):
//                  regular arrivals needed to complete the phase afterwards
//   ./af mt        128 threads: cp.async + cp.async.mbarrier.arrive(.noinc),
//                  consumers wait on the phase and check all data (F8)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint32_t b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive(uint32_t b) {
  asm volatile("{ .reg .b64 s; mbarrier.arrive.shared::cta.b64 s, [%0]; }" :: "r"(b) : "memory");
}
__device__ __forceinline__ uint32_t mb_test(uint32_t b, uint32_t par) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "r"(par) : "memory");
  return r;
}
__device__ __forceinline__ void cp4(void *s, const void *g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa(s)), "l"(g) : "memory");
}
__device__ __forceinline__ void cp16(void *s, const void *g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa(s)), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_arrive(uint32_t b) {
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" :: "r"(b) : "memory");
}
__device__ __forceinline__ void cp_arrive_noinc(uint32_t b) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void cp_wait0() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void cp_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// F6
__global__ void k_init(int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[256];
  if (threadIdx.x == 0) init(&bar, blockDim.x * blockDim.y);
  __syncthreads();
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  s[t] = t;
  bar.arrive_and_wait();
  out[t] = s[255 - t];
}

// F7: mode 0 rd, 1 wr, 2 own, 3 ok. g holds 42 per block (16-byte chunk).
__global__ void k_inflight(const int *g, int *out, int mode) {
  __shared__ __align__(16) int s[32];
  if (threadIdx.x < 32) s[threadIdx.x] = -1;
  __syncthreads();
  int v = 0;
  if (threadIdx.x == 1) {
    cp16(&s[0], &g[4 * blockIdx.x]);
    cp_commit();
    if (mode == 2) v = s[0];
  }
  __syncthreads();
  if (mode == 0 && threadIdx.x == 0) v = s[0];
  if (mode == 1 && threadIdx.x == 0) s[0] = 7;
  __syncthreads();
  if (threadIdx.x == 1) cp_wait0();
  __syncthreads();
  if (mode == 3 && threadIdx.x == 0) v = s[0];
  if (mode == 1 && threadIdx.x == 0) v = s[0];
  if ((mode == 2 && threadIdx.x == 1) || (mode != 2 && threadIdx.x == 0)) out[blockIdx.x] = v;
}

// F8 counts: one thread; init count n; cp.async 4 bytes + cp.async.mbarrier.arrive
// (noinc or not); wait_all; then count the regular arrivals needed to complete phase 0.
__global__ void k_cnt(const int *g, int *out, int n, int noinc, int extra_wait) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ int s[4];
  if (threadIdx.x != 0) return;
  s[0] = -1;
  uint32_t b = sa(&bar);
  mb_init(b, n);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  cp4(&s[0], &g[0]);
  if (noinc) cp_arrive_noinc(b); else cp_arrive(b);
  if (extra_wait) cp_wait_all();
  int spins = 0;   // let the triggered arrive-on land
  for (; spins < 100000 && !mb_test(b, 0); spins++) __nanosleep(100);
  int done_alone = mb_test(b, 0);
  int needed = 0;
  while (!mb_test(b, 0) && needed < 16) { mb_arrive(b); needed++; }
  out[0] = done_alone;
  out[1] = needed;
  out[2] = mb_test(b, 0);
  out[3] = s[0];
}

// F8 multi-thread: 128 threads, each copies 16 bytes into its slot and arrives
// through cp.async.mbarrier.arrive; mode 0: .noinc, count 128; mode 1: default +
// a regular arrive, count 128; then every thread waits and sums the whole buffer.
__global__ void k_mt(const int *g, int *out, int mode) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ __align__(16) int s[512];
  uint32_t b = sa(&bar);
  if (threadIdx.x == 0) {
    mb_init(b, blockDim.x);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  cp16(&s[4 * threadIdx.x], &g[4 * threadIdx.x]);
  if (mode == 0) cp_arrive_noinc(b); else { cp_arrive(b); mb_arrive(b); }
  int spins = 0;
  while (!mb_test(b, 0) && spins < 1000000) spins++;
  long sum = 0;
  for (int i = 0; i < 512; i++) sum += s[(i + 4 * threadIdx.x) % 512];
  out[threadIdx.x] = (int)sum;
  out[128 + threadIdx.x] = spins >= 1000000;
}

static int run_inflight(int mode) {
  const int NB = 256;
  int *dg, *dout, h[4 * NB], r[NB];
  for (int i = 0; i < 4 * NB; i++) h[i] = 42;
  cudaMalloc(&dg, sizeof h); cudaMalloc(&dout, sizeof r);
  cudaMemcpy(dg, h, sizeof h, cudaMemcpyHostToDevice);
  k_inflight<<<NB, 32>>>(dg, dout, mode);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  int n42 = 0, nm1 = 0, n7 = 0, other = 0;
  for (int i = 0; i < NB; i++) {
    if (r[i] == 42) n42++; else if (r[i] == -1) nm1++; else if (r[i] == 7) n7++; else other++;
  }
  printf("inflight mode %d: sync=%s blocks=%d saw42=%d saw-1=%d saw7=%d other=%d\n",
         mode, cudaGetErrorString(e), NB, n42, nm1, n7, other);
  return e != cudaSuccess;
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "init";
  if (!strcmp(m, "init")) {
    int *d, h[256];
    cudaMalloc(&d, sizeof h);
    k_init<<<1, dim3(16, 16)>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    for (int t = 0; t < 256; t++) ok = ok && h[t] == 255 - t;
    printf("init: sync=%s -> %s\n", cudaGetErrorString(e), ok ? "PASS" : "FAIL");
    return !ok;
  }
  if (!strcmp(m, "rd")) return run_inflight(0);
  if (!strcmp(m, "wr")) return run_inflight(1);
  if (!strcmp(m, "own")) return run_inflight(2);
  if (!strcmp(m, "ok")) return run_inflight(3);
  if (!strcmp(m, "cnt")) {
    int *dg, *dout, h = 42, r[4];
    cudaMalloc(&dg, 4); cudaMalloc(&dout, sizeof r);
    cudaMemcpy(dg, &h, 4, cudaMemcpyHostToDevice);
    int rc = 0;
    for (int noinc = 0; noinc < 2; noinc++)
      for (int n = 1; n <= 3; n++)
        for (int w = 0; w < 2; w++) {
          k_cnt<<<1, 32>>>(dg, dout, n, noinc, w);
          cudaError_t e = cudaDeviceSynchronize();
          memset(r, 0, sizeof r);
          cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
          printf("cnt %s count=%d wait_all=%d: sync=%s complete_without_arrive=%d regular_arrivals_needed=%d complete=%d data=%d\n",
                 noinc ? "noinc" : "default", n, w, cudaGetErrorString(e), r[0], r[1], r[2], r[3]);
          rc |= e != cudaSuccess;
        }
    return rc;
  }
  if (!strcmp(m, "mt")) {
    int *dg, *dout, h[512], r[256];
    long want = 0;
    for (int i = 0; i < 512; i++) { h[i] = i * 7 + 1; want += h[i]; }
    cudaMalloc(&dg, sizeof h); cudaMalloc(&dout, sizeof r);
    cudaMemcpy(dg, h, sizeof h, cudaMemcpyHostToDevice);
    int rc = 0;
    for (int mode = 0; mode < 2; mode++) {
      k_mt<<<1, 128>>>(dg, dout, mode);
      cudaError_t e = cudaDeviceSynchronize();
      cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
      int bad = 0, to = 0;
      for (int t = 0; t < 128; t++) { bad += r[t] != (int)want; to += r[128 + t]; }
      printf("mt %s: sync=%s wrong_sums=%d timeouts=%d -> %s\n", mode ? "default+arrive" : "noinc",
             cudaGetErrorString(e), bad, to, !bad && !to && e == cudaSuccess ? "PASS" : "FAIL");
      rc |= bad || to || e != cudaSuccess;
    }
    return rc;
  }
  fprintf(stderr, "unknown mode %s\n", m);
  return 2;
}
