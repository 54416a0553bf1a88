// Structs in shared memory: an array of 12-byte particles (AoS), a struct of
// arrays, a struct with a union and a nested array, copied whole with
// struct assignment; a pairwise force sum per tile; CPU reference.
#include "qa.h"

struct P { float x, y, m; };
struct SoA { float x[64]; float y[64]; };
struct Mixed { int tag; union { float f; int i; } u; short s[3]; char c; };

__global__ void forces(const P *ps, int n, float2 *acc, Mixed *mixOut)
{
  __shared__ P tile[64];
  __shared__ SoA soa;
  __shared__ Mixed mx[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  P me = i < n ? ps[i] : P{0.f, 0.f, 0.f};
  float ax = 0.f, ay = 0.f;
  for (int base = 0; base < n; base += 64) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? ps[j] : P{0.f, 0.f, 0.f};
    soa.x[threadIdx.x] = tile[threadIdx.x].x;
    soa.y[threadIdx.x] = tile[threadIdx.x].y;
    __syncthreads();
    for (int k = 0; k < 64; k++) {
      ax += tile[k].m * (soa.x[k] - me.x);
      ay += tile[k].m * (soa.y[k] - me.y);
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float2(ax, ay);
  Mixed m;
  m.tag = threadIdx.x;
  if (threadIdx.x & 1) m.u.f = (float)threadIdx.x * 0.5f; else m.u.i = -(int)threadIdx.x;
  m.s[0] = threadIdx.x; m.s[1] = 2 * threadIdx.x; m.s[2] = 3 * threadIdx.x;
  m.c = 'a' + threadIdx.x % 26;
  mx[63 - threadIdx.x] = m;
  __syncthreads();
  if (blockIdx.x == 0) mixOut[threadIdx.x] = mx[threadIdx.x];
}

int main()
{
  const int n = 200;
  P *h = (P *)malloc(n * sizeof(P));
  for (int i = 0; i < n; i++) h[i] = P{(float)(i % 13), (float)(i % 7) - 3.f, (float)(1 + i % 3)};
  P *d; float2 *da; Mixed *dm;
  CHECK(cudaMalloc(&d, n * sizeof(P)));
  CHECK(cudaMalloc(&da, n * sizeof(float2)));
  CHECK(cudaMalloc(&dm, 64 * sizeof(Mixed)));
  CHECK(cudaMemcpy(d, h, n * sizeof(P), cudaMemcpyHostToDevice));
  forces<<<(n + 63) / 64, 64>>>(d, n, da, dm);
  CHECK(cudaGetLastError());
  float2 *o = (float2 *)malloc(n * sizeof(float2));
  Mixed mo[64];
  CHECK(cudaMemcpy(o, da, n * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(mo, dm, sizeof mo, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float ax = 0.f, ay = 0.f; /* same order as the kernel: exact small integers anyway */
    for (int j = 0; j < n; j++) { ax += h[j].m * (h[j].x - h[i].x); ay += h[j].m * (h[j].y - h[i].y); }
    EXPECT_EQ("ax", i, o[i].x, ax);
    EXPECT_EQ("ay", i, o[i].y, ay);
  }
  for (int t = 0; t < 64; t++) {
    int src = 63 - t;
    EXPECT_EQ("tag", t, mo[t].tag, src);
    if (src & 1) EXPECT_EQ("u.f", t, mo[t].u.f, src * 0.5f); else EXPECT_EQ("u.i", t, mo[t].u.i, -src);
    EXPECT_EQ("s2", t, mo[t].s[2], 3 * src);
    EXPECT_EQ("c", t, mo[t].c, 'a' + src % 26);
  }
  return qa_done("struct_shared");
}
