/* printf.cu: device printf with every common conversion, flags, widths and
 * precisions, 64-bit and double arguments, strings, from one warp (whose
 * lanes print in order), from a device function, and output interleaved
 * with the host's around synchronisation points. */
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

__device__ __noinline__ void report(const char *who, int v) { printf("[%s] v=%d\n", who, v); }

__global__ void formats(int i, unsigned u, long long ll, unsigned long long ull, float f, double d, const char *s)
{
  printf("ints: %d %i %u %x %X %o %c\n", i, i, u, u, u, u, 'A' + (u & 7));
  printf("widths: [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d]\n", i, i, i, i, i, i);
  printf("longs: %lld %llu %llx %ld\n", ll, ull, ull, (long)ll);
  printf("floats: %f %.2f %10.4f %-10.1f| %e %.3E %g %G\n", f, f, f, f, d, d, d, d * 1e10);
  printf("mixed: %d %f %s %c %lld %5.1f%%\n", i, d, s, 'z', ll, 99.5);
  printf("no arguments\n");
  printf("%s and %s\n", "literal", s);
}

__global__ void lanes(int base)
{
  int t = threadIdx.x;
  if (t % 4 == 0) printf("lane %2d of block %d: %d\n", t, blockIdx.x, base + t * t);
  if (t == 31) report("last lane", base);
}

__global__ void loop(int n)
{
  if (threadIdx.x == 0)
    for (int k = 0; k < n; k++) printf("k=%d sq=%d half=%.1f\n", k, k * k, k * 0.5);
}

int main(void)
{
  char *s;
  CHECK(cudaMalloc(&s, 16));
  CHECK(cudaMemcpy(s, "device str", 11, cudaMemcpyHostToDevice));
  /* host output is flushed before each synchronisation, so that the order
   * does not depend on how the driver writes the device's output */
  printf("host: before the first kernel\n");
  fflush(stdout);
  formats<<<1, 1>>>(-42, 3054u, -1234567890123ll, 0xfedcba9876543210ull, 3.14159265f, 2.718281828459045, s);
  CHECK(cudaDeviceSynchronize());
  printf("host: after formats\n");
  fflush(stdout);
  lanes<<<1, 32>>>(100);
  CHECK(cudaDeviceSynchronize());
  lanes<<<1, 32>>>(200);
  loop<<<1, 32>>>(4);
  CHECK(cudaDeviceSynchronize());
  printf("host: done\n");
  CHECK(cudaFree(s));
  return 0;
}
