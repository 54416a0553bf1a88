// mbar.cu: mbarrier semantics on an sm_90 GPU.
//   ./mbar ok     one block of 128 threads walks a barrier through its
//                 phases (arrivals, arrive with a count, expect_tx with a
//                 bulk copy, expect_tx + complete_tx, pending_count, inval
//                 and re-init) and prints what thread 0 observed.
//   ./mbar s2g    a bulk copy from shared to global memory (bulk_group).
//   ./mbar bad N  misuse case N (below); waits are bounded so that the GPU
//                 never hangs: "timeout" means the phase never completed.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

__device__ __forceinline__ uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint32_t b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n) : "memory");
}
__device__ __forceinline__ uint64_t mb_arrive(uint32_t b) {
  uint64_t s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory"); return s;
}
__device__ __forceinline__ uint64_t mb_arrive_n(uint32_t b, uint32_t n) {
  uint64_t s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(n) : "memory"); return s;
}
__device__ __forceinline__ uint64_t mb_arrive_tx(uint32_t b, uint32_t tx) {
  uint64_t s; asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(tx) : "memory"); return s;
}
__device__ __forceinline__ uint32_t mb_test_parity(uint32_t b, uint32_t par) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "r"(par) : "memory");
  return r;
}
__device__ __forceinline__ uint32_t mb_try_parity(uint32_t b, uint32_t par) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "r"(par) : "memory");
  return r;
}
__device__ __forceinline__ uint32_t mb_test_state(uint32_t b, uint64_t s) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(b), "l"(s) : "memory");
  return r;
}
__device__ __forceinline__ void bulk_g2s(uint32_t dst, const void *src, uint32_t n, uint32_t b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "l"(src), "r"(n), "r"(b) : "memory");
}
// a bounded wait: 1 when the phase of parity `par` completed, 0 on timeout
__device__ uint32_t wait_bounded(uint32_t b, uint32_t par) {
  for (int i = 0; i < 5000; i++)
    if (mb_try_parity(b, par)) return 1;
  return 0;
}

__global__ void mbar_ok(uint32_t *out, const uint32_t *src) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ __align__(128) uint32_t buf[256];
  uint32_t b = sa(&bar);
  int tid = threadIdx.x;
  if (tid == 0) {
    mb_init(b, 128);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  // phase 0: nothing arrived yet; parity 1 (the phase "before") reads complete
  if (tid == 0) { out[0] = mb_test_parity(b, 0); out[1] = mb_test_parity(b, 1); }
  __syncthreads();
  uint64_t st = mb_arrive(b);
  while (!mb_test_state(b, st)) {}
  if (tid == 0) { out[2] = mb_test_parity(b, 0); out[3] = mb_test_parity(b, 1); }
  __syncthreads();
  // phase 1: one arrival with count 128 completes it
  if (tid == 0) { mb_arrive_n(b, 128); out[4] = mb_test_parity(b, 1); out[5] = mb_test_parity(b, 0); }
  __syncthreads();
  // phase 2: 100 + 28 arrivals
  if (tid == 0) { mb_arrive_n(b, 100); out[6] = mb_test_parity(b, 0); }
  __syncthreads();
  if (tid >= 100) mb_arrive(b);
  __syncthreads();
  if (tid == 0) out[7] = mb_test_parity(b, 0);
  __syncthreads();
  // phase 3: arrive.expect_tx + a 1 KB bulk copy
  if (tid == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mb_arrive_tx(b, 1024);
    out[8] = mb_test_parity(b, 1);
    bulk_g2s(sa(buf), src, 1024, b);
  } else {
    mb_arrive(b);
  }
  while (!mb_try_parity(b, 1)) {}
  out[16 + tid] = buf[tid] + buf[tid + 128];
  __syncthreads();
  // phase 4: expect_tx (no arrival), 128 arrivals, then complete_tx
  if (tid == 0) asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(64) : "memory");
  __syncthreads();
  mb_arrive(b);
  __syncthreads();
  if (tid == 0) {
    out[9] = mb_test_parity(b, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(40) : "memory");
    out[10] = mb_test_parity(b, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(24) : "memory");
    out[11] = mb_test_parity(b, 0);
  }
  __syncthreads();
  // phase 5: pending_count of thread 0's arrival
  if (tid == 0) {
    uint64_t s0 = mb_arrive(b);
    uint32_t pc;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(s0));
    out[12] = pc;
  }
  __syncthreads();
  if (tid) mb_arrive(b);
  while (!mb_try_parity(b, 1)) {}
  __syncthreads();
  // inval, then a new barrier of count 1 in the same word
  if (tid == 0) {
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    mb_init(b, 1);
    out[13] = mb_test_parity(b, 0);
    mb_arrive(b);
    out[14] = mb_test_parity(b, 0);
    out[15] = mb_test_parity(b, 1);
  }
}

// Misuse cases: 0 arrive on a never-initialised barrier; 1 arrive after
// inval; 2 count 64 with only warp 0 arriving (never completes); 3 expect_tx
// 2048 with a 1024-byte copy (never completes); 4 expect_tx 512 with a
// 1024-byte copy (over-run); 5 re-init while arrivals are pending.
__global__ void mbar_bad(int which, uint32_t *out, const uint32_t *src) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ __align__(128) uint32_t buf[256];
  uint32_t b = sa(&bar);
  int tid = threadIdx.x;
  uint32_t done = 2;
  switch (which) {
  case 0:
    if (tid == 0) { mb_arrive(b); done = mb_test_parity(b, 0); }
    break;
  case 1:
    if (tid == 0) {
      mb_init(b, 64);
      asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b) : "memory");
      mb_arrive(b);
      done = mb_test_parity(b, 0);
    }
    break;
  case 2:
    if (tid == 0) mb_init(b, 64);
    __syncthreads();
    if (tid < 32) mb_arrive(b);
    done = wait_bounded(b, 0);
    break;
  case 3: case 4:
    if (tid == 0) {
      mb_init(b, 1);
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
      mb_arrive_tx(b, which == 3 ? 2048 : 512);
      bulk_g2s(sa(buf), src, 1024, b);
      done = wait_bounded(b, 0);
      out[64] = buf[255];
    }
    break;
  case 5:
    if (tid == 0) mb_init(b, 64);
    __syncthreads();
    if (tid < 32) mb_arrive(b);
    __syncthreads();
    if (tid == 0) mb_init(b, 32);
    __syncthreads();
    if (tid >= 32) mb_arrive(b);
    done = wait_bounded(b, 0);
    break;
  }
  out[tid] = done;
}

// cp.async.bulk shared -> global in a bulk group: 128 threads fill 512
// bytes of shared memory, thread 0 copies them out and waits for the group.
__global__ void bulk_s2g(uint32_t *out) {
  __shared__ __align__(128) uint32_t buf[128];
  buf[threadIdx.x] = threadIdx.x * 5 + 7;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(out), "r"(sa(buf)), "r"(512) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

int main(int argc, char **argv) {
  uint32_t *d_out, *d_src, h[300];
  cudaMalloc(&d_out, sizeof h);
  cudaMalloc(&d_src, 1024);
  for (int i = 0; i < 256; i++) h[i] = i * 3 + 1;
  cudaMemcpy(d_src, h, 1024, cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0xff, sizeof h);
  if (argc > 1 && !strcmp(argv[1], "s2g")) {
    bulk_s2g<<<1, 128>>>(d_out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("s2g: %s\n", cudaGetErrorString(e));
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 130; i++) printf("%u%c", h[i], i % 16 == 15 || i == 129 ? '\n' : ' ');
    return 0;
  }
  int bad = argc > 2 ? atoi(argv[2]) : -1;
  if (bad < 0) mbar_ok<<<1, 128>>>(d_out, d_src);
  else mbar_bad<<<1, 64>>>(bad, d_out, d_src);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s %d: %s\n", bad < 0 ? "ok" : "bad", bad, cudaGetErrorString(e));
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  int n = bad < 0 ? 144 : 65;
  for (int i = 0; i < n; i++) printf("%u%c", h[i], i % 16 == 15 || i == n - 1 ? '\n' : ' ');
  return 0;
}
