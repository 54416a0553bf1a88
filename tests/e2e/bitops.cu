/* bitops.cu (e2e corpus): bit intrinsics: population count, leading zeros,
 * find first set, bit reverse, byte permute (also prmt's sign-replicate
 * mode through inline PTX), funnel shifts, bit fields, averages and sad. */

#define BO_OUT 24

__global__ void bitOps(const unsigned *in, unsigned *out, int pairs)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  unsigned a = in[2 * t], b = in[2 * t + 1];
  if (t == 0) a = 0;          /* zero operands for clz/ffs/popc */
  if (t == 1) b = 0xffffffffu;
  unsigned long long ab = ((unsigned long long)a << 32) | b;
  unsigned *o = out + t * BO_OUT;
  unsigned r;
  o[0] = (unsigned)__popc(a);
  o[1] = (unsigned)__popcll(ab);
  o[2] = (unsigned)__clz(a);
  o[3] = (unsigned)__clzll(ab >> (b & 63));
  o[4] = (unsigned)__ffs(a);
  o[5] = (unsigned)__ffsll((long long)(ab << (a & 63)));
  o[6] = __brev(a);
  o[7] = (unsigned)__brevll(ab);
  o[8] = (unsigned)(__brevll(ab) >> 32);
  o[9] = __byte_perm(a, b, b & 0x7777u);
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(b >> 16));
  o[10] = r; /* selector nibbles with bit 3 set replicate the byte's sign */
  o[11] = __funnelshift_l(a, b, b >> 27);
  o[12] = __funnelshift_r(a, b, b >> 26);   /* shift mod 32 */
  o[13] = __funnelshift_lc(a, b, b >> 26);  /* shift clamped to 32 */
  o[14] = __funnelshift_rc(a, b, a >> 26);
  o[15] = (a >> (b & 15)) & 0x3ffu;          /* bit-field extract */
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 31), "r"((b >> 8) & 31));
  o[16] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"((a >> 8) & 31), "r"((a >> 16) & 31));
  o[17] = r;
  o[18] = (unsigned)__hadd((int)a, (int)b);  /* signed average, rounded down */
  o[19] = (unsigned)__rhadd((int)a, (int)b); /* rounded up */
  o[20] = __uhadd(a, b) ^ __urhadd(a, b);
  o[21] = __usad(a, b, 7u) + __sad((int)a, (int)b, 0u);
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31)));
  o[22] = r; /* 0xffffffff when no bit is set */
  o[23] = (a & ~b) | (~a & b & 0x0f0f0f0fu) ^ (a | b); /* a lop3 */
}
