// Streams, events, async copies, stream callbacks.
#include <cstdio>
__global__ void scale(int *a, int k) { a[threadIdx.x] *= k; }
static void CUDART_CB host_fn(void *p) { *(int *)p = 42; }
int main() {
  cudaStream_t s1, s2;
  cudaEvent_t e0, e1;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEventCreate(&e0);
  cudaEventCreateWithFlags(&e1, cudaEventDefault);
  int *d, *h, flag = 0;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMallocHost(&h, 64 * sizeof(int));
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaEventRecord(e0, s1);
  cudaMemcpyAsync(d, h, 64 * sizeof(int), cudaMemcpyHostToDevice, s1);
  scale<<<1, 64, 0, s1>>>(d, 3);
  cudaEventRecord(e1, s1);
  cudaStreamWaitEvent(s2, e1, 0);
  scale<<<1, 64, 0, s2>>>(d, 2);
  cudaMemcpyAsync(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaLaunchHostFunc(s2, host_fn, &flag);
  cudaStreamSynchronize(s2);
  float ms = -1;
  cudaError_t et = cudaEventElapsedTime(&ms, e0, e1);
  printf("h[7]=%d flag=%d elapsed_ok=%d query=%d\n", h[7], flag, et == cudaSuccess && ms >= 0,
         (int)cudaStreamQuery(s1));
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
