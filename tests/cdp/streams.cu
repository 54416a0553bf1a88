// streams.cu: launches into a block's NULL stream and into a named device
// stream run in launch order (each child doubles and adds, so the result
// says the order); fire-and-forget children; the device runtime's memory
// calls (cudaMalloc, cudaMemsetAsync, cudaMemcpyAsync, cudaFree). (CUDA
// 13.0's device runtime sets 0 whatever value cudaMemsetAsync is given: the
// H200 printed zeros on the "memory" line, see recorded/README.md.)
#include <cstdio>

__global__ void step(int *p, int v) { p[threadIdx.x] = p[threadIdx.x] * 2 + v; }
__global__ void mark(int *p, int v) { p[threadIdx.x] = v; }
__global__ void sum4(const unsigned char *b, int *out) { out[threadIdx.x] = b[threadIdx.x] + b[threadIdx.x + 4]; }
__global__ void release(void *b) { cudaFree(b); }

__global__ void parent(int *p, int *mem) {
  int *q = p + blockIdx.x * 12;
  if (threadIdx.x == 0) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    step<<<1, 4, 0, s>>>(q, 1);
    step<<<1, 4, 0, s>>>(q, 2);
    step<<<1, 4, 0, s>>>(q, 3);
    // a second stream waits for the first through an event
    cudaStream_t s2;
    cudaEvent_t ev;
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    cudaEventRecord(ev, s);
    cudaStreamWaitEvent(s2, ev, 0);
    step<<<1, 4, 0, s2>>>(q, 4);
    cudaEventDestroy(ev);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(s);
  }
  if (threadIdx.x == 1) {
    step<<<1, 4>>>(q + 4, 1);
    step<<<1, 4>>>(q + 4, 2);
  }
  if (threadIdx.x == 2) mark<<<1, 4, 0, cudaStreamFireAndForget>>>(q + 8, 100 + blockIdx.x);
  if (threadIdx.x == 3 && blockIdx.x == 0) {
    unsigned char *b = 0;
    cudaError_t e = cudaMalloc((void **)&b, 16);
    if (e != cudaSuccess || !b) {
      printf("device cudaMalloc failed: %d\n", (int)e);
      return;
    }
    cudaMemsetAsync(b, 7, 8, 0);
    cudaMemsetAsync(b + 4, 5, 4, 0);
    sum4<<<1, 4>>>(b, mem);
    cudaMemcpyAsync(mem + 4, mem, 16, cudaMemcpyDeviceToDevice, 0);
    release<<<1, 1, 0, cudaStreamTailLaunch>>>(b);
  }
}

int main() {
  const int B = 3, N = B * 12;
  int h[N], *d, *m;
  for (int i = 0; i < N; i++) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&m, 8 * sizeof(int));
  cudaMemset(m, 0, 8 * sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  parent<<<B, 4>>>(d, m);
  cudaError_t e = cudaDeviceSynchronize();
  int g[N], mm[8];
  cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost);
  cudaMemcpy(mm, m, sizeof mm, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 4; t++) {
      int x = b * 12 + t;
      // expected from the launch order: (((x*2+1)*2+2)*2+3)*2+4,
      // (x*2+1)*2+2, 100+b
      if (g[x] != (((x * 2 + 1) * 2 + 2) * 2 + 3) * 2 + 4) bad++;
      if (g[x + 4] != ((x + 4) * 2 + 1) * 2 + 2) bad++;
      if (g[x + 8] != 100 + b) bad++;
    }
  printf("streams: sync %d, %d wrong values\n", (int)e, bad);
  printf("memory:");
  for (int i = 0; i < 8; i++) printf(" %d", mm[i]);
  printf(" (expected 12 four times, twice)\n");
  return 0;
}
