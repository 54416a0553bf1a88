/* abi_check.cu: offsets and sizes of the runtime's structures as NVIDIA's
 * CUDA 13 headers lay them out; abi_check.c prints the same from
 * runtime/cuda_abi.h and the runtime tests compare the two. */
#include <cstddef>
#include <cstdio>

int main(void)
{
#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t));
#define FIELD(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
#include "abi_fields.h"
  return 0;
}
