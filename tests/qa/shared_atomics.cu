// Atomics on shared float, double, 64-bit integers (add, max, min, CAS loop,
// exch, and/or/xor); values chosen so float/double sums are exact.
#include "qa.h"

__device__ double casAddDouble(double *a, double v)
{
  unsigned long long *p = (unsigned long long *)a, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) + v));
  } while (assumed != old);
  return __longlong_as_double(old);
}

struct Out {
  float fsum; double dsum; double csum;
  unsigned long long u64sum, u64max, u64min, u64and, u64or, u64xor;
  long long i64max, i64min;
  float fexch_seen; int pad;
};

__global__ void atoms(const int *in, int n, Out *out)
{
  __shared__ float fsum;
  __shared__ double dsum, csum;
  __shared__ unsigned long long u64[6];
  __shared__ long long i64[2];
  __shared__ float fx;
  if (threadIdx.x == 0) {
    fsum = 0.f; dsum = 0.0; csum = 0.0; fx = -1.f;
    u64[0] = 0; u64[1] = 0; u64[2] = ~0ull; u64[3] = ~0ull; u64[4] = 0; u64[5] = 0;
    i64[0] = -(1ll << 62); i64[1] = 1ll << 62;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    int v = in[i];
    atomicAdd(&fsum, (float)v * 0.5f);
    atomicAdd(&dsum, (double)v * 0.25);
    casAddDouble(&csum, (double)v);
    unsigned long long u = (unsigned long long)(unsigned)v << 20 | (unsigned)i;
    atomicAdd(&u64[0], u);
    atomicMax(&u64[1], u);
    atomicMin(&u64[2], u);
    atomicAnd(&u64[3], ~(1ull << (i % 64)) | (i >= 64 ? ~0ull : 0ull));
    atomicOr(&u64[4], 1ull << (v % 64));
    atomicXor(&u64[5], u);
    long long sv = (long long)(v - 500) * 1000000007ll;
    atomicMax(&i64[0], sv);
    atomicMin(&i64[1], sv);
    atomicExch(&fx, (float)v);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out->fsum = fsum; out->dsum = dsum; out->csum = csum;
    out->u64sum = u64[0]; out->u64max = u64[1]; out->u64min = u64[2];
    out->u64and = u64[3]; out->u64or = u64[4]; out->u64xor = u64[5];
    out->i64max = i64[0]; out->i64min = i64[1]; out->fexch_seen = fx;
  }
}

int main()
{
  const int n = 3000;
  int *h = (int *)malloc(n * 4);
  unsigned seed = 17;
  for (int i = 0; i < n; i++) h[i] = (int)(qa_lcg(&seed) % 1000);
  int *d; Out *dout; Out o;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof(Out)));
  CHECK(cudaMemset(dout, 0, sizeof(Out))); /* its padding too: initcheck */
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  atoms<<<1, 256>>>(d, n, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&o, dout, sizeof o, cudaMemcpyDeviceToHost));
  double fs = 0, ds = 0, cs = 0;
  unsigned long long us = 0, umax = 0, umin = ~0ull, uand = ~0ull, uor = 0, ux = 0;
  long long imax = -(1ll << 62), imin = 1ll << 62;
  int seenOk = 0;
  for (int i = 0; i < n; i++) {
    int v = h[i];
    fs += v * 0.5; ds += v * 0.25; cs += v;
    unsigned long long u = (unsigned long long)(unsigned)v << 20 | (unsigned)i;
    us += u; umax = u > umax ? u : umax; umin = u < umin ? u : umin;
    uand &= ~(1ull << (i % 64)) | (i >= 64 ? ~0ull : 0ull);
    uor |= 1ull << (v % 64); ux ^= u;
    long long sv = (long long)(v - 500) * 1000000007ll;
    imax = sv > imax ? sv : imax; imin = sv < imin ? sv : imin;
    if (o.fexch_seen == (float)v) seenOk = 1;
  }
  EXPECT_EQ("fsum", 0, o.fsum, (float)fs);
  EXPECT_EQ("dsum", 0, o.dsum, ds);
  EXPECT_EQ("csum", 0, o.csum, cs);
  EXPECT_EQ("u64sum", 0, o.u64sum, us);
  EXPECT_EQ("u64max", 0, o.u64max, umax);
  EXPECT_EQ("u64min", 0, o.u64min, umin);
  EXPECT_EQ("u64and", 0, o.u64and, uand);
  EXPECT_EQ("u64or", 0, o.u64or, uor);
  EXPECT_EQ("u64xor", 0, o.u64xor, ux);
  EXPECT_EQ("i64max", 0, o.i64max, imax);
  EXPECT_EQ("i64min", 0, o.i64min, imin);
  EXPECT_EQ("exch value is one of the inputs", 0, seenOk, 1);
  return qa_done("shared_atomics");
}
