// illegal.cu: calls CUDA forbids while a stream captures, and misuse of the
// capture calls, each with the error code NVIDIA documents (and, where the
// documentation names none, the one an H100 gave: see README.md here):
//  - capture of the legacy stream: cudaErrorStreamCaptureUnsupported;
//  - cudaStreamSynchronize / cudaStreamQuery of a capturing stream:
//    cudaErrorStreamCaptureUnsupported, the capture invalidated, so
//    cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated and no
//    graph;
//  - cudaMalloc in a global-mode capture: cudaErrorStreamCaptureUnsupported
//    and invalidated; in another thread: global mode refuses it, a
//    thread-local capture lets it through;
//  - a synchronous cudaMemcpy (the legacy stream) while a blocking stream
//    captures: cudaErrorStreamCaptureImplicit, invalidated;
//  - cudaStreamIsCapturing(legacy) while a blocking stream captures:
//    cudaErrorStreamCaptureImplicit, the capture NOT invalidated;
//  - cudaEventQuery / cudaEventSynchronize of an event recorded in a
//    capture: cudaErrorCapturedEvent;
//  - ending from a forked stream: cudaErrorStreamCaptureUnmatched; a fork
//    never joined: cudaErrorStreamCaptureUnjoined; ending from another
//    thread: cudaErrorStreamCaptureWrongThread; waiting in a capture for an
//    event recorded outside it: cudaErrorStreamCaptureIsolation.
#include <pthread.h>
#include "check.h"

__global__ void touch(int *p) { *p += 1; }

static cudaStream_t g_stream;
static cudaError_t g_err;
static cudaGraph_t g_graph;

static void *malloc_in_thread(void *mode) {
  cudaStreamCaptureMode m = *(cudaStreamCaptureMode *)mode;
  cudaThreadExchangeStreamCaptureMode(&m);
  void *p = nullptr;
  g_err = cudaMalloc(&p, 64);
  if (!g_err) cudaFree(p);
  return nullptr;
}

static void *end_in_thread(void *) {
  g_err = cudaStreamEndCapture(g_stream, &g_graph);
  return nullptr;
}

// end a capture expected to be invalidated: Invalidated and a NULL graph
static void end_invalid(cudaStream_t s, const char *what) {
  cudaGraph_t g = (cudaGraph_t)0x1;
  EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated, what);
  EXPECT(g == nullptr, "no graph from an invalidated capture");
}

int main() {
  int *d;
  OK(cudaMalloc(&d, sizeof(int)));
  cudaStream_t s, s2, nb;
  OK(cudaStreamCreate(&s));
  OK(cudaStreamCreate(&s2));
  OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  cudaStreamCaptureStatus st;

  EXPECT_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported,
             "capture of the legacy stream");

  // stream synchronisation
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  touch<<<1, 1, 0, s>>>(d);
  EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported, "cudaStreamSynchronize in capture");
  OK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusInvalidated, "the capture is invalidated");
  EXPECT_ERR(cudaMemsetAsync(d, 0, 4, s), cudaErrorStreamCaptureInvalidated, "work into an invalidated capture");
  end_invalid(s, "EndCapture after cudaStreamSynchronize");
  cudaGetLastError();

  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  EXPECT_ERR(cudaStreamQuery(nb), cudaErrorStreamCaptureUnsupported, "cudaStreamQuery in capture");
  end_invalid(nb, "EndCapture after cudaStreamQuery");
  cudaGetLastError();

  // cudaMalloc, global mode, same thread
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  void *p = nullptr;
  EXPECT_ERR(cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported, "cudaMalloc in a global capture");
  end_invalid(nb, "EndCapture after cudaMalloc");
  cudaGetLastError();

  // cudaMalloc from another thread
  cudaStreamCaptureMode glob = cudaStreamCaptureModeGlobal, relaxed = cudaStreamCaptureModeRelaxed;
  pthread_t th;
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeThreadLocal));
  pthread_create(&th, nullptr, malloc_in_thread, &glob);
  pthread_join(th, nullptr);
  EXPECT_ERR(g_err, cudaSuccess, "cudaMalloc in another thread during a thread-local capture");
  cudaGraph_t gl;
  OK(cudaStreamEndCapture(nb, &gl));
  OK(cudaGraphDestroy(gl));
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  pthread_create(&th, nullptr, malloc_in_thread, &glob);
  pthread_join(th, nullptr);
  EXPECT_ERR(g_err, cudaErrorStreamCaptureUnsupported, "cudaMalloc in another (global) thread during a global capture");
  end_invalid(nb, "EndCapture after the other thread's cudaMalloc");
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  pthread_create(&th, nullptr, malloc_in_thread, &relaxed);
  pthread_join(th, nullptr);
  EXPECT_ERR(g_err, cudaSuccess, "cudaMalloc in a relaxed thread during a global capture");
  OK(cudaStreamEndCapture(nb, &gl));
  OK(cudaGraphDestroy(gl));
  cudaGetLastError();

  // synchronous copy through the legacy stream while a blocking stream captures
  int h = 0;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT_ERR(cudaStreamIsCapturing(0, &st), cudaErrorStreamCaptureImplicit,
             "cudaStreamIsCapturing(legacy) during a blocking capture");
  OK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusActive, "... which does not invalidate it");
  EXPECT_ERR(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorStreamCaptureImplicit,
             "cudaMemcpy during a blocking capture");
  end_invalid(s, "EndCapture after cudaMemcpy");
  cudaGetLastError();

  // events recorded in a capture
  cudaEvent_t ev, outside;
  OK(cudaEventCreate(&ev));
  OK(cudaEventCreate(&outside));
  OK(cudaEventRecord(outside, s2));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  touch<<<1, 1, 0, s>>>(d);
  OK(cudaEventRecord(ev, s));
  // an H200: the query fails and invalidates the capture; waiting on the
  // event of the invalidated capture is then an invalid value
  EXPECT_ERR(cudaEventQuery(ev), cudaErrorCapturedEvent, "cudaEventQuery of a captured event");
  EXPECT_ERR(cudaEventSynchronize(ev), cudaErrorInvalidValue,
             "cudaEventSynchronize of an event captured in an invalidated capture");
  end_invalid(s, "EndCapture after querying a captured event");
  cudaGetLastError();
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  touch<<<1, 1, 0, s>>>(d);
  OK(cudaEventRecord(ev, s));
  EXPECT_ERR(cudaEventSynchronize(ev), cudaErrorCapturedEvent, "cudaEventSynchronize of a captured event");
  end_invalid(s, "EndCapture after waiting on a captured event");
  cudaGetLastError();

  // waiting for an event recorded outside the capture
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT_ERR(cudaStreamWaitEvent(s, outside, 0), cudaErrorStreamCaptureIsolation,
             "waiting in a capture for uncaptured work");
  end_invalid(s, "EndCapture after the isolation error");
  cudaGetLastError();

  // ending from the forked stream, then an unjoined fork
  cudaEvent_t fork;
  OK(cudaEventCreate(&fork));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(s2, fork, 0));
  touch<<<1, 1, 0, s2>>>(d);
  cudaGraph_t gu;
  EXPECT_ERR(cudaStreamEndCapture(s2, &gu), cudaErrorStreamCaptureUnmatched, "EndCapture on the forked stream");
  cudaGetLastError();
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal)); // a second, separate sequence
  cudaGraph_t gn;
  OK(cudaStreamEndCapture(nb, &gn));
  OK(cudaGraphDestroy(gn));
  EXPECT_ERR(cudaStreamEndCapture(s, &gu), cudaErrorStreamCaptureInvalidated, "EndCapture after Unmatched");
  cudaGetLastError();
  OK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "the forked stream is free again");
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(s2, fork, 0));
  touch<<<1, 1, 0, s2>>>(d);
  EXPECT_ERR(cudaStreamEndCapture(s, &gu), cudaErrorStreamCaptureUnjoined, "a fork never joined");
  cudaGetLastError();
  OK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "the unjoined stream left the capture");

  // ending a global capture from another thread
  g_stream = nb;
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
  pthread_create(&th, nullptr, end_in_thread, nullptr);
  pthread_join(th, nullptr);
  EXPECT_ERR(g_err, cudaErrorStreamCaptureWrongThread, "EndCapture of a global capture from another thread");
  // ... which ends the capture without a graph (an H200)
  OK(cudaStreamIsCapturing(nb, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "the stream no longer captures");
  cudaGraph_t gw;
  EXPECT_ERR(cudaStreamEndCapture(nb, &gw), cudaErrorIllegalState, "EndCapture of a capture that ended");
  cudaGetLastError();
  OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeRelaxed));
  pthread_create(&th, nullptr, end_in_thread, nullptr);
  pthread_join(th, nullptr);
  EXPECT_ERR(g_err, cudaSuccess, "EndCapture of a relaxed capture from another thread");
  if (!g_err) OK(cudaGraphDestroy(g_graph));

  // argument errors
  EXPECT_ERR(cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7), cudaErrorInvalidValue, "unknown capture mode");
  // an H200 takes a value that is no mode and gives it back
  cudaStreamCaptureMode bad = (cudaStreamCaptureMode)9;
  EXPECT_ERR(cudaThreadExchangeStreamCaptureMode(&bad), cudaSuccess, "exchange to an unknown mode");
  EXPECT(bad == cudaStreamCaptureModeGlobal, "a thread starts in global mode");
  cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
  OK(cudaThreadExchangeStreamCaptureMode(&m));
  EXPECT(m == (cudaStreamCaptureMode)9, "the unknown value comes back");
  m = cudaStreamCaptureModeGlobal;
  OK(cudaThreadExchangeStreamCaptureMode(&m));
  EXPECT(m == cudaStreamCaptureModeRelaxed, "exchange returns the mode set before");

  // nothing is left broken: the device still works
  OK(cudaMemset(d, 0, sizeof(int)));
  touch<<<1, 1, 0, s>>>(d);
  OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  EXPECT(h == 1, "after all the refused captures, a kernel runs");
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
