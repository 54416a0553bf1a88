/* int_arith.cu (e2e corpus): integer arithmetic at every width, signed and
 * unsigned, with the widenings and narrowings between them. One thread per
 * input pair (a, b); IA_OUT results per thread. Reference: test_e2e.c. */

#define IA_OUT 32

__global__ void intArith(const unsigned *in, unsigned *out, int pairs)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  unsigned a = in[2 * t], b = in[2 * t + 1];
  unsigned *o = out + t * IA_OUT;
  int sa = (int)a, sb = (int)b;
  if (sa == (-2147483647 - 1)) sa = 7; /* keep INT_MIN out of / % abs */
  int sd = (sb >> (a & 15)) | 1;       /* a non-zero signed divisor */
  unsigned ud = (b >> (a & 31)) | 1u;  /* a non-zero unsigned divisor */

  /* 32-bit */
  o[0] = a + b;
  o[1] = a - b;
  o[2] = a * b;
  o[3] = __umulhi(a, b);
  o[4] = (unsigned)__mulhi((int)a, (int)b);
  o[5] = (unsigned)(sa / sd);
  o[6] = (unsigned)(sa % sd);
  o[7] = a / ud;
  o[8] = a % ud;
  o[9] = (unsigned)((int)a >> (b & 31));
  o[10] = a >> (b & 31);
  o[11] = a << (b & 31);
  o[12] = (unsigned)min((int)a, (int)b);
  o[13] = max(a, b);
  o[14] = (unsigned)abs(sa);
  o[15] = (unsigned)__mul24((int)a, (int)b) + __umul24(a, b);

  /* 64-bit, built from the pair */
  unsigned long long x = ((unsigned long long)a << 32) | b;
  long long sx = (long long)x;
  long long sdiv = ((long long)sb << (a & 7)) | 1; /* non-zero */
  if (sx == (-9223372036854775807LL - 1)) sx = 5;
  unsigned long long y = x * 0x9E3779B97F4A7C15ull + (x >> 13);
  o[16] = (unsigned)y;
  o[17] = (unsigned)(y >> 32);
  o[18] = (unsigned)(unsigned long long)(sx / sdiv);
  o[19] = (unsigned)(sx % sdiv);
  o[20] = (unsigned)(x / ((unsigned long long)b | 1ull));
  o[21] = (unsigned)((long long)sa * (long long)sb >> 17);  /* mul.wide.s32 */
  o[22] = (unsigned)(((unsigned long long)a * b) >> 32 ^ ((unsigned long long)a * b));
  o[23] = (unsigned)(unsigned long long)(sx >> (b & 63));

  /* 8 and 16 bits: signed and unsigned, promotions and truncations */
  signed char c1 = (signed char)a, c2 = (signed char)(a >> 8);
  unsigned char u1 = (unsigned char)b, u2 = (unsigned char)(b >> 8);
  short h1 = (short)(a >> 16), h2 = (short)b;
  unsigned short w1 = (unsigned short)(b >> 16), w2 = (unsigned short)a;
  o[24] = (unsigned)(int)(signed char)(c1 + c2);
  o[25] = (unsigned)(int)(short)(h1 * h2);
  o[26] = (unsigned)(u1 * u2);
  o[27] = (unsigned)(w1 + w2) ^ (unsigned)(unsigned short)(w1 - w2) << 16;
  o[28] = (unsigned)(c1 / (c2 | 1)) ^ ((unsigned)(h1 % (h2 | 1)) << 8);
  o[29] = (unsigned)(int)(short)(h1 >> 3) + (unsigned)(w1 >> 3);
  o[30] = (unsigned)((long long)c1 * (long long)w1 - (long long)h2 * u2);
  o[31] = (unsigned)(signed char)(u1 ^ (unsigned char)c2) + (unsigned)(unsigned short)(h1 + u2);
}
