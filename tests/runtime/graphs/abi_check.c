/* abi_check.c: the graph structures' layout as runtime/graph.h declares
 * them (abi_check.cu prints NVIDIA's; test.sh compares). */
#include <stddef.h>
#include <stdio.h>
#include "graph.h"

#define UNION u
int main(void) {
#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t));
#define FIELD(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
#include "abi_fields.h"
  return 0;
}
