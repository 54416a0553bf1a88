// A student following the tutorials (shared-memory-launch-and-banks.md):
// dynamicReverse, several arrays carved from one extern array exactly as the
// tutorial shows (ints, floats, chars), the cache-config calls, and a bank
// experiment whose counts follow from the bank rule (32 banks of 4 bytes):
// one warp reading s[t * S] for S = 1, 2, 4, 32 needs 1, 2, 4, 32 wavefronts.
// qa-run-opts: --report banks
// qa-expect: tutorial_student.cu:28 +ld \(ld.shared.f32\)( \[SASS [A-Z0-9.]*\])? +requests 1 +wavefronts 2 +conflicts 1
// qa-expect: tutorial_student.cu:29 +ld \(ld.shared.f32\)( \[SASS [A-Z0-9.]*\])? +requests 1 +wavefronts 4 +conflicts 3
// qa-expect: tutorial_student.cu:30 +ld \(ld.shared.f32\)( \[SASS [A-Z0-9.]*\])? +requests 1 +wavefronts 32 +conflicts 31
// qa-expect: ^QA tutorial_student PASS
#include "qa.h"

__global__ void dynamicReverse(int *d, int n)
{
  extern __shared__ int s[];
  int t = threadIdx.x, tr = n - t - 1;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[tr];
}

__global__ void strides(float *out)
{
  __shared__ float s[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += 32) s[i] = (float)i;
  __syncthreads();
  float a = s[threadIdx.x];
  float b = s[threadIdx.x * 2];
  float c = s[threadIdx.x * 4];
  float e = s[threadIdx.x * 32];
  out[threadIdx.x] = a + b + c + e;
}

__global__ void carve(int nI, int nF, int nC, int *oi, float *of, char *oc)
{
  extern __shared__ int s[];
  int *integerData = s;
  float *floatData = (float *)&integerData[nI];
  char *charData = (char *)&floatData[nF];
  int t = threadIdx.x;
  if (t < nI) integerData[t] = t * 3;
  if (t < nF) floatData[t] = t * 0.5f;
  if (t < nC) charData[t] = (char)('a' + t % 26);
  __syncthreads();
  if (t < nI) oi[t] = integerData[nI - 1 - t];
  if (t < nF) of[t] = floatData[nF - 1 - t];
  if (t < nC) oc[t] = charData[nC - 1 - t];
}

int main()
{
  const int n = 64;
  int a[n], r[n];
  for (int i = 0; i < n; i++) a[i] = i;
  int *d;
  CHECK(cudaMalloc(&d, sizeof a));
  CHECK(cudaMemcpy(d, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetCacheConfig(dynamicReverse, cudaFuncCachePreferShared));
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferEqual));
  dynamicReverse<<<1, n, n * sizeof(int)>>>(d, n);
  CHECK(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT_EQ("reverse", i, r[i], n - 1 - i);

  float *dout, out[32];
  CHECK(cudaMalloc(&dout, sizeof out));
  strides<<<1, 32>>>(dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; t++) EXPECT_EQ("strides", t, out[t], (float)(t + 2 * t + 4 * t + 32 * t));

  const int nI = 10, nF = 7, nC = 13;
  int *oi; float *of; char *oc;
  CHECK(cudaMalloc(&oi, nI * 4)); CHECK(cudaMalloc(&of, nF * 4)); CHECK(cudaMalloc(&oc, nC));
  carve<<<1, 32, nI * sizeof(int) + nF * sizeof(float) + nC * sizeof(char)>>>(nI, nF, nC, oi, of, oc);
  int hi[nI]; float hf[nF]; char hc[nC];
  CHECK(cudaMemcpy(hi, oi, sizeof hi, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hf, of, sizeof hf, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc, oc, sizeof hc, cudaMemcpyDeviceToHost));
  for (int i = 0; i < nI; i++) EXPECT_EQ("ints", i, hi[i], (nI - 1 - i) * 3);
  for (int i = 0; i < nF; i++) EXPECT_EQ("floats", i, hf[i], (nF - 1 - i) * 0.5f);
  for (int i = 0; i < nC; i++) EXPECT_EQ("chars", i, hc[i], (char)('a' + (nC - 1 - i) % 26));
  return qa_done("tutorial_student");
}
