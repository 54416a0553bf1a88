/* char_short.cu: 8- and 16-bit data in shared memory: (1) a 32x32 byte
 * tile transpose (column reads of bytes: 4 rows share a bank word only
 * when the pitch is 32); (2) each thread reads 4 consecutive bytes as
 * scalars (ptxas may merge them); (3) 16-bit counters and a short2 pass;
 * (4) a 16-bit scan (Hillis-Steele, double buffer). */
#include "../../programs/prog.h"

#define TD 32

template <int PITCH>
__global__ void transpose_u8(const unsigned char *in, unsigned char *out)
{
  __shared__ unsigned char tile[TD][PITCH];
  int x = threadIdx.x, by = blockIdx.x * TD;
  for (int y = threadIdx.y; y < TD; y += 8) tile[y][x] = in[(by + y) * TD + x];
  __syncthreads();
  for (int y = threadIdx.y; y < TD; y += 8) out[(by + y) * TD + x] = tile[x][y];
}

__global__ void bytes4(const unsigned char *in, unsigned *out)
{
  __shared__ unsigned char b[512];
  int t = threadIdx.x;
  for (int i = t; i < 512; i += 128) b[i] = in[blockIdx.x * 512 + i];
  __syncthreads();
  unsigned v = b[4 * t] | b[4 * t + 1] << 8 | b[4 * t + 2] << 16 | (unsigned)b[4 * t + 3] << 24;
  unsigned w = b[(7 * t) % 512] + b[(7 * t + 1) % 512];
  out[blockIdx.x * 128 + t] = v ^ (w << 3);
}

__global__ void scan_u16(const unsigned short *in, unsigned short *out)
{
  __shared__ unsigned short a[2][128];
  int t = threadIdx.x, cur = 0;
  a[0][t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (int o = 1; o < 128; o <<= 1) {
    a[1 - cur][t] = a[cur][t] + (t >= o ? a[cur][t - o] : 0);
    cur = 1 - cur;
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = a[cur][t];
}

__global__ void pairs_s16(const short *in, int *out)
{
  __shared__ short s[256];
  int t = threadIdx.x;
  s[2 * t] = in[blockIdx.x * 256 + 2 * t];
  s[2 * t + 1] = in[blockIdx.x * 256 + 2 * t + 1];
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[2 * t] * s[255 - 2 * t] + s[2 * t + 1];
}

int main()
{
  const int blocks = 4, nb = blocks * 512;
  unsigned char *hb = (unsigned char *)malloc(nb * 2), *ob = (unsigned char *)malloc(nb * 2);
  unsigned short *hs16 = (unsigned short *)malloc(nb), *os16 = (unsigned short *)malloc(nb);
  unsigned *o32 = (unsigned *)malloc(blocks * 128 * 4);
  int *oi = (int *)malloc(blocks * 128 * 4);
  unsigned s = 53;
  for (int i = 0; i < nb * 2; i++) hb[i] = (unsigned char)lcg(&s);
  for (int i = 0; i < nb / 2; i++) hs16[i] = (unsigned short)(lcg(&s) % 600);
  unsigned char *db, *dob;
  unsigned short *ds, *dos;
  unsigned *d32;
  int *di;
  CHECK(cudaMalloc(&db, nb * 2));
  CHECK(cudaMalloc(&dob, nb * 2));
  CHECK(cudaMalloc(&ds, nb));
  CHECK(cudaMalloc(&dos, nb));
  CHECK(cudaMalloc(&d32, blocks * 128 * 4));
  CHECK(cudaMalloc(&di, blocks * 128 * 4));
  CHECK(cudaMemcpy(db, hb, nb * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds, hs16, nb, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hh[5];
  /* 2048 bytes: 2 tiles of 32x32 */
  for (int v = 0; v < 2; v++) {
    if (v) transpose_u8<TD + 4><<<2, dim3(TD, 8)>>>(db, dob);
    else transpose_u8<TD><<<2, dim3(TD, 8)>>>(db, dob);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ob, dob, 2048, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++)
      for (int y = 0; y < TD; y++)
        for (int x = 0; x < TD; x++) bad += ob[b * 1024 + y * TD + x] != hb[b * 1024 + x * TD + y];
    hh[v] = fnv(ob, 512);
  }
  bytes4<<<blocks, 128>>>(db, d32);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o32, d32, blocks * 128 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < 128; t++) {
      const unsigned char *p = hb + b * 512;
      unsigned v = p[4 * t] | p[4 * t + 1] << 8 | p[4 * t + 2] << 16 | (unsigned)p[4 * t + 3] << 24;
      unsigned w = p[(7 * t) % 512] + p[(7 * t + 1) % 512];
      bad += o32[b * 128 + t] != (v ^ (w << 3));
    }
  hh[2] = fnv(o32, blocks * 128);
  scan_u16<<<blocks, 128>>>(ds, dos);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(os16, dos, blocks * 256, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    unsigned short r = 0;
    for (int t = 0; t < 128; t++) r += hs16[b * 128 + t], bad += os16[b * 128 + t] != r;
  }
  hh[3] = fnv(os16, blocks * 64);
  pairs_s16<<<blocks / 2, 128>>>((const short *)ds, di);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(oi, di, blocks / 2 * 128 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks / 2; b++)
    for (int t = 0; t < 128; t++) {
      const short *p = (const short *)hs16 + b * 256;
      bad += oi[b * 128 + t] != p[2 * t] * p[255 - 2 * t] + p[2 * t + 1];
    }
  hh[4] = fnv(oi, blocks / 2 * 128);
  CHECK(cudaFree(db));
  CHECK(cudaFree(dob));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dos));
  CHECK(cudaFree(d32));
  CHECK(cudaFree(di));
  return result("char_short", bad, "%08x %08x %08x %08x %08x", hh[0], hh[1], hh[2], hh[3], hh[4]);
}
