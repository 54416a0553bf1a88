/* common.h: what the three translation units of multi_tu share. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

void unit_a_run(int *d, int n);
void unit_b_run(int *d, int n);
int unit_a_value(void);
int unit_b_value(void);
