// sregs.cu: the values of PTX predefined identifiers and shared-memory
// special registers on the device, for several static/dynamic shared sizes
// and block sizes. Prints one line per configuration (thread 0 of block 0),
// then the range of %smid and %warpid over a grid of many blocks.
// Built by record.sh (nvcc -arch=sm_90 -lineinfo -cudart shared); the same
// binary runs under `smemu run` in tests/hw_fidelity.sh.
#include <cstdio>
#include <cuda_runtime.h>

#define SREG32(fn, text)                                           \
  __device__ __forceinline__ unsigned fn() {                       \
    unsigned r;                                                    \
    asm volatile("mov.u32 %0, " text ";" : "=r"(r));               \
    return r;                                                      \
  }
SREG32(warp_sz, "WARP_SZ")
SREG32(nwarpid, "%%nwarpid")
SREG32(nsmid, "%%nsmid")
SREG32(smid, "%%smid")
SREG32(warpid, "%%warpid")
SREG32(total_smem, "%%total_smem_size")
SREG32(dyn_smem, "%%dynamic_smem_size")
SREG32(aggr_smem, "%%aggr_smem_size")
SREG32(rs_begin, "%%reserved_smem_offset_begin")
SREG32(rs_end, "%%reserved_smem_offset_end")
SREG32(rs_cap, "%%reserved_smem_offset_cap")

// WARP_SZ inside an instruction other than mov, and in a constant expression
__device__ __forceinline__ unsigned warp_sz_expr(unsigned x) {
  unsigned r;
  asm volatile("add.u32 %0, %1, WARP_SZ;\n\t"
               "add.u32 %0, %0, (WARP_SZ*2-1);" : "=r"(r) : "r"(x));
  return r;
}

enum { NV = 12 };
__device__ void sample(unsigned *o) {
  o[0] = warp_sz();
  o[1] = warpSize;
  o[2] = warp_sz_expr(1000);
  o[3] = nwarpid();
  o[4] = nsmid();
  o[5] = total_smem();
  o[6] = dyn_smem();
  o[7] = aggr_smem();
  o[8] = rs_begin();
  o[9] = rs_end();
  o[10] = rs_cap();
  o[11] = blockDim.x;
}

// S bytes of static shared memory; the dynamic array is touched too so
// neither is removed.
template <int S>
__global__ void sregs(unsigned *o, unsigned *range) {
  __shared__ volatile unsigned char st[S];
  extern __shared__ volatile unsigned char dy[];
  st[threadIdx.x % S] = 1;
  if (dyn_smem() > 0) dy[0] = st[0]; /* a zero-sized dynamic array has no dy[0] */
  if (threadIdx.x == 0 && blockIdx.x == 0) sample(o);
  if (threadIdx.x % 32 == 0) {
    atomicMax(&range[0], smid());
    atomicMax(&range[1], warpid());
    atomicMax(&range[2], nsmid());
    atomicMin(&range[3], nsmid());
  }
}
__global__ void sregs0(unsigned *o, unsigned *range) {
  extern __shared__ volatile unsigned char dy[];
  if (threadIdx.x == 0 && dyn_smem() > 0) dy[0] = 1;
  if (threadIdx.x == 0 && blockIdx.x == 0) sample(o);
  if (threadIdx.x % 32 == 0) {
    atomicMax(&range[0], smid());
    atomicMax(&range[1], warpid());
    atomicMax(&range[2], nsmid());
    atomicMin(&range[3], nsmid());
  }
}

// cluster registers and the rest, read by block (2,1,0) thread 5 of a
// (3,2,1) x (64,1,1) launch without clusters
SREG32(c_nctaid_x, "%%cluster_nctaid.x")
SREG32(c_nctaid_y, "%%cluster_nctaid.y")
SREG32(c_ctaid_x, "%%cluster_ctaid.x")
SREG32(c_ctaid_y, "%%cluster_ctaid.y")
SREG32(c_ctarank, "%%cluster_ctarank")
SREG32(c_nctarank, "%%cluster_nctarank")
SREG32(nclusterid_x, "%%nclusterid.x")
SREG32(nclusterid_y, "%%nclusterid.y")
SREG32(clusterid_x, "%%clusterid.x")
SREG32(clusterid_y, "%%clusterid.y")
__device__ __forceinline__ unsigned is_explicit_cluster() {
  unsigned r;
  asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned long long graph_exec() {
  unsigned long long r;
  asm volatile("mov.u64 %0, %%current_graph_exec;" : "=l"(r));
  return r;
}
#define ENVREG(i) asm volatile("mov.b32 %0, %%envreg" #i ";" : "=r"(e[i]))
__global__ void misc(unsigned *o) {
  if (blockIdx.x != 2 || blockIdx.y != 1 || threadIdx.x != 5) return;
  unsigned v[12] = {c_nctaid_x(), c_nctaid_y(), c_ctaid_x(), c_ctaid_y(), c_ctarank(), c_nctarank(),
                    nclusterid_x(), nclusterid_y(), clusterid_x(), clusterid_y(), is_explicit_cluster(),
                    graph_exec() != 0};
  for (int i = 0; i < 12; i++) o[i] = v[i];
  unsigned e[8];
  ENVREG(0); ENVREG(1); ENVREG(2); ENVREG(3); ENVREG(4); ENVREG(5); ENVREG(6); ENVREG(7);
  for (int i = 0; i < 8; i++) o[12 + i] = e[i];
}
static void run_misc() {
  unsigned *o, h[20];
  cudaMalloc(&o, sizeof h);
  cudaMemset(o, 0xff, sizeof h);
  misc<<<dim3(3, 2, 1), 64>>>(o);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  static const char *names[12] = {"cluster_nctaid.x", "cluster_nctaid.y", "cluster_ctaid.x", "cluster_ctaid.y",
                                  "cluster_ctarank", "cluster_nctarank", "nclusterid.x", "nclusterid.y",
                                  "clusterid.x", "clusterid.y", "is_explicit_cluster", "current_graph_exec!=0"};
  printf("misc grid=(3,2,1) block (2,1,0): %s", cudaGetErrorName(e));
  for (int i = 0; i < 12; i++) printf(" %s=%u", names[i], h[i]);
  printf("\n  envreg0..7:");
  for (int i = 12; i < 20; i++) printf(" %u", h[i]);
  printf("\n");
  cudaFree(o);
}

typedef void (*kfn)(unsigned *, unsigned *);
static int run(const char *name, kfn k, int stat, int dyn, int block, int grid, int verbose_range) {
  unsigned *o, *range, h[NV], r[4] = {0, 0, 0, ~0u};
  cudaMalloc(&o, NV * 4);
  cudaMalloc(&range, 16);
  cudaMemset(o, 0xff, NV * 4);
  cudaMemcpy(range, r, 16, cudaMemcpyHostToDevice);
  if (dyn > 48 * 1024) cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn);
  k<<<grid, block, dyn>>>(o, range);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, o, NV * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, range, 16, cudaMemcpyDeviceToHost);
  printf("%s static=%d dynamic=%d block=%d: %s", name, stat, dyn, block, cudaGetErrorName(e));
  static const char *names[NV] = {"WARP_SZ", "warpSize", "expr", "nwarpid", "nsmid", "total_smem_size",
                                  "dynamic_smem_size", "aggr_smem_size", "reserved_begin", "reserved_end",
                                  "reserved_cap", "ntid"};
  for (int i = 0; i < NV; i++) printf(" %s=%u", names[i], h[i]);
  printf("\n");
  if (verbose_range)
    printf("  grid=%d: max smid=%u max warpid=%u nsmid in [%u,%u]\n", grid, r[0], r[1], r[3], r[2]);
  cudaFree(o);
  cudaFree(range);
  return e != cudaSuccess;
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("device: %s sm_%d%d multiProcessorCount=%d sharedMemPerBlock=%zu reservedSharedMemPerBlock=%zu "
         "sharedMemPerMultiprocessor=%zu sharedMemPerBlockOptin=%zu\n",
         p.name, p.major, p.minor, p.multiProcessorCount, p.sharedMemPerBlock, p.reservedSharedMemPerBlock,
         p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin);
  int bad = 0;
  static const int dyns[] = {0, 4, 100, 1000, 1024, 5000, 49152, 60000};
  for (unsigned i = 0; i < sizeof dyns / sizeof *dyns; i++) {
    bad += run("sregs0", sregs0, 0, dyns[i], 128, 1, 0);
    bad += run("sregs<4>", sregs<4>, 4, dyns[i], 128, 1, 0);
    bad += run("sregs<1000>", sregs<1000>, 1000, dyns[i], 128, 1, 0);
    bad += run("sregs<4096>", sregs<4096>, 4096, dyns[i], 128, 1, 0);
    bad += run("sregs<40000>", sregs<40000>, 40000, dyns[i], 128, 1, 0);
  }
  bad += run("sregs0", sregs0, 0, 0, 32, 1, 0);
  bad += run("sregs0", sregs0, 0, 0, 1024, 1, 0);
  bad += run("sregs<4>", sregs<4>, 4, 0, 96, 1, 0);
  bad += run("sregs0", sregs0, 0, 0, 1024, 1000, 1);
  bad += run("sregs<40000>", sregs<40000>, 40000, 100000, 256, 1000, 1);
  run_misc();
  printf("%d failed launches\n", bad);
  return 0;
}
