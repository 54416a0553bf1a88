/* half_math.cu (e2e corpus): __half and __half2 arithmetic, comparisons and
 * conversions (round to nearest and toward zero, overflow to infinity,
 * subnormal halves). Every result is a 16-bit pattern in a 32-bit word. */
#include <cuda_fp16.h>

#define H_OUT 16

__global__ void halfMath(const float *in, unsigned *out, int pairs)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  float x = in[2 * t], y = in[2 * t + 1];
  unsigned *o = out + t * H_OUT;
  __half a = __float2half_rn(x), b = __float2half_rn(y);
  __half sa = __float2half_rn(x * 0.015625f), sb = __float2half_rn(y * 0.0078125f);
  o[0] = __half_as_ushort(a);
  o[1] = __half_as_ushort(b);
  o[2] = __half_as_ushort(__hadd(a, b));
  o[3] = __half_as_ushort(__hsub(a, b));
  o[4] = __half_as_ushort(__hmul(a, b));             /* may overflow to inf */
  o[5] = __half_as_ushort(__hfma(sa, sb, a));
  o[6] = (unsigned)__hlt(a, b) | (unsigned)__heq(a, a) << 1 | (unsigned)__hge(b, a) << 2;
  o[7] = __half_as_ushort(__hmax(a, b)) | (unsigned)__half_as_ushort(__hmin(a, b)) << 16;
  o[8] = __half_as_ushort(__hneg(a)) | (unsigned)__half_as_ushort(__habs(b)) << 16;
  o[9] = __float_as_uint(__half2float(a) * __half2float(b)); /* exact in float */
  o[10] = __half_as_ushort(__float2half_rn(x * 100.0f));     /* overflow */
  o[11] = __half_as_ushort(__float2half_rn(y * 1.0e-7f));    /* subnormal halves */
  o[12] = __half_as_ushort(__float2half_rz(x * 3.0f));
  __half2 p = __halves2half2(a, sa), q = __halves2half2(b, sb);
  __half2 s = __hadd2(p, q), m = __hmul2(p, q);
  o[13] = __half_as_ushort(__low2half(s)) | (unsigned)__half_as_ushort(__high2half(s)) << 16;
  o[14] = __half_as_ushort(__low2half(m)) | (unsigned)__half_as_ushort(__high2half(m)) << 16;
  o[15] = (unsigned)__half2int_rn(a) ^ ((unsigned)__half2int_rz(b) << 16);
}
