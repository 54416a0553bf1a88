// contend.cu: kernels whose shared-memory counts depend on how the GPU
// serialises same-address atomics and interleaves warps (CAS loops, shared
// atomics, spins on a volatile flag, a last-block counter), and busy kernels
// (stencil, cyclic reduction, convolution) run with and without concurrent
// global traffic through L1. Every kernel writes its threads' iteration
// counts to global memory; the program prints, per launch, the result (and
// whether it is the value arithmetic gives) and the counts' sum, minimum,
// maximum, per-warp sums and warp 0's lanes.
// Usage: contend [REPS] [ONLY]  (REPS launches of each configuration,
// default 5; ONLY: run only the kernels whose names start with one of
// its comma-separated prefixes)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog_name = "contend";
#include "kernels.cuh"

#define MAXT (1 << 20)

// A kernel whose threads update one shared word (`word`, 0 at first) with
// BODY (t: the thread's index, g: its global index); thread 0 then writes
// the word to out[blockIdx.x].
#define ONE_WORD(name, T, BODY)                                                                              \
  __global__ void name(T *out, unsigned *iters) {                                                          \
    __shared__ T word;                                                                                     \
    unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;                                             \
    if (t == 0) word = 0;                                                                                  \
    __syncthreads();                                                                                       \
    BODY;                                                                                                  \
    __syncthreads();                                                                                       \
    if (t == 0) out[blockIdx.x] = word;                                                                    \
  }

ONE_WORD(cas_fadd, float, iters[g] = cas_add(&word, addend(t)))

// The same through atomicAdd on a shared float (ptxas decides how).
ONE_WORD(native_fadd, float, atomicAdd(&word, addend(t)); iters[g] = 1)

// Mean and standard deviation of the block's inputs with two CAS loops (sum,
// then sum of squared deviations). Inputs are 0..7, so every partial sum is
// exact. iters: attempts of the first loop + 65536 * attempts of the second.
__global__ void stddev_cas(const float *in, float *out, unsigned *iters) {
  __shared__ float sum, sq;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) sum = sq = 0;
  __syncthreads();
  float x = in[g];
  unsigned n1 = cas_add(&sum, x);
  __syncthreads();
  float d = x - sum / (float)blockDim.x;
  unsigned n2 = cas_add(&sq, d * d);
  iters[g] = n1 + (n2 << 16);
  __syncthreads();
  if (t == 0) out[blockIdx.x] = sqrtf(sq / (float)blockDim.x);
}

// Every thread takes a ticket from one shared counter.
ONE_WORD(ticket_add, int, iters[g] = (unsigned)atomicAdd(&word, 1))

// The same counter, result unused.
ONE_WORD(count_add, int, atomicAdd(&word, 1); iters[g] = 1)

// Warp-aggregated tickets: one atomic per warp, lanes ranked by ballot.
ONE_WORD(agg_add, int, unsigned lane = t & 31; unsigned mask = __activemask(); int leader = __ffs(mask) - 1;
         int base = 0; if ((int)lane == leader) base = atomicAdd(&word, __popc(mask));
         base = __shfl_sync(mask, base, leader); iters[g] = (unsigned)(base + __popc(mask & ((1u << lane) - 1))))

// Warp 0 works for `work` rounds, then raises a volatile shared flag; the
// other warps spin on it. iters: the spinning loads each thread made.
__global__ void flag_spin(int *out, unsigned *iters, int work) {
  __shared__ volatile int flag;
  __shared__ int scratch[32];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) flag = 0;
  scratch[t & 31] = 0;
  __syncthreads();
  unsigned n = 0;
  if (t < 32) {
    for (int i = 0; i < work; i++) scratch[t] += i;
    __threadfence_block();
    if (t == 0) flag = 1;
  } else {
    while (flag == 0) n++;
  }
  iters[g] = n;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = scratch[0];
}

// threadFenceReduction: each block sums its inputs in shared memory, the
// last block to finish (by a global ticket) sums the blocks' partials.
__device__ unsigned done_count;
__device__ volatile unsigned arrived;
__global__ void last_block(const int *in, int *partial, int *out, unsigned *iters) {
  __shared__ int s[256];
  __shared__ bool is_last;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(&done_count, gridDim.x);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  iters[g] = is_last;
  if (is_last) {
    int v = 0;
    for (unsigned i = t; i < gridDim.x; i += blockDim.x) v += ((volatile int *)partial)[i];
    s[t] = v;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
      if (t < k) s[t] += s[t + k];
      __syncthreads();
    }
    if (t == 0) { *out = s[0]; done_count = 0; }
  }
}

// The same, but block 0 waits for the others on a volatile global counter,
// and its other threads wait for its thread 0 on a volatile shared flag.
__global__ void last_spin(const int *in, int *partial, int *out, unsigned *iters) {
  __shared__ int s[256];
  __shared__ volatile int ready;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) ready = 0;
  s[t] = in[g];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  unsigned n = 0;
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    atomicAdd((unsigned *)&arrived, 1);
    if (blockIdx.x == 0) {
      while (arrived < gridDim.x) n++;
      int v = 0;
      for (unsigned i = 0; i < gridDim.x; i++) v += ((volatile int *)partial)[i];
      *out = v;
      arrived = 0;
      ready = 1;
    }
  } else if (blockIdx.x == 0) {
    while (ready == 0) n++;
  }
  iters[g] = n;
}

// Busy kernels. `traffic` > 0 adds, between the shared phases, loads of a
// small global table (it stays in L1) whose sum goes to junk_out.
#define JUNK 4096
__device__ static float junk_loads(const float *junk, unsigned g, int traffic) {
  float a = 0;
  for (int k = 0; k < traffic; k++) a += junk[(g * 33 + (unsigned)k * 129) & (JUNK - 1)];
  return a;
}

// 5-point stencil over an n x n grid with a 16x16 tile and a 1-cell halo.
__global__ void stencil2d(const float *in, float *out, int n, const float *junk, float *junk_out, int traffic) {
  __shared__ float tile[18][18];
  int tx = threadIdx.x, ty = threadIdx.y, x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  unsigned g = (unsigned)(y * n + x);
  float j = junk_loads(junk, g, traffic);
  tile[ty + 1][tx + 1] = in[g];
  if (tx == 0) tile[ty + 1][0] = x > 0 ? in[g - 1] : 0;
  if (tx == 15) tile[ty + 1][17] = x < n - 1 ? in[g + 1] : 0;
  if (ty == 0) tile[0][tx + 1] = y > 0 ? in[g - n] : 0;
  if (ty == 15) tile[17][tx + 1] = y < n - 1 ? in[g + n] : 0;
  __syncthreads();
  j += junk_loads(junk, g + 7, traffic);
  out[g] = tile[ty + 1][tx + 1] * 4 - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] - tile[ty + 1][tx + 2];
  if (traffic) junk_out[g] = j;
}

// Cyclic reduction of tridiagonal systems of 128 unknowns, one per block of
// 64 threads (the strided shared accesses conflict by their addresses).
__global__ void cyclic_red(const float *abcd, float *x, const float *junk, float *junk_out, int traffic) {
  const int N = 128;
  __shared__ float a[N], b[N], c[N], d[N], xs[N];
  int t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  const float *sys = abcd + blockIdx.x * 4 * N;
  float j = junk_loads(junk, g, traffic);
  for (int i = t; i < N; i += blockDim.x) { a[i] = sys[i]; b[i] = sys[N + i]; c[i] = sys[2 * N + i]; d[i] = sys[3 * N + i]; }
  __syncthreads();
  int s;
  for (s = 1; s < N / 2; s *= 2) {
    int nt = N / (2 * s), i = 2 * s * t + 2 * s - 1, lo = i - s, hi = i + s;
    float na = 0, nb = 0, nc = 0, nd = 0;
    if (t < nt) {
      float k1 = a[i] / b[lo], k2 = hi < N ? c[i] / b[hi] : 0;
      nb = b[i] - c[lo] * k1 - (hi < N ? a[hi] * k2 : 0);
      nd = d[i] - d[lo] * k1 - (hi < N ? d[hi] * k2 : 0);
      na = -a[lo] * k1;
      nc = hi < N ? -c[hi] * k2 : 0;
    }
    __syncthreads();
    if (t < nt) { a[i] = na; b[i] = nb; c[i] = nc; d[i] = nd; }
    __syncthreads();
    j += junk_loads(junk, g + (unsigned)s, traffic);
  }
  if (t == 0) {
    int i1 = N / 2 - 1, i2 = N - 1;
    float den = b[i1] * b[i2] - c[i1] * a[i2];
    xs[i1] = (d[i1] * b[i2] - c[i1] * d[i2]) / den;
    xs[i2] = (b[i1] * d[i2] - d[i1] * a[i2]) / den;
  }
  __syncthreads();
  for (s = N / 4; s >= 1; s /= 2) {
    if (t < N / (2 * s)) {
      int i = s * (2 * t + 1) - 1;
      float left = i - s >= 0 ? xs[i - s] : 0;
      xs[i] = (d[i] - a[i] * left - c[i] * xs[i + s]) / b[i];
    }
    __syncthreads();
  }
  for (int i = t; i < N; i += blockDim.x) x[blockIdx.x * N + i] = xs[i];
  if (traffic) junk_out[g] = j;
}

// 1-D convolution with a 17-tap mask, a 256-point tile and an 8-point halo.
__constant__ float mask17[17];
__global__ void conv1d(const float *in, float *out, int n, const float *junk, float *junk_out, int traffic) {
  __shared__ float tile[256 + 16];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  unsigned g = (unsigned)i;
  float j = junk_loads(junk, g, traffic);
  tile[t + 8] = in[i];
  if (t < 8) tile[t] = i >= 8 ? in[i - 8] : 0;
  if (t >= 248) tile[t + 16] = i + 8 < n ? in[i + 8] : 0;
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 17; k++) {
    s += tile[t + k] * mask17[k];
    if (k == 8) j += junk_loads(junk, g + 3, traffic);
  }
  out[i] = s;
  if (traffic) junk_out[g] = j;
}

static unsigned *d_iters, *h_iters;
static float *d_f, *d_junk, *d_jout, *d_in, *d_out;
static int *d_i, *d_ii, *d_part;

// Prints one launch's iteration counts: sum, min, max, per-warp sums (of at
// most the first 32 warps) and warp 0's lanes.
static void report(const char *name, int grid, int block, int rep, const char *res, int ok, unsigned nthreads) {
  ck(cudaMemcpy(h_iters, d_iters, nthreads * sizeof(unsigned), cudaMemcpyDeviceToHost), "copy iters");
  unsigned long long sum;
  unsigned mn, mx;
  iters_stats(h_iters, nthreads, &sum, &mn, &mx);
  printf("%s grid=%d block=%d rep=%d result=%s %s iters sum=%llu min=%u max=%u warps=", name, grid, block, rep, res,
         ok ? "ok" : "WRONG", sum, mn, mx);
  for (unsigned w = 0; w < 32 && w * 32 < nthreads; w++) {
    unsigned long long s = 0;
    for (unsigned l = 0; l < 32 && w * 32 + l < nthreads; l++) s += h_iters[w * 32 + l];
    printf("%s%llu", w ? "," : "", s);
  }
  printf(" lanes=");
  for (unsigned l = 0; l < 32 && l < nthreads; l++) printf("%s%u", l ? "," : "", h_iters[l]);
  printf("\n");
  fflush(stdout);
}

// Launches a configuration `reps` times, each on zeroed iteration counts,
// and reports each launch; `result` formats the launch's result and says
// whether it is the expected one.
template <class Launch, class Result>
static void runs(const char *name, int grid, int block, int reps, Launch launch, Result result) {
  char res[64];
  for (int r = 0; r < reps; r++) {
    ck(cudaMemset(d_iters, 0, MAXT * sizeof(unsigned)), "memset");
    launch();
    ck(cudaDeviceSynchronize(), name);
    int ok = result(res, sizeof res);
    report(name, grid, block, r, res, ok, (unsigned)(grid * block));
  }
}

// The float result in d_out[0], formatted by fmt, against want.
static int result_f(char *res, size_t n, const char *fmt, float want) {
  float o;
  ck(cudaMemcpy(&o, d_out, sizeof o, cudaMemcpyDeviceToHost), "copy out");
  snprintf(res, n, fmt, o);
  return o == want;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  only = argc > 2 ? argv[2] : NULL;
  if (reps < 1) reps = 1;
  h_iters = (unsigned *)malloc(MAXT * sizeof(unsigned));
  float *h_f = (float *)malloc(MAXT * sizeof(float));
  int *h_i = (int *)malloc(MAXT * sizeof(int));
  ck(cudaMalloc(&d_iters, MAXT * sizeof(unsigned)), "malloc");
  ck(cudaMalloc(&d_f, MAXT * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_i, MAXT * sizeof(int)), "malloc");
  ck(cudaMalloc(&d_ii, MAXT * sizeof(int)), "malloc");
  ck(cudaMalloc(&d_part, 4096 * sizeof(int)), "malloc");
  ck(cudaMalloc(&d_junk, JUNK * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_jout, MAXT * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_in, MAXT * sizeof(float)), "malloc");
  ck(cudaMalloc(&d_out, MAXT * sizeof(float)), "malloc");
  for (int i = 0; i < MAXT; i++) { h_f[i] = (float)(i % 8); h_i[i] = i % 13 - 6; }
  ck(cudaMemcpy(d_in, h_f, MAXT * sizeof(float), cudaMemcpyHostToDevice), "copy in");
  ck(cudaMemcpy(d_ii, h_i, MAXT * sizeof(int), cudaMemcpyHostToDevice), "copy in");
  for (int i = 0; i < JUNK; i++) h_f[i] = (float)(i & 15);
  ck(cudaMemcpy(d_junk, h_f, JUNK * sizeof(float), cudaMemcpyHostToDevice), "copy junk");
  char res[64];

  // Same-address shared atomics, 1 to 32 warps of one block.
  static const int blocks[] = {32, 64, 128, 256, 1024};
  for (int b = 0; b < 5; b++) {
    float want_sum = 0;
    for (int t = 0; t < blocks[b]; t++) want_sum += addend((unsigned)t);
    struct { const char *name; void (*k)(float *, unsigned *); } fk[] = {{"cas_fadd", cas_fadd}, {"native_fadd", native_fadd}};
    for (int k = 0; k < 2; k++)
      if (want(fk[k].name))
        runs(fk[k].name, 1, blocks[b], reps, [&] { fk[k].k<<<1, blocks[b]>>>(d_out, d_iters); },
             [&](char *res, size_t n) { return result_f(res, n, "%.2f", want_sum); });
    struct { const char *name; void (*k)(int *, unsigned *); } ik[] = {{"ticket_add", ticket_add}, {"count_add", count_add}, {"agg_add", agg_add}};
    for (int k = 0; k < 3; k++)
      if (want(ik[k].name) && (blocks[b] == 32 || blocks[b] == 1024))
        runs(ik[k].name, 1, blocks[b], reps, [&] { ik[k].k<<<1, blocks[b]>>>(d_i, d_iters); },
             [&](char *res, size_t n) {
               int o;
               ck(cudaMemcpy(&o, d_i, sizeof o, cudaMemcpyDeviceToHost), "copy out");
               snprintf(res, n, "%d", o);
               return o == blocks[b];
             });
    // inputs 0..7 equally often: variance (0+1+...+49)/8 - 3.5^2 = 5.25
    if (want("stddev_cas") && blocks[b] >= 256)
      runs("stddev_cas", 1, blocks[b], reps, [&] { stddev_cas<<<1, blocks[b]>>>(d_in, d_out, d_iters); },
           [&](char *res, size_t n) { return result_f(res, n, "%.6f", sqrtf(5.25f)); });
  }

  // Spins on a volatile shared flag.
  static const int spins[][2] = {{128, 0}, {128, 64}, {1024, 64}};
  for (int s = 0; s < 3 && want("flag_spin"); s++)
    for (int r = 0; r < reps; r++) {
      ck(cudaMemset(d_iters, 0, MAXT * sizeof(unsigned)), "memset");
      flag_spin<<<1, spins[s][0]>>>(d_i, d_iters, spins[s][1]);
      ck(cudaDeviceSynchronize(), "flag_spin");
      int o;
      ck(cudaMemcpy(&o, d_i, sizeof o, cudaMemcpyDeviceToHost), "copy out");
      snprintf(res, sizeof res, "work=%d:%d", spins[s][1], o);
      report("flag_spin", 1, spins[s][0], r, res, o == spins[s][1] * (spins[s][1] - 1) / 2, (unsigned)spins[s][0]);
    }
  static const int chains[] = {128, 1024};
  for (int s = 0; s < 2 && want("flag_chain"); s++)
    for (int r = 0; r < reps; r++) {
      ck(cudaMemset(d_iters, 0, MAXT * sizeof(unsigned)), "memset");
      flag_chain<<<1, chains[s]>>>(d_i, d_iters);
      ck(cudaDeviceSynchronize(), "flag_chain");
      int o;
      ck(cudaMemcpy(&o, d_i, sizeof o, cudaMemcpyDeviceToHost), "copy out");
      snprintf(res, sizeof res, "%d", o);
      report("flag_chain", 1, chains[s], r, res, o == chains[s] / 32, (unsigned)chains[s]);
    }

  // Last-block reductions over a global ticket / a global spin.
  static const int lgrids[] = {8, 64};
  for (int s = 0; s < 2; s++) {
    int grid = lgrids[s], want_sum = 0;
    for (int i = 0; i < grid * 256; i++) want_sum += i % 13 - 6;
    struct { const char *name; void (*k)(const int *, int *, int *, unsigned *); } lk[] = {{"last_block", last_block}, {"last_spin", last_spin}};
    for (int k = 0; k < 2; k++) {
      if (!want(lk[k].name)) continue;
      for (int r = 0; r < reps; r++) {
        ck(cudaMemset(d_iters, 0, MAXT * sizeof(unsigned)), "memset");
        ck(cudaMemset(d_i, 0, sizeof(int)), "memset");
        lk[k].k<<<grid, 256>>>(d_ii, d_part, d_i, d_iters);
        ck(cudaDeviceSynchronize(), lk[k].name);
        int o;
        ck(cudaMemcpy(&o, d_i, sizeof o, cudaMemcpyDeviceToHost), "copy out");
        snprintf(res, sizeof res, "%d", o);
        report(lk[k].name, grid, 256, r, res, o == want_sum, (unsigned)grid * 256);
      }
    }
  }

  // Busy kernels: one block (light), a full grid, a full grid with traffic.
  static const int busy[][2] = {{0, 0}, {1, 0}, {1, 8}};
  float hm[17];
  for (int k = 0; k < 17; k++) hm[k] = (float)(k % 5) - 2;
  ck(cudaMemcpyToSymbol(mask17, hm, sizeof hm), "mask");
  for (int c = 0; c < 3; c++) {
    int full = busy[c][0], traffic = busy[c][1];
    for (int r = 0; r < 3; r++) {
      if (want("stencil2d")) {
        int n = 512, gb = full ? n / 16 : 1;
        stencil2d<<<dim3(gb, gb), dim3(16, 16)>>>(d_in, d_out, n, d_junk, d_jout, traffic);
        ck(cudaDeviceSynchronize(), "stencil2d");
        float o;
        ck(cudaMemcpy(&o, d_out + n + 1, sizeof o, cudaMemcpyDeviceToHost), "copy out");
        snprintf(res, sizeof res, "traffic=%d:%.1f", traffic, o);
        // in[i] = i % 8 with n = 512: the point (1,1) is 513 -> 1, its
        // neighbours 1 -> 1, 1025 -> 1, 512 -> 0, 514 -> 2: 4 - 1 - 1 - 0 - 2
        printf("%s grid=%d block=256 rep=%d result=%s %s\n", "stencil2d", gb * gb, r, res, o == 0.0f ? "ok" : "WRONG");
      }
      if (want("cyclic_red")) {
        int grid = full ? 1024 : 1;
        // diagonally dominant systems: a = c = 1, b = 4, d = 6 (x = 1 inside)
        static float *h_sys;
        if (!h_sys) {
          h_sys = (float *)malloc(1024 * 4 * 128 * sizeof(float));
          for (int s = 0; s < 1024; s++)
            for (int i = 0; i < 128; i++) {
              float *q = h_sys + s * 512;
              q[i] = i ? 1 : 0; q[128 + i] = 4; q[256 + i] = i < 127 ? 1 : 0; q[384 + i] = (i == 0 || i == 127) ? 5 : 6;
            }
        }
        ck(cudaMemcpy(d_f, h_sys, 1024 * 512 * sizeof(float), cudaMemcpyHostToDevice), "copy sys");
        cyclic_red<<<grid, 64>>>(d_f, d_out, d_junk, d_jout, traffic);
        ck(cudaDeviceSynchronize(), "cyclic_red");
        float o[128];
        ck(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost), "copy out");
        double err = 0;
        for (int i = 0; i < 128; i++) err = fmax(err, fabs(o[i] - 1.0));
        snprintf(res, sizeof res, "traffic=%d:maxerr<1e-5", traffic);
        printf("%s grid=%d block=64 rep=%d result=%s %s\n", "cyclic_red", grid, r, res, err < 1e-5 ? "ok" : "WRONG");
      }
      if (want("conv1d")) {
        int grid = full ? 2048 : 1, n = grid * 256;
        conv1d<<<grid, 256>>>(d_in, d_out, n, d_junk, d_jout, traffic);
        ck(cudaDeviceSynchronize(), "conv1d");
        float o;
        ck(cudaMemcpy(&o, d_out + 100, sizeof o, cudaMemcpyDeviceToHost), "copy out");
        double w = 0;
        for (int k = 0; k < 17; k++) w += ((100 - 8 + k) % 8) * hm[k];
        snprintf(res, sizeof res, "traffic=%d:%.1f", traffic, o);
        printf("%s grid=%d block=256 rep=%d result=%s %s\n", "conv1d", grid, r, res, o == (float)w ? "ok" : "WRONG");
      }
    }
  }
  return 0;
}
