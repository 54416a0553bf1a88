// graph.cu: cudaGraphLaunch from the device: a graph instantiated for
// device launch, launched by a kernel that runs as a plain launch and by
// one that runs inside a graph, into cudaStreamGraphFireAndForget and
// cudaStreamGraphTailLaunch. Prints each call's error and the data.
#include <cstdio>

__global__ void work(int *p) { p[threadIdx.x] += 1 + (int)threadIdx.x; }

__global__ void launcher(cudaGraphExec_t g, int *err) {
  err[0] = (int)cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
  err[1] = (int)cudaGraphLaunch(g, cudaStreamGraphTailLaunch);
}

static void show(const char *what, cudaError_t e, int *p, int *err) {
  int h[4], r[2];
  cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, err, sizeof r, cudaMemcpyDeviceToHost);
  printf("%s: sync %d, launches %d %d, data %d %d %d %d\n", what, (int)e, r[0], r[1], h[0], h[1], h[2], h[3]);
  cudaMemset(p, 0, sizeof h);
  cudaMemset(err, 0xff, sizeof r);
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int *p, *err;
  cudaMalloc(&p, 4 * sizeof(int));
  cudaMalloc(&err, 2 * sizeof(int));
  cudaMemset(p, 0, 4 * sizeof(int));
  cudaMemset(err, 0xff, 2 * sizeof(int));
  cudaGraph_t gw, gl;
  cudaGraphExec_t xw, xl;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  work<<<1, 4, 0, s>>>(p);
  cudaStreamEndCapture(s, &gw);
  cudaError_t e = cudaGraphInstantiate(&xw, gw, cudaGraphInstantiateFlagDeviceLaunch);
  printf("instantiate for device launch: %d, upload: %d\n", (int)e, (int)cudaGraphUpload(xw, s));
  launcher<<<1, 1, 0, s>>>(xw, err);
  show("from a plain launch", cudaStreamSynchronize(s), p, err);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  launcher<<<1, 1, 0, s>>>(xw, err);
  cudaStreamEndCapture(s, &gl);
  cudaGraphInstantiate(&xl, gl, 0);
  cudaGraphLaunch(xl, s);
  show("from a graph", cudaStreamSynchronize(s), p, err);
  return 0;
}
