/* fp32_math.cu (e2e corpus): single-precision arithmetic: the IEEE operations
 * (add, mul, fma, div, sqrt, directed rounding), the library functions
 * (expf, sinf) and the fast approximations (rsqrtf, __fdividef, __expf, __sinf). */

#define F32_OUT 18

__global__ void fp32Math(const float *in, float *out, int pairs)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  float x = in[2 * t], y = in[2 * t + 1];
  float *o = out + t * F32_OUT;
  o[0] = __fadd_rn(x, y);
  o[1] = __fmul_rn(x, y);
  o[2] = fmaf(x, y, __fsub_rn(x, y));
  o[3] = x / y;
  o[4] = sqrtf(fabsf(x));
  o[5] = rsqrtf(fabsf(x) + 1.0f);
  o[6] = expf(x);
  o[7] = sinf(x * 4.0f);
  o[8] = __fdividef(x, y);
  o[9] = __expf(x);
  o[10] = __sinf(x * 0.375f);
  o[11] = fminf(x, y) + fmaxf(x, y) * 0.5f;
  o[12] = copysignf(floorf(x), y) - truncf(y);
  o[13] = __saturatef(x);
  o[14] = __fmul_rn(x, 1.0e-38f); /* subnormal results */
  o[15] = __fmul_rz(x, y);
  o[16] = __fadd_rd(x, y);
  o[17] = __fdiv_ru(x, y);
}
