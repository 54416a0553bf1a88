/* calls.cu (e2e corpus): real calls to __noinline__ device functions:
 * recursion (fib, gcd, a recursive array sum through a pointer), results
 * through pointers to locals, a struct returned by value, many arguments. */

#define CL_OUT 8

struct pairIF { int i; float f; };

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

__device__ __noinline__ long long sumRec(const int *a, int n)
{
  if (n == 0) return 0;
  if (n == 1) return a[0];
  int h = n / 2;
  return sumRec(a, h) + sumRec(a + h, n - h);
}

__device__ __noinline__ void minMax(const int *a, int n, int *mn, int *mx)
{
  int lo = a[0], hi = a[0];
  for (int i = 1; i < n; i++) {
    lo = min(lo, a[i]);
    hi = max(hi, a[i]);
  }
  *mn = lo;
  *mx = hi;
}

__device__ __noinline__ pairIF makePair(int a, int b)
{
  pairIF p;
  p.i = a * 3 - b;
  p.f = (float)a * 0.5f; /* exact for |a| < 2^24 */
  return p;
}

__device__ __noinline__ double manyArgs(char c, short s, int i, long long l, float f, double d,
                                        unsigned char uc, unsigned short us, unsigned u,
                                        unsigned long long ul)
{
  return (double)c + (double)s + (double)i + (double)l + (double)f + d + (double)uc + (double)us +
         (double)u + (double)ul;
}

__global__ void callsKernel(const int *in, int *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  int *o = out + gid * CL_OUT;
  o[0] = fib(v & 15);
  o[1] = (int)gcd((unsigned)v * 12u, (unsigned)(v + 7) * 18u);
  long long s = sumRec(in + (gid & ~7), 8 + (v & 7));  /* may read past the group: in is large enough */
  o[2] = (int)s;
  int mn, mx;
  minMax(in + (gid & ~15), 16, &mn, &mx);
  o[3] = mn;
  o[4] = mx;
  pairIF p = makePair(v, gid);
  o[5] = p.i;
  o[6] = __float_as_int(p.f);
  double m = manyArgs((char)v, (short)(v * 3), v, (long long)v << 20, (float)v * 0.25f, (double)v,
                      (unsigned char)v, (unsigned short)(v + 1), (unsigned)v, (unsigned long long)v);
  o[7] = (int)m;
}
