/* shared_vec.cu (e2e corpus): shared and global accesses of every width:
 * float4 / int2 / double2 vectors, bytes and shorts, 64-bit words, __ldg,
 * static shared next to dynamic shared, and a __syncwarp warp reduction. */

#define SV_OUT 16

__global__ void sharedVec(const float4 *in, unsigned *out, int n)
{
  __shared__ float4 s_vec[128];
  __shared__ unsigned char s_bytes[128 * 4];
  __shared__ short s_half[128];
  __shared__ unsigned long long s_wide[128];
  __shared__ int s_red[128];
  extern __shared__ double2 s_dyn[]; /* blockDim.x of them, after the static arrays */
  unsigned t = threadIdx.x;
  unsigned gid = blockIdx.x * blockDim.x + t;
  float4 f = __ldg(&in[gid]);
  s_vec[t] = f;
  uchar4 c = make_uchar4((unsigned char)f.x, (unsigned char)f.y, (unsigned char)f.z,
                         (unsigned char)f.w);
  ((uchar4 *)s_bytes)[t] = c;
  s_half[t] = (short)(f.x - f.y);
  s_wide[t] = (unsigned long long)(unsigned)f.z << 32 | (unsigned)f.w;
  s_dyn[t] = make_double2((double)f.x, (double)f.w);
  __syncthreads();

  unsigned r = (t + 37) % blockDim.x;   /* read another thread's data */
  float4 g = s_vec[r];
  int2 iv = ((int2 *)s_vec)[2 * r + 1]; /* the z, w words as ints */
  double2 d = s_dyn[blockDim.x - 1 - t];
  unsigned *o = out + gid * SV_OUT;
  o[0] = __float_as_uint(g.x + g.y);
  o[1] = __float_as_uint(g.z - g.w);
  o[2] = (unsigned)iv.x ^ (unsigned)iv.y;
  o[3] = s_bytes[(t * 5) % (blockDim.x * 4)] | (unsigned)s_bytes[(t * 7 + 1) % (blockDim.x * 4)] << 8;
  o[4] = (unsigned)(int)s_half[r];
  o[5] = (unsigned)(s_wide[r] >> 16);
  o[6] = (unsigned)__double_as_longlong(d.x + d.y);
  o[7] = (unsigned)(__double_as_longlong(d.x + d.y) >> 32);
  o[8] = (unsigned)((unsigned long long)(size_t)s_dyn & 15); /* alignment of dynamic shared */

  /* a warp reduction through shared memory, ordered by __syncwarp */
  s_red[t] = (int)f.x;
  __syncwarp();
  for (unsigned off = 16; off > 0; off /= 2) {
    int mine = s_red[t];
    int other = s_red[t ^ off];
    __syncwarp();
    s_red[t] = mine + other;
    __syncwarp();
  }
  o[9] = (unsigned)s_red[t];
  o[10] = (unsigned)__syncthreads_count(g.x > 100.0f);
  o[11] = (unsigned)(s_wide[t] & 0xffffu);
  /* a vector store to global: words 12..15 of the record, 16-byte aligned */
  ((float4 *)(o + 12))[0] = make_float4(g.w, g.z * 2.0f, g.y, -g.x);
}
