/* double_shared.cu: 64-bit data in shared memory: (1) a tree reduction in
 * double; (2) a Hillis-Steele scan of long long; (3) shared atomicAdd on
 * unsigned long long bins; (4) atomicAdd on a double per warp by lane 0
 * only (an uncontended compare-and-swap loop); (5) double2 pairs. */
#include "../../programs/prog.h"

#define BLOCK 128

__global__ void reduce_d(const double *in, double *out)
{
  __shared__ double s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int n = BLOCK / 2; n > 0; n >>= 1) {
    if (t < n) s[t] += s[t + n];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void scan_ll(const long long *in, long long *out)
{
  __shared__ long long a[2][BLOCK];
  int t = threadIdx.x, cur = 0;
  a[0][t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int o = 1; o < BLOCK; o <<= 1) {
    a[1 - cur][t] = a[cur][t] + (t >= o ? a[cur][t - o] : 0);
    cur = 1 - cur;
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + t] = a[cur][t];
}

__global__ void hist_u64(const long long *in, unsigned long long *out)
{
  __shared__ unsigned long long bins[16];
  int t = threadIdx.x;
  if (t < 16) bins[t] = 0;
  __syncthreads();
  long long v = in[blockIdx.x * BLOCK + t];
  atomicAdd(&bins[v & 15], (unsigned long long)v);
  __syncthreads();
  if (t < 16) atomicAdd(&out[t], bins[t]);
}

__global__ void warp_sum_d(const double *in, double *out)
{
  __shared__ double ws[BLOCK / 32];
  int t = threadIdx.x;
  if (t < BLOCK / 32) ws[t] = 0;
  __syncthreads();
  double v = in[blockIdx.x * BLOCK + t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (t % 32 == 0) atomicAdd(&ws[t / 32], v);
  __syncthreads();
  if (t < BLOCK / 32) out[blockIdx.x * (BLOCK / 32) + t] = ws[t];
}

__global__ void pair_d2(const double *in, double *out)
{
  __shared__ double2 s[BLOCK];
  int t = threadIdx.x;
  s[t] = make_double2(in[blockIdx.x * BLOCK + t], -in[blockIdx.x * BLOCK + t]);
  __syncthreads();
  double2 a = s[(t + 1) % BLOCK], b = s[(t * 5) % BLOCK];
  out[blockIdx.x * BLOCK + t] = a.x + b.y;
}

int main()
{
  const int blocks = 6, n = blocks * BLOCK;
  double *hd = (double *)malloc(n * 8), *od = (double *)malloc(n * 8);
  long long *hl = (long long *)malloc(n * 8), *ol = (long long *)malloc(n * 8);
  unsigned long long ob[16];
  unsigned s = 13;
  for (int i = 0; i < n; i++) {
    hd[i] = (double)(lcg(&s) % 1000) / 8;
    hl[i] = ((long long)lcg(&s) << 20) + lcg(&s);
  }
  double *dd, *dod;
  long long *dl, *dol;
  unsigned long long *db;
  CHECK(cudaMalloc(&dd, n * 8));
  CHECK(cudaMalloc(&dod, n * 8));
  CHECK(cudaMalloc(&dl, n * 8));
  CHECK(cudaMalloc(&dol, n * 8));
  CHECK(cudaMalloc(&db, sizeof ob));
  CHECK(cudaMemcpy(dd, hd, n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dl, hl, n * 8, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[5];
  reduce_d<<<blocks, BLOCK>>>(dd, dod);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(od, dod, blocks * 8, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    double r = 0; /* multiples of 1/8 below 2^20: exact in any order */
    for (int t = 0; t < BLOCK; t++) r += hd[b * BLOCK + t];
    bad += od[b] != r;
  }
  hs[0] = fnv(od, blocks * 2);
  scan_ll<<<blocks, BLOCK>>>(dl, dol);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ol, dol, n * 8, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    long long r = 0;
    for (int t = 0; t < BLOCK; t++) r += hl[b * BLOCK + t], bad += ol[b * BLOCK + t] != r;
  }
  hs[1] = fnv(ol, n * 2);
  CHECK(cudaMemset(db, 0, sizeof ob));
  hist_u64<<<blocks, BLOCK>>>(dl, db);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ob, db, sizeof ob, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 16; k++) {
    unsigned long long r = 0;
    for (int i = 0; i < n; i++)
      if ((hl[i] & 15) == k) r += (unsigned long long)hl[i];
    bad += ob[k] != r;
  }
  hs[2] = fnv(ob, 32);
  warp_sum_d<<<blocks, BLOCK>>>(dd, dod);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(od, dod, n / 32 * 8, cudaMemcpyDeviceToHost));
  for (int w = 0; w < n / 32; w++) {
    double r = 0;
    for (int t = 0; t < 32; t++) r += hd[w * 32 + t];
    bad += od[w] != r;
  }
  hs[3] = fnv(od, n / 16);
  pair_d2<<<blocks, BLOCK>>>(dd, dod);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(od, dod, n * 8, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < BLOCK; t++)
      bad += od[b * BLOCK + t] != hd[b * BLOCK + (t + 1) % BLOCK] - hd[b * BLOCK + (t * 5) % BLOCK];
  hs[4] = fnv(od, n * 2);
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dod));
  CHECK(cudaFree(dl));
  CHECK(cudaFree(dol));
  CHECK(cudaFree(db));
  return result("double_shared", bad, "%08x %08x %08x %08x %08x", hs[0], hs[1], hs[2], hs[3], hs[4]);
}
