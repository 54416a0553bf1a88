/* ldsm_tile.cu: ldmatrix / stmatrix on a 16x16 tile of 16-bit values, the
 * way mma code feeds fragments: each warp fills its tile, loads it with
 * ldmatrix .x1, .x2 and .x4 (plain and .trans), and writes the .x4
 * fragments back with stmatrix into a second tile that is copied out.
 * Row pitch 16 (32-byte rows: rows 4 apart share banks) and 24 (48). */
#include "../../programs/prog.h"

#define WARPS 2

__device__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

template <int PITCH, bool TRANS>
__global__ void ldsm(const unsigned short *in, unsigned *out, unsigned short *back)
{
  __shared__ __align__(16) unsigned short tile[WARPS][16][PITCH];
  __shared__ __align__(16) unsigned short tile2[WARPS][16][PITCH];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  int g = blockIdx.x * WARPS + w;
  for (int i = lane; i < 256; i += 32) tile[w][i / 16][i % 16] = in[g * 256 + i];
  __syncwarp();
  unsigned a = saddr(&tile[w][lane % 16][8 * (lane / 16)]);
  unsigned r0, r1, r2, r3, x1, y0, y1;
  if (TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(x1) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(y0), "=r"(y1) : "r"(a));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x1) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(y0), "=r"(y1) : "r"(a));
  }
  unsigned *o = out + (g * 32 + lane) * 7;
  o[0] = r0, o[1] = r1, o[2] = r2, o[3] = r3, o[4] = x1, o[5] = y0, o[6] = y1;
  unsigned b = saddr(&tile2[w][lane % 16][8 * (lane / 16)]);
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(b), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  __syncwarp();
  for (int i = lane; i < 256; i += 32) back[g * 256 + i] = tile2[w][i / 16][i % 16];
}

/* the element of matrix m (0..3: rows 0-7/8-15, then cols 8-15) */
static unsigned short elem(const unsigned short *t, int m, int r, int c)
{
  return t[((m & 1) * 8 + r) * 16 + (m >> 1) * 8 + c];
}

static unsigned frag(const unsigned short *t, int m, int lane, bool trans)
{
  int r = lane / 4, c = 2 * (lane % 4);
  unsigned lo = trans ? elem(t, m, c, r) : elem(t, m, r, c);
  unsigned hi = trans ? elem(t, m, c + 1, r) : elem(t, m, r, c + 1);
  return lo | hi << 16;
}

int main()
{
  const int blocks = 2, tiles = blocks * WARPS;
  unsigned short h[tiles * 256], bk[tiles * 256];
  unsigned o[tiles * 32 * 7];
  unsigned s = 97;
  for (int i = 0; i < tiles * 256; i++) h[i] = (unsigned short)lcg(&s);
  unsigned short *d, *dback;
  unsigned *dout;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&dback, sizeof bk));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[3];
  for (int v = 0; v < 3; v++) {
    bool trans = v == 1;
    if (v == 0) ldsm<16, false><<<blocks, 32 * WARPS>>>(d, dout, dback);
    if (v == 1) ldsm<16, true><<<blocks, 32 * WARPS>>>(d, dout, dback);
    if (v == 2) ldsm<24, false><<<blocks, 32 * WARPS>>>(d, dout, dback);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bk, dback, sizeof bk, cudaMemcpyDeviceToHost));
    for (int g = 0; g < tiles; g++)
      for (int l = 0; l < 32; l++) {
        const unsigned short *t = h + g * 256;
        const unsigned *p = o + (g * 32 + l) * 7;
        for (int m = 0; m < 4; m++) bad += p[m] != frag(t, m, l, trans);
        bad += p[4] != frag(t, 0, l, trans);
        bad += p[5] != frag(t, 0, l, trans) || p[6] != frag(t, 1, l, trans);
      }
    /* stmatrix stores the fragments as they were loaded: a round trip,
     * or the transposed 8x8 blocks after .trans */
    for (int g = 0; g < tiles; g++)
      for (int m = 0; m < 4; m++)
        for (int r = 0; r < 8; r++)
          for (int c = 0; c < 8; c++)
            bad += elem(bk + g * 256, m, r, c) != (trans ? elem(h + g * 256, m, c, r) : elem(h + g * 256, m, r, c));
    hs[v] = fnv(o, tiles * 32 * 7) ^ fnv(bk, tiles * 128);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dback));
  CHECK(cudaFree(dout));
  return result("ldsm_tile", bad, "%08x %08x %08x", hs[0], hs[1], hs[2]);
}
