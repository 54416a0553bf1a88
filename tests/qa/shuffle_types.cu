// Shuffles of 64-bit, float, double and __half2 values (the 64-bit ones
// split into two 32-bit shuffles), bit intrinsics (__brev, __clz, __ffs,
// __byte_perm, __funnelshift_l, __popcll) written to shared and read back
// rotated, and atomicAdd on shared __half2 / __nv_bfloat162.
#include "qa.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void kern(const unsigned long long *in, unsigned long long *o64, double *od, unsigned *obits,
                     float *oh)
{
  __shared__ unsigned long long s64[64];
  __shared__ double sd[64];
  __shared__ unsigned bits[64][6];
  __shared__ __half2 hacc;
  __shared__ __nv_bfloat162 bacc;
  int t = threadIdx.x, lane = t & 31;
  if (t == 0) { hacc = __floats2half2_rn(0.f, 0.f); bacc = __floats2bfloat162_rn(0.f, 0.f); }
  __syncthreads();
  unsigned long long v = in[t];
  s64[t] = __shfl_xor_sync(0xffffffffu, v, 5);
  sd[t] = __shfl_down_sync(0xffffffffu, (double)(v & 0xffff) * 0.5, 3);
  unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
  bits[t][0] = __brev(lo);
  bits[t][1] = __clz(lo);
  bits[t][2] = __ffs(hi);
  bits[t][3] = __byte_perm(lo, hi, 0x7531);
  bits[t][4] = __funnelshift_l(lo, hi, lane);
  bits[t][5] = __popcll(v);
  atomicAdd(&hacc, __floats2half2_rn(1.f, 0.5f));
  atomicAdd(&bacc, __floats2bfloat162_rn(2.f, 1.f));
  __syncthreads();
  int r = (t + 7) % 64;
  o64[t] = s64[r];
  od[t] = sd[r];
  for (int k = 0; k < 6; k++) obits[t * 6 + k] = bits[r][k];
  if (t == 0) {
    oh[0] = __low2float(hacc); oh[1] = __high2float(hacc);
    oh[2] = __low2float(bacc); oh[3] = __high2float(bacc);
  }
}

static unsigned brev(unsigned x) { unsigned r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); return r; }
static unsigned clz(unsigned x) { unsigned n = 0; while (n < 32 && !(x & (0x80000000u >> n))) n++; return n; }
static unsigned ffs1(unsigned x) { for (int i = 0; i < 32; i++) if (x >> i & 1) return i + 1; return 0; }
static unsigned byteperm(unsigned a, unsigned b, unsigned s)
{
  unsigned long long x = (unsigned long long)b << 32 | a; unsigned r = 0;
  for (int k = 0; k < 4; k++) r |= (unsigned)((x >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}

int main()
{
  unsigned long long h[64], o[64];
  double od[64];
  unsigned ob[64 * 6];
  float oh[4];
  unsigned seed = 43;
  for (int i = 0; i < 64; i++) h[i] = (unsigned long long)qa_lcg(&seed) << 40 ^ (unsigned long long)qa_lcg(&seed) << 16 ^ qa_lcg(&seed);
  h[3] = 0; h[9] = 1ull << 63;
  unsigned long long *d, *d64; double *dd; unsigned *db; float *dh;
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&d64, sizeof o)); CHECK(cudaMalloc(&dd, sizeof od));
  CHECK(cudaMalloc(&db, sizeof ob)); CHECK(cudaMalloc(&dh, sizeof oh));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  kern<<<1, 64>>>(d, d64, dd, db, dh);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, d64, sizeof o, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(od, dd, sizeof od, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ob, db, sizeof ob, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(oh, dh, sizeof oh, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++) {
    int r = (t + 7) % 64, w = r / 32 * 32, l = r % 32;
    EXPECT_EQ("xor64", t, o[t], h[w + (l ^ 5)]);
    int src = l + 3 < 32 ? w + l + 3 : r;
    EXPECT_EQ("down_f64", t, od[t], (double)(h[src] & 0xffff) * 0.5);
    unsigned lo = (unsigned)h[r], hi = (unsigned)(h[r] >> 32);
    EXPECT_EQ("brev", t, ob[t * 6 + 0], brev(lo));
    EXPECT_EQ("clz", t, ob[t * 6 + 1], clz(lo));
    EXPECT_EQ("ffs", t, ob[t * 6 + 2], ffs1(hi));
    EXPECT_EQ("byte_perm", t, ob[t * 6 + 3], byteperm(lo, hi, 0x7531));
    unsigned long long fx = ((unsigned long long)hi << 32 | lo) << (l & 31);
    EXPECT_EQ("funnelshift", t, ob[t * 6 + 4], l ? (unsigned)(fx >> 32) : hi);
    EXPECT_EQ("popcll", t, ob[t * 6 + 5], (unsigned)__builtin_popcountll(h[r]));
  }
  EXPECT_EQ("half2.x", 0, oh[0], 64.f);
  EXPECT_EQ("half2.y", 0, oh[1], 32.f);
  EXPECT_EQ("bf162.x", 0, oh[2], 128.f);
  EXPECT_EQ("bf162.y", 0, oh[3], 64.f);
  return qa_done("shuffle_types");
}
