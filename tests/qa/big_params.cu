// Kernel parameters by value: a 6 KB struct (CUDA 12.1+ allows up to 32764
// bytes of parameters), a float4 (16-byte aligned) and a struct with
// pointers and a char in between; the table is staged into shared memory.
#include "qa.h"

struct Table { int v[1536]; };          /* 6144 bytes */
struct Mixed { char tag; double *dst; short k; float4 f; };

__global__ void useParams(Table tab, float4 q, Mixed m, int *out)
{
  __shared__ int s[1536];
  for (int i = threadIdx.x; i < 1536; i += blockDim.x) s[i] = tab.v[i];
  __syncthreads();
  int t = threadIdx.x;
  out[t] = s[1535 - t] + (int)q.x + (int)q.w + m.k + m.tag;
  if (t == 0) *m.dst = (double)m.f.y + m.f.z;
}

int main()
{
  Table tab;
  for (int i = 0; i < 1536; i++) tab.v[i] = i * 7;
  int *d, o[256];
  double *dd, hd = 0;
  CHECK(cudaMalloc(&d, sizeof o));
  CHECK(cudaMalloc(&dd, sizeof hd));
  Mixed m;
  m.tag = 5; m.dst = dd; m.k = -3; m.f = make_float4(0.f, 1.5f, 2.25f, 0.f);
  useParams<<<1, 256>>>(tab, make_float4(10.f, 0.f, 0.f, 100.f), m, d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 256; t++) EXPECT_EQ("out", t, o[t], (1535 - t) * 7 + 10 + 100 - 3 + 5);
  EXPECT_EQ("dst", 0, hd, 3.75);
  return qa_done("big_params");
}
