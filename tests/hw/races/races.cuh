/* races.cuh: what every kernel of the race corpus shares. The kernels take
 * (int *out, const int *in, int n); out has RACES_WORDS ints (zeroed before
 * the launch) and in RACES_WORDS deterministic ints (see driver.cu).
 *
 * Some broken kernels need two warps to make their accesses in a known order
 * without synchronising them (so that the hazard type, RAW or WAR, is the
 * same on the GPU, under racecheck, and on smemu). The first warp raises a
 * flag in global memory after its shared access; the second spins on that
 * flag (at most RACES_WAIT_NS of %globaltimer) before its own. Neither is a
 * barrier: racecheck and smemu only order accesses at barriers (bar.sync,
 * bar.warp.sync within a warp), so the hazard is still reported. */
#ifndef RACES_CUH
#define RACES_CUH

#define RACES_WORDS 8192          /* ints in out and in */
#define RACES_FLAG 8000           /* out[RACES_FLAG + blockIdx.x]: the flag */
#define RACES_WAIT_NS 200000000ull /* give up waiting after 0.2 s */

/* Called by a whole warp after its shared accesses. */
__device__ __forceinline__ void races_signal(int *out)
{
  __syncwarp();
  if ((threadIdx.x & 31) == 0)
    *(volatile int *)&out[RACES_FLAG + blockIdx.x] = 1;
}

/* Called by a whole warp before its shared accesses. */
__device__ __forceinline__ void races_wait(int *out)
{
  if ((threadIdx.x & 31) == 0) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (*(volatile int *)&out[RACES_FLAG + blockIdx.x] == 0 &&
             t - t0 < RACES_WAIT_NS);
  }
  __syncwarp();
}

/* Numbered flags for chains of more than two warps: out[RACES_FLAG + 16 *
 * (k + 1) + blockIdx.x], k = 0..3 (grids of at most 16 blocks). */
__device__ __forceinline__ void races_signal_n(int *out, int k)
{
  __syncwarp();
  if ((threadIdx.x & 31) == 0)
    *(volatile int *)&out[RACES_FLAG + 16 * (k + 1) + blockIdx.x] = 1;
}

__device__ __forceinline__ void races_wait_n(int *out, int k)
{
  if ((threadIdx.x & 31) == 0) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (*(volatile int *)&out[RACES_FLAG + 16 * (k + 1) + blockIdx.x] == 0 &&
             t - t0 < RACES_WAIT_NS);
  }
  __syncwarp();
}

#endif
