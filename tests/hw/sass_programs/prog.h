/* prog.h: what every corpus program shares: a CUDA error check that names
 * the call, a deterministic input generator (an LCG, so the CPU reference
 * and the GPU see the same data) and the result line's format. */
#ifndef PROG_H
#define PROG_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdarg>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                   \
             cudaGetErrorString(e_));                                        \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

/* numbers a program's inputs from a seed, the same on every run */
static inline unsigned lcg(unsigned *s)
{
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

/* an order-sensitive checksum of 32-bit words (FNV-1a over words) */
static inline unsigned fnv(const void *p, size_t words)
{
  const unsigned *w = (const unsigned *)p;
  unsigned h = 2166136261u;
  for (size_t i = 0; i < words; i++) h = (h ^ w[i]) * 16777619u;
  return h;
}

/* the result line: NAME PASS|FAIL and the figures the test compares */
static inline int result(const char *name, int bad, const char *fmt, ...)
{
  va_list ap;
  printf("%s %s ", name, bad ? "FAIL" : "PASS");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  return bad ? 1 : 0;
}
#endif
