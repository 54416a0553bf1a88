// abi_check.cu: the graph structures' layout in NVIDIA's CUDA 13 headers
// (abi_check.c prints runtime/graph.h's; test.sh compares).
#include <cstddef>
#include <cstdio>
#include <cuda_runtime.h>

#define UNION kernel
int main() {
#define SIZE(t) std::printf("sizeof %s %zu\n", #t, sizeof(t));
#define FIELD(t, f) std::printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
#include "abi_fields.h"
  return 0;
}
