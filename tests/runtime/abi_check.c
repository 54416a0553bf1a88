/* abi_check.c: offsets and sizes of the runtime's structures as
 * runtime/cuda_abi.h lays them out (see abi_check.cu). */
#include <stddef.h>
#include <stdio.h>
#include "cuda_abi.h"

int main(void)
{
#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t));
#define FIELD(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
#include "abi_fields.h"
  return 0;
}
