/* soa_aos.cu: particles in shared memory as structs and as arrays: an
 * all-pairs potential where every thread reads particle j (a broadcast):
 * (1) array of float4-like structs {x, y, z, m} read field by field;
 * (2) array of 12-byte structs {x, y, z} plus a separate mass array;
 * (3) struct of arrays. Then each thread writes its own struct back
 * (strided stores of 16 and 12 bytes). */
#include "../../programs/prog.h"

#define BLOCK 128
#define N 128

struct p4 { float x, y, z, m; };
struct p3 { float x, y, z; };

__global__ void pairs_aos4(const float *in, float *out)
{
  __shared__ p4 p[N];
  int t = threadIdx.x;
  const float *q = in + blockIdx.x * 4 * N;
  p[t].x = q[t];
  p[t].y = q[N + t];
  p[t].z = q[2 * N + t];
  p[t].m = q[3 * N + t];
  __syncthreads();
  float px = p[t].x, py = p[t].y, pz = p[t].z, e = 0;
  for (int j = 0; j < N; j++) {
    float dx = p[j].x - px, dy = p[j].y - py, dz = p[j].z - pz;
    e += p[j].m * (dx * dx + dy * dy + dz * dz);
  }
  out[blockIdx.x * N + t] = e;
}

__global__ void pairs_aos3(const float *in, float *out)
{
  __shared__ p3 p[N];
  __shared__ float m[N];
  int t = threadIdx.x;
  const float *q = in + blockIdx.x * 4 * N;
  p[t].x = q[t];
  p[t].y = q[N + t];
  p[t].z = q[2 * N + t];
  m[t] = q[3 * N + t];
  __syncthreads();
  float px = p[t].x, py = p[t].y, pz = p[t].z, e = 0;
  for (int j = 0; j < N; j++) {
    float dx = p[j].x - px, dy = p[j].y - py, dz = p[j].z - pz;
    e += m[j] * (dx * dx + dy * dy + dz * dz);
  }
  out[blockIdx.x * N + t] = e;
}

__global__ void pairs_soa(const float *in, float *out)
{
  __shared__ float x[N], y[N], z[N], m[N];
  int t = threadIdx.x;
  const float *q = in + blockIdx.x * 4 * N;
  x[t] = q[t];
  y[t] = q[N + t];
  z[t] = q[2 * N + t];
  m[t] = q[3 * N + t];
  __syncthreads();
  float px = x[t], py = y[t], pz = z[t], e = 0;
  for (int j = 0; j < N; j++) {
    float dx = x[j] - px, dy = y[j] - py, dz = z[j] - pz;
    e += m[j] * (dx * dx + dy * dy + dz * dz);
  }
  out[blockIdx.x * N + t] = e;
}

int main()
{
  const int blocks = 4, n = blocks * 4 * N;
  float *h = (float *)malloc(n * 4), o[blocks * N];
  unsigned s = 41;
  /* small integers: every partial sum is an exact float */
  for (int i = 0; i < n; i++) h[i] = (float)(lcg(&s) % 8);
  float *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[3];
  for (int v = 0; v < 3; v++) {
    if (v == 0) pairs_aos4<<<blocks, BLOCK>>>(d, dout);
    if (v == 1) pairs_aos3<<<blocks, BLOCK>>>(d, dout);
    if (v == 2) pairs_soa<<<blocks, BLOCK>>>(d, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < N; t++) {
        const float *q = h + b * 4 * N;
        float e = 0;
        for (int j = 0; j < N; j++) {
          float dx = q[j] - q[t], dy = q[N + j] - q[N + t], dz = q[2 * N + j] - q[2 * N + t];
          e += q[3 * N + j] * (dx * dx + dy * dy + dz * dz);
        }
        bad += o[b * N + t] != e;
      }
    hs[v] = fnv(o, blocks * N);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("soa_aos", bad, "%08x %08x %08x", hs[0], hs[1], hs[2]);
}
