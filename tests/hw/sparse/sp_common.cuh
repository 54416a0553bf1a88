// sp_common.cuh: what sp.cu and spwg.cu share: valid sparse metadata drawn
// from a hash, and the host loop that runs each case and prints it.
#ifndef SP_COMMON_CUH
#define SP_COMMON_CUH
#include <cstdio>
#include <cstdint>
#include "../modern/mma_inputs.cuh"

// 2:4 metadata: eight nibbles, each an ordered pair of indices (i < j);
// 1:2 (tf32): each nibble 0b0100 or 0b1110 (the first or the second element)
__device__ uint32_t meta24(uint32_t h) {
  const uint32_t pairs[6] = {0x4, 0x8, 0xc, 0x9, 0xd, 0xe};
  uint32_t m = 0;
  for (int i = 0; i < 8; i++) { m |= pairs[h % 6] << (4 * i); h = h / 6 + hsh(h + i) % 7 * 0x10000000u; }
  return m;
}
__device__ uint32_t meta12(uint32_t h) {
  uint32_t m = 0;
  for (int i = 0; i < 8; i++) m |= ((h >> i) & 1 ? 0xeu : 0x4u) << (4 * i);
  return m;
}

// Runs kernel k(cfg, out) for each of n cases (trials blocks of threads
// threads, stride words a thread) and prints "cfg NAME status", then per
// trial and thread the first 1 + nd[cfg] words (hex).
static int run_cases(void (*k)(int, uint32_t *), int n, const char *const *names, const int *nd, int trials,
                     int threads, int stride) {
  uint32_t *d_out;
  size_t words = (size_t)trials * threads * stride;
  uint32_t *h = new uint32_t[words];
  cudaMalloc(&d_out, words * 4);
  for (int cfg = 0; cfg < n; cfg++) {
    cudaMemset(d_out, 0, words * 4);
    k<<<trials, threads>>>(cfg, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d_out, words * 4, cudaMemcpyDeviceToHost);
    printf("cfg %s %s\n", names[cfg], e ? cudaGetErrorString(e) : "ok");
    if (e) return 1;
    for (int t = 0; t < trials; t++)
      for (int l = 0; l < threads; l++) {
        printf("%d %d", t, l);
        for (int i = 0; i <= nd[cfg]; i++) printf(" %08x", h[((size_t)t * threads + l) * stride + i]);
        printf("\n");
      }
  }
  delete[] h;
  return 0;
}
#endif
