// check.h: the graph tests' helpers: each check prints "ok: WHAT" or
// "FAIL: WHAT ..." and counts the failures; main returns the count.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

static int failures = 0;

#define EXPECT(cond, what)                                                  \
  do {                                                                      \
    if (cond) std::printf("ok: %s\n", what);                                \
    else {                                                                  \
      std::printf("FAIL: %s (%s:%d)\n", what, __FILE__, __LINE__);          \
      failures++;                                                           \
    }                                                                       \
  } while (0)

// the call returns `want` (a cudaError_t)
#define EXPECT_ERR(call, want, what)                                        \
  do {                                                                      \
    cudaError_t got_ = (call);                                              \
    if (got_ == (want)) std::printf("ok: %s: %s\n", what, cudaGetErrorName(got_)); \
    else {                                                                  \
      std::printf("FAIL: %s: got %s (%d), want %s (%d) (%s:%d)\n", what,    \
                  cudaGetErrorName(got_), (int)got_, cudaGetErrorName(want), \
                  (int)(want), __FILE__, __LINE__);                         \
      failures++;                                                           \
    }                                                                       \
  } while (0)

#define OK(call) EXPECT_ERR(call, cudaSuccess, #call)
