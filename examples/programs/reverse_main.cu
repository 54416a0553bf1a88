/* reverse_main.cu: the whole shared-memory reversal program: main()
 * allocates, copies, launches staticReverse and dynamicReverse
 * (examples/reverse.cu) with <<<grid, block, shmem>>>, copies back, checks
 * every element and prints CUDA's error strings when a call fails.
 *   nvcc -arch=sm_90 -cudart shared -o reverse examples/programs/reverse_main.cu
 *   smemu run -- ./reverse */
#include <cstdio>
#include <cstdlib>
#include "../reverse.cu"

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      printf("CUDA error %s (%s) at %s:%d\n", cudaGetErrorName(err_),               \
             cudaGetErrorString(err_), __FILE__, __LINE__);                         \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

/* Compares d with the expected reversal r; prints each mismatch. */
static int check(const char *what, const int *d, const int *r, int n)
{
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (d[i] != r[i]) {
      printf("Error: d[%d]!=r[%d] (%d, %d)\n", i, i, d[i], r[i]);
      bad++;
    }
  printf("%s: %s\n", what, bad ? "FAILED" : "OK");
  return bad;
}

int main(void)
{
  const int n = 64;
  int a[n], r[n], d[n];
  for (int i = 0; i < n; i++) {
    a[i] = i * 7 - 100;
    r[i] = (n - i - 1) * 7 - 100;
    d[i] = 0;
  }
  int *d_d;
  CHECK(cudaMalloc(&d_d, n * sizeof(int)));

  /* run a version using static shared memory */
  CHECK(cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice));
  staticReverse<<<1, n>>>(d_d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = check("staticReverse", d, r, n);

  /* run the dynamic shared memory version */
  CHECK(cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice));
  dynamicReverse<<<1, n, n * sizeof(int)>>>(d_d, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost));
  bad += check("dynamicReverse", d, r, n);

  /* a block of more threads than the hardware allows: the launch fails, the
   * error is reported by cudaGetLastError and not kept afterwards */
  staticReverse<<<1, 2 * 1024>>>(d_d, n);
  cudaError_t e = cudaGetLastError();
  printf("staticReverse<<<1, 2048>>>: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("then: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(d_d));
  return bad ? 1 : 0;
}
