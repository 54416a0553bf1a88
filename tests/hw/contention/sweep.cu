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

__device__ __host__ static float addend(unsigned t) { return 1.0f + (float)(t & 7) * 0.25f; }

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
  int *a = (int *)&word;
  int old = *a, assumed;
  unsigned n = 0;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(addend(t) + __int_as_float(assumed)));
    n++;
  } while (assumed != old);
  iters[g] = n;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = word;
}

// Warp w waits until the flag says w, then passes it on.
__global__ void flag_chain(float *out, unsigned *iters) {
  __shared__ volatile int flag;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t, w = t >> 5;
  if (t == 0) flag = 0;
  __syncthreads();
  unsigned n = 0;
  while (flag != (int)w) n++;
  __syncwarp();
  if ((t & 31) == 0) flag = (int)w + 1;
  iters[g] = n;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = (float)flag;
}

static void ck(cudaError_t e, const char *what) {
  if (e != cudaSuccess) { fprintf(stderr, "sweep: %s: %s\n", what, cudaGetErrorString(e)); exit(1); }
}

static const char *only;
static int want(const char *name) {
  if (!only) return 1;
  for (const char *p = only; *p;) {
    size_t n = strcspn(p, ",");
    if (n && strncmp(name, p, n) == 0) return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

static unsigned *d_iters, h_iters[1024];
static float *d_out;

// One launch's line: result, and the rounds: sum, min, max, per-warp sums
// and per-warp maxima (a warp's requests in a loop are its slowest lane's
// rounds).
static void report(const char *name, int block, int rep, float got, float want_v) {
  ck(cudaMemcpy(h_iters, d_iters, block * sizeof(unsigned), cudaMemcpyDeviceToHost), "copy iters");
  unsigned long long sum = 0;
  unsigned mn = ~0u, mx = 0;
  for (int i = 0; i < block; i++) {
    sum += h_iters[i];
    if (h_iters[i] < mn) mn = h_iters[i];
    if (h_iters[i] > mx) mx = h_iters[i];
  }
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
    if (want("reload_cas"))
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, 1024 * sizeof(unsigned)), "memset");
        reload_cas<<<1, block>>>(d_out, d_iters);
        ck(cudaDeviceSynchronize(), "reload_cas");
        ck(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost), "copy out");
        report("reload_cas", block, r, got, sum_of(block, 32));
      }
    if (want("cas_fadd"))
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, 1024 * sizeof(unsigned)), "memset");
        cas_fadd<<<1, block>>>(d_out, d_iters);
        ck(cudaDeviceSynchronize(), "cas_fadd");
        ck(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost), "copy out");
        report("cas_fadd", block, r, got, sum_of(block, 32));
      }
    if (want("flag_chain"))
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, 1024 * sizeof(unsigned)), "memset");
        flag_chain<<<1, block>>>(d_out, d_iters);
        ck(cudaDeviceSynchronize(), "flag_chain");
        ck(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost), "copy out");
        report("flag_chain", block, r, got, (float)warps[s]);
      }
  }
  return 0;
}
