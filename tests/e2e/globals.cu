/* globals.cu (e2e corpus): module-scope variables with initializers:
 * __constant__ arrays and a struct, __device__ arrays, a scalar, a string
 * and a pointer initialized with the address of another global. */

#define GL_OUT 8

struct glRecord { int a; short b; signed char c; double d; };

__constant__ int gl_table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
__constant__ float gl_coef[4] = {1.5f, -0.25f, 0.125f, 3.0f};
__constant__ glRecord gl_rec = {-123456, -321, -7, 2.75};
__device__ int gl_counts[8] = {10, 20, 30, 40, 50, 60, 70, 80};
__device__ float gl_scale = 2.5f;
__device__ const char gl_msg[] = "smemu!";
__device__ int *gl_ptr = gl_counts + 2;   /* an address initializer */
__device__ unsigned long long gl_wide[3] = {0x0123456789abcdefull, 42ull, ~0ull};

__global__ void globalsKernel(const int *in, int *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  int *o = out + gid * GL_OUT;
  o[0] = gl_table[v & 15] * gl_counts[gid & 7];
  float x = (float)(v & 63) * 0.0625f;      /* coefficients and x are dyadic: exact */
  o[1] = __float_as_int(((gl_coef[3] * x + gl_coef[2]) * x + gl_coef[1]) * x + gl_coef[0]);
  o[2] = gl_rec.a + gl_rec.b * (int)gl_rec.c;
  o[3] = (int)(gl_rec.d * 4.0) + (int)gl_msg[gid % 6];
  o[4] = gl_ptr[v % 6];                     /* gl_counts[2 + v % 6] */
  o[5] = __float_as_int(gl_scale * (float)v);
  o[6] = (int)(gl_wide[v % 3] >> (v & 31));
  o[7] = (int)sizeof(gl_msg);
}
