// sweep.cu: how the shared-memory retry loops of contend.cu scale with the
// number of warps of a block (1, 2, 3, 4, 6, 8, 12, 16, 24, 32) and with
// the lanes each warp brings: atomicAdd on a shared float (ptxas's LDS +
// ATOMS.CAST.SPIN loop) by every lane on one word (nf_all), by 8 lanes of
// each warp on one word (nf_part8), by every lane on 4 words (nf_words4);
// the same add written as a CAS loop that re-reads the word each round
// (reload_cas, the shape of the CAST.SPIN loop, whose rounds the kernel can
// count) and as the usual CAS loop (cas_fadd); and warps handing a volatile
// shared flag on (flag_chain). Each launch prints its result (and whether
// arithmetic gives it) and the threads' own round counts.
// Usage: sweep [REPS] [ONLY]  (ONLY: comma-separated name prefixes)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog_name = "sweep";
#include "kernels.cuh"

// Lanes below `lanes` of each warp add addend(t) to word[lane % words].
__global__ void nf(float *out, unsigned *iters, int lanes, int words) {
  __shared__ float word[4];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t < 4) word[t] = 0;
  __syncthreads();
  if ((int)(t & 31) < lanes) atomicAdd(&word[(t & 31) % words], addend(t));
  iters[g] = 1;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = word[0] + word[1] + word[2] + word[3];
}

// The CAST.SPIN loop's shape in source: read the word, CAS, again if it
// changed; returns the rounds.
__global__ void reload_cas(float *out, unsigned *iters) {
  __shared__ int word;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) word = 0;
  __syncthreads();
  unsigned n = 0;
  int old;
  do {
    old = *(volatile int *)&word;
    n++;
  } while (atomicCAS(&word, old, __float_as_int(__int_as_float(old) + addend(t))) != old);
  iters[g] = n;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = __int_as_float(word);
}

// The usual CAS loop: a failed CAS hands back the fresh value.
__global__ void cas_fadd(float *out, unsigned *iters) {
  __shared__ float word;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) word = 0;
  __syncthreads();
  iters[g] = cas_add(&word, addend(t));
  __syncthreads();
  if (t == 0) out[blockIdx.x] = word;
}

static unsigned *d_iters, h_iters[1024];
static float *d_out;

// One launch's line: result, and the rounds: sum, min, max, per-warp sums
// and per-warp maxima (a warp's requests in a loop are its slowest lane's
// rounds).
static void report(const char *name, int block, int rep, float got, float want_v) {
  ck(cudaMemcpy(h_iters, d_iters, block * sizeof(unsigned), cudaMemcpyDeviceToHost), "copy iters");
  unsigned long long sum;
  unsigned mn, mx;
  iters_stats(h_iters, (unsigned)block, &sum, &mn, &mx);
  printf("%s grid=1 block=%d rep=%d result=%.2f %s iters sum=%llu min=%u max=%u warps=", name, block, rep, got,
         got == want_v ? "ok" : "WRONG", sum, mn, mx);
  for (int w = 0; w * 32 < block; w++) {
    unsigned long long s = 0;
    for (int l = 0; l < 32; l++) s += h_iters[w * 32 + l];
    printf("%s%llu", w ? "," : "", s);
  }
  printf(" wmax=");
  for (int w = 0; w * 32 < block; w++) {
    unsigned m = 0;
    for (int l = 0; l < 32; l++) m = h_iters[w * 32 + l] > m ? h_iters[w * 32 + l] : m;
    printf("%s%u", w ? "," : "", m);
  }
  printf("\n");
  fflush(stdout);
}

static float sum_of(int block, int lanes) {
  float s = 0;
  for (int t = 0; t < block; t++)
    if ((t & 31) < lanes) s += addend((unsigned)t);
  return s;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  only = argc > 2 ? argv[2] : NULL;
  if (reps < 1) reps = 1;
  ck(cudaMalloc(&d_iters, 1024 * sizeof(unsigned)), "malloc");
  ck(cudaMalloc(&d_out, sizeof(float)), "malloc");
  static const int warps[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
  struct { const char *name; int lanes, words; } nfs[] = {{"nf_all", 32, 1}, {"nf_part8", 8, 1}, {"nf_words4", 32, 4}};
  for (int s = 0; s < 10; s++) {
    int block = 32 * warps[s];
    float got;
    for (int k = 0; k < 3; k++) {
      if (!want(nfs[k].name)) continue;
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, 1024 * sizeof(unsigned)), "memset");
        nf<<<1, block>>>(d_out, d_iters, nfs[k].lanes, nfs[k].words);
        ck(cudaDeviceSynchronize(), nfs[k].name);
        ck(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost), "copy out");
        report(nfs[k].name, block, r, got, sum_of(block, nfs[k].lanes));
      }
    }
    // the loops and the chain: the result is in d_out (a float; the
    // chain's flag, an int, ends at the number of warps)
    struct { const char *name; void (*k)(float *, unsigned *); float want; } ks[] = {
        {"reload_cas", reload_cas, sum_of(block, 32)}, {"cas_fadd", cas_fadd, sum_of(block, 32)},
        {"flag_chain", (void (*)(float *, unsigned *))flag_chain, (float)warps[s]}};
    for (int k = 0; k < 3; k++) {
      if (!want(ks[k].name)) continue;
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, 1024 * sizeof(unsigned)), "memset");
        ks[k].k<<<1, block>>>(d_out, d_iters);
        ck(cudaDeviceSynchronize(), ks[k].name);
        ck(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost), "copy out");
        if (k == 2) {
          int flag;
          memcpy(&flag, &got, sizeof flag);
          got = (float)flag;
        }
        report(ks[k].name, block, r, got, ks[k].want);
      }
    }
  }
  return 0;
}
