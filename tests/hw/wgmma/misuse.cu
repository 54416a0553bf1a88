// misuse.cu: wgmma misuse cases for compute-sanitizer and plain runs, and
// one small wgmma per swizzle mode for ncu's shared-memory counters.
//   ./misuse case N   runs misuse case N (below) with one block, prints
//                     the launch status and the D words of thread 0..127
//   ./misuse ncu      the counter kernels (one launch each)
// The wgmma is m64n8k16.f32.f16.f16, A and B K-major without swizzle
// (A 64x16 at sA, B 8x16 at sB), C = 0.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t sw) {
  return (uint64_t)((start & 0x3ffff) >> 4) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 |
         (uint64_t)((sbo >> 4) & 0x3fff) << 32 | (uint64_t)sw << 62;
}
// K-major, no swizzle: 8x8 core matrices of 128 bytes; element (r, k) of
// a 16-wide f16 tile at (r%8)*16 + (r/8)*256 + (k/8)*128 + (k%8)*2
__device__ __forceinline__ int kofs(int r, int k) { return (r % 8) * 16 + (r / 8) * 256 + (k / 8) * 128 + (k % 8) * 2; }

#define WGMMA_N8(d, da, db, sd)                                                                          \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"                                               \
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}\n" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                         \
               : "l"(da), "l"(db), "r"(sd))

__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

__device__ __forceinline__ uint16_t hval(int m, int r, int k) {
  // exact halves 1, 1.25, 1.5, 1.75, 2
  return (uint16_t)(0x3c00 + (((r * 7 + k * 3 + m) % 5) << 8));
}

// cases:
// 0 correct use (fill, fence.proxy.async, bar.sync, wgmma.fence, wgmma, commit, wait 0)
// 1 warp 3 of the warpgroup has exited before the wgmma
// 2 warps 2 and 3 skip the wgmma (branch around it) but stay alive
// 3 the block has 64 threads: no whole warpgroup
// 4 descriptor B starts past the block's shared memory (start + 48 KB)
// 5 a generic write to the B tile after the wgmma, before wait_group
// 6 no fence.proxy.async between the generic writes and the wgmma
// 7 the accumulators are read (stored) before wait_group
// 8 commit_group without wait_group before the kernel ends
// 9 a wgmma without wgmma.fence after the accumulators were written
// 10 descriptor A start misaligned for 128B swizzle (start % 1024 == 16), base offset 0
// 11 wgmma reads a tile another warpgroup writes without a barrier (2 warpgroups)
// 12 as 7, inside one asm block: st.global of the accumulators between
//    commit_group and wait_group
// (one kernel per case, so that ptxas's treatment of one case does not
// change another's)
template <int cs> __global__ void misuse_k(uint32_t *out) {
  __shared__ __align__(1024) uint8_t sA[4096];
  __shared__ __align__(1024) uint8_t sB[1024];
  int tid = threadIdx.x, nt = blockDim.x;
  for (int i = tid; i < 4096 / 4; i += nt) ((uint32_t *)sA)[i] = 0;
  for (int i = tid; i < 1024 / 4; i += nt) ((uint32_t *)sB)[i] = 0;
  __syncthreads();
  for (int i = tid; i < 64 * 16; i += nt) {
    int r = i / 16, k = i % 16;
    *(uint16_t *)(sA + kofs(r, k)) = hval(1, r, k);
  }
  for (int i = tid; i < 8 * 16; i += nt) {
    int n = i / 16, k = i % 16;
    *(uint16_t *)(sB + kofs(n, k)) = hval(2, n, k);
  }
  if (cs != 6) fence_async();
  __syncthreads();
  uint64_t da = desc(smem_u32(sA), 128, 256, 0), db = desc(smem_u32(sB), 128, 256, 0);
  if (cs == 4) db = desc(smem_u32(sB) + 48 * 1024, 128, 256, 0);
  if (cs == 10) da = desc(smem_u32(sA) + 16, 128, 256, 0) | (1ull << 62);
  float d[4] = {0, 0, 0, 0};
  if (cs == 1 && tid >= 96) return;
  if (cs == 11 && tid >= 128) {
    // warpgroup 1 rewrites the A tile while warpgroup 0's wgmma reads it
    for (int i = tid - 128; i < 64 * 16; i += 128) {
      int r = i / 16, k = i % 16;
      *(uint16_t *)(sA + kofs(r, k)) = hval(3, r, k);
    }
    return;
  }
  if (cs == 2 && tid >= 64) goto skip;
  if (cs == 12) {
    asm volatile("{\n.reg .f32 e<4>;\nmov.f32 e0, 0f00000000;\nmov.f32 e1, 0f00000000;\n"
                 "mov.f32 e2, 0f00000000;\nmov.f32 e3, 0f00000000;\nwgmma.fence.sync.aligned;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {e0,e1,e2,e3}, %1, %2, 1, 1, 1, 0, 0;\n"
                 "wgmma.commit_group.sync.aligned;\n"
                 "st.global.f32 [%0], e0;\nst.global.f32 [%0+4], e1;\nst.global.f32 [%0+8], e2;\nst.global.f32 [%0+12], e3;\n"
                 "wgmma.wait_group.sync.aligned 0;\n}\n" :: "l"(out + tid * 4), "l"(da), "l"(db) : "memory");
    return;
  }
  if (cs != 9) wg_fence();
  if (cs == 9) d[0] = 1.0f;
  WGMMA_N8(d, da, db, 1);
  wg_commit();
  if (cs == 5 && tid == 0) *(uint16_t *)(sB + 2) = 0x4000;
  if (cs == 7) {
    for (int i = 0; i < 4; i++) out[tid * 4 + i] = __float_as_uint(d[i]) | 0x1;
  }
  if (cs != 8) wg_wait0();
skip:
  if (cs != 7 && cs != 12)
    for (int i = 0; i < 4; i++) out[tid * 4 + i] = __float_as_uint(d[i]);
}

// ncu kernels: one m64n64k16 wgmma (f16 -> f32) with A and B K-major in
// each swizzle mode (layout per mode, sw: 0 none, 1 128B, 2 64B, 3 32B);
// mode 4: no swizzle with SBO = 144 (core matrices 144 bytes apart: the
// banks of their rows shifted), mode 5: no swizzle, LBO = SBO = 1024 (core
// matrices on one bank group)
__global__ void ncu_k(int mode, uint32_t *out) {
  __shared__ __align__(1024) uint8_t sA[16384];
  __shared__ __align__(1024) uint8_t sB[16384];
  int tid = threadIdx.x;
  for (int i = tid; i < 16384 / 4; i += 128) { ((uint32_t *)sA)[i] = 0x3c003c00u; ((uint32_t *)sB)[i] = 0x3c003c00u; }
  fence_async();
  __syncthreads();
  uint32_t sw = mode <= 3 ? mode : 0, W = sw == 1 ? 8 : sw == 2 ? 4 : sw == 3 ? 2 : 1;
  uint32_t lbo = 128, sbo = 256;
  if (sw) { lbo = 16; sbo = 128 * W; }
  if (mode == 4) { lbo = 128; sbo = 144 * 2; }
  if (mode == 5) { lbo = 1024; sbo = 2048; }
  uint64_t da = desc(smem_u32(sA), lbo, sbo, sw), db = desc(smem_u32(sB), lbo, sbo, sw);
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = 0;
  wg_fence();
  asm volatile("{\nwgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31},"
               " %32, %33, 1, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db));
  wg_commit();
  wg_wait0();
  float s = 0;
  for (int i = 0; i < 32; i++) s += d[i];
  out[tid] = __float_as_uint(s);
}

// ncu: the same wgmma with A from registers (only B read from shared)
__global__ void ncu_areg_k(uint32_t *out) {
  __shared__ __align__(1024) uint8_t sB[16384];
  int tid = threadIdx.x;
  for (int i = tid; i < 16384 / 4; i += 128) ((uint32_t *)sB)[i] = 0x3c003c00u;
  fence_async();
  __syncthreads();
  uint64_t db = desc(smem_u32(sB), 16, 1024, 1);
  uint32_t a0 = 0x3c003c00u;
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = 0;
  wg_fence();
  asm volatile("{\nwgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31},"
               " {%32, %32, %32, %32}, %33, 1, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
               : "r"(a0), "l"(db));
  wg_commit();
  wg_wait0();
  float s = 0;
  for (int i = 0; i < 32; i++) s += d[i];
  out[tid] = __float_as_uint(s);
}

int main(int argc, char **argv) {
  uint32_t *d_out, h[256 * 4];
  cudaMalloc(&d_out, sizeof h);
  if (argc > 2 && !strcmp(argv[1], "case")) {
    int cs = atoi(argv[2]);
    cudaMemset(d_out, 0, sizeof h);
    int nt = cs == 3 ? 64 : cs == 11 ? 256 : 128;
    void (*const ks[])(uint32_t *) = {misuse_k<0>, misuse_k<1>, misuse_k<2>, misuse_k<3>, misuse_k<4>,
                                      misuse_k<5>, misuse_k<6>, misuse_k<7>, misuse_k<8>, misuse_k<9>,
                                      misuse_k<10>, misuse_k<11>, misuse_k<12>};
    if (cs < 0 || cs > 12) return 2;
    ks[cs]<<<1, nt>>>(d_out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("case %d threads %d: %s\n", cs, nt, e ? cudaGetErrorString(e) : "ok");
    if (e) return 1;
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 128; t++) {
      printf("%d", t);
      for (int i = 0; i < 4; i++) printf(" %08x", h[t * 4 + i]);
      printf("\n");
    }
    return 0;
  }
  for (int m = 0; m < 6; m++) {
    ncu_k<<<1, 128>>>(m, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d_out, 128 * 4, cudaMemcpyDeviceToHost);
    printf("ncu mode %d: %s %08x\n", m, e ? cudaGetErrorString(e) : "ok", h[0]);
  }
  ncu_areg_k<<<1, 128>>>(d_out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d_out, 128 * 4, cudaMemcpyDeviceToHost);
  printf("ncu areg: %s %08x\n", e ? cudaGetErrorString(e) : "ok", h[0]);
  return 0;
}
