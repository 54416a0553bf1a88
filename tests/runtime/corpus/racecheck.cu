/* racecheck.cu: two classic shared-memory bugs for `smemu run --check`: a
 * tree reduction missing the __syncthreads between its steps (a race
 * between warps), and a __syncthreads that only some threads reach
 * (barrier misuse). Its printed results are undefined on a GPU; the tests
 * look only at the checkers' findings. */
#include <cstdio>

__global__ void reduce_missing_sync(const int *in, int *out)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int half = 64; half > 0; half /= 2)
    if (t < half) s[t] += s[t + half]; /* no __syncthreads between steps */
  if (t == 0) *out = s[0];
}

__global__ void divergent_barrier(int *out)
{
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 32) __syncthreads(); /* the second warp never arrives here */
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main(void)
{
  int h[128], *d, *out;
  for (int i = 0; i < 128; i++) h[i] = 1;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  reduce_missing_sync<<<1, 128>>>(d, out);
  divergent_barrier<<<1, 64>>>(out);
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
