// freed.cu: a graph whose copy and fill nodes outlive their memory (freed
// between instantiation and launch). The GPU's answer depends on whether
// the freed range is still mapped; smemu checks every copy and fill node
// against the live allocations when it runs, so the launch faults
// (cudaErrorIllegalAddress at the next synchronisation, sticky) instead of
// writing freed memory. Run under smemu only (record.sh leaves it out).
#include "check.h"

int main() {
  int *a, h[64];
  OK(cudaMalloc(&a, sizeof h));
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  cudaGraph_t g;
  cudaGraphExec_t x;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMemsetAsync(a, 1, sizeof h, s));
  OK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s));
  OK(cudaStreamEndCapture(s, &g));
  OK(cudaGraphInstantiate(&x, g, 0));
  OK(cudaGraphLaunch(x, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(h[0] == 0x01010101, "the graph runs while its memory lives");
  OK(cudaFree(a));
  OK(cudaGraphLaunch(x, s));
  EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorIllegalAddress, "the launch after cudaFree faults");
  EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress, "sticky");
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
