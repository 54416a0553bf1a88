/* fp64_math.cu (e2e corpus): double-precision arithmetic: IEEE add, mul,
 * fma, div, sqrt and directed rounding, library exp/sin/log/rsqrt, and the
 * conversions between double and float. F64_OUT results per input pair. */

#define F64_OUT 12

__global__ void fp64Math(const double *in, double *out, int pairs)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  double x = in[2 * t], y = in[2 * t + 1];
  double *o = out + t * F64_OUT;
  o[0] = __dadd_rn(x, y);
  o[1] = __dmul_rn(x, y);
  o[2] = fma(x, y, __dsub_rn(x, y));
  o[3] = x / y;
  o[4] = sqrt(fabs(x));
  o[5] = rsqrt(fabs(x) + 1.0);
  o[6] = exp(x);
  o[7] = sin(x * 4.0);
  o[8] = log(fabs(x) + 1.0);
  o[9] = (double)__double2float_rn(x * 1.0e30);
  o[10] = __dadd_rz(x, y);
  o[11] = __dmul_ru(x, y);
}
