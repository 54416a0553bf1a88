/* convert.cu (e2e corpus): conversions between float, double and integers of
 * every width with each rounding mode, including saturation of values out
 * of range, NaN and infinities. CV_OUT results per input. */

#define CV_OUT 24

__global__ void convertMix(const float *in, unsigned *out, int n)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = in[t];
  /* a few special inputs replace the generated ones */
  switch (t) {
  case 0: x = __int_as_float(0x7fc00000); break; /* NaN */
  case 1: x = __int_as_float(0x7f800000); break; /* +inf */
  case 2: x = __int_as_float(0xff800000); break; /* -inf */
  case 3: x = -0.0f; break;
  case 4: x = 2.5f; break;
  case 5: x = -3.5f; break;
  case 6: x = 2147483648.0f; break;
  case 7: x = 1.0e-40f; break; /* subnormal */
  default: break;
  }
  unsigned *o = out + t * CV_OUT;
  float big = x * 1048576.0f; /* up to 2^32: out of int range */
  int xi = __float_as_int(x);

  o[0] = (unsigned)__float2int_rn(x);
  o[1] = (unsigned)(int)x;          /* rz */
  o[2] = (unsigned)__float2int_rd(x);
  o[3] = (unsigned)__float2int_ru(big);
  o[4] = __float2uint_rn(big);
  o[5] = (unsigned)big;             /* rz, negative -> 0 */
  o[6] = (unsigned)(int)big;
  if (t < 3) { /* 64-bit results of NaN and inf are left out */
    o[7] = o[8] = o[9] = o[10] = 0;
  } else {
    long long ll = __float2ll_rn(big * 4096.0f);
    unsigned long long ull = (unsigned long long)(big * 65536.0f);
    o[7] = (unsigned)ll;
    o[8] = (unsigned)(ll >> 32);
    o[9] = (unsigned)ull;
    o[10] = (unsigned)(ull >> 32);
  }
  o[11] = __float_as_uint(__int2float_rn(xi));
  o[12] = __float_as_uint(__int2float_rz(xi));
  o[13] = __float_as_uint(__uint2float_rd((unsigned)xi));
  o[14] = __float_as_uint(__uint2float_ru((unsigned)xi));
  double d = (double)x * 1.0e30 + (double)xi;
  o[15] = __float_as_uint(__double2float_rn(d));
  o[16] = __float_as_uint(__double2float_rz(d));
  double e = (double)xi * 3.0;
  o[17] = (unsigned)__double2int_rn(e * 0.125);
  long long q = (long long)xi * 1000003LL;
  o[18] = __float_as_uint((float)q);        /* cvt.rn.f32.s64 */
  double dq = (double)(q * 1024);           /* cvt.rn.f64.s64, inexact */
  o[19] = (unsigned)__double_as_longlong(dq);
  o[20] = (unsigned)(__double_as_longlong(dq) >> 32);
  o[21] = (unsigned)(signed char)(int)(x * 16.0f); /* float -> int -> s8 */
  o[22] = (unsigned)(unsigned short)__float2uint_rz(x * 300.0f);
  o[23] = __float_as_uint((float)(unsigned char)xi + (float)(short)(xi >> 8));
}
