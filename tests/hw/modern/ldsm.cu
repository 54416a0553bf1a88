// ldsm.cu: ldmatrix / stmatrix on an sm_90 GPU, one warp a launch.
// For each row-address pattern (stride, swizzle) and each form (.x1/.x2/.x4,
// with and without .trans) the kernel fills a 4 KB shared tile with known
// halves, executes ONE ldmatrix (or stmatrix) and writes what it got (or the
// tile) to global memory. Launched once per case so that ncu reports each
// case's shared requests, wavefronts and bank conflicts on its own:
// the only shared loads of ldsm_k are the ldmatrix, the only shared stores
// of stsm_k are the stmatrix.
//   ./ldsm           prints "case NAME" blocks (outputs, hex)
#include <cstdio>
#include <cstdint>
#include <cstring>

#define TILE_BYTES 4096

// A case: the byte offset of each lane's row address inside the tile.
struct Case { char name[48]; uint32_t off[32]; };

template <int N, int T>
__global__ void ldsm_k(const uint32_t *off, uint32_t *out) {
  __shared__ __align__(128) uint32_t tile[TILE_BYTES / 4];
  int lane = threadIdx.x;
  // half i of the tile holds i ^ 0x5000 (distinct, never zero)
  for (int w = lane; w < TILE_BYTES / 4; w += 32)
    tile[w] = ((2u * w) ^ 0x5000u) | (((2u * w + 1) ^ 0x5000u) << 16);
  __syncwarp();
  uint32_t a = (uint32_t)__cvta_generic_to_shared(tile) + off[lane];
  uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (N == 1 && !T) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  if (N == 2 && !T) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  if (N == 4 && !T) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  if (N == 1 && T) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  if (N == 2 && T) asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  if (N == 4 && T) asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  out[lane * 4 + 0] = r0; out[lane * 4 + 1] = r1;
  out[lane * 4 + 2] = r2; out[lane * 4 + 3] = r3;
}

template <int N, int T>
__global__ void stsm_k(const uint32_t *off, uint32_t *out) {
  __shared__ __align__(128) uint32_t tile[TILE_BYTES / 4];
  int lane = threadIdx.x;
  for (int w = lane; w < TILE_BYTES / 4; w += 32) tile[w] = 0xeeeeeeeeu;
  __syncwarp();
  uint32_t a = (uint32_t)__cvta_generic_to_shared(tile) + off[lane];
  // register i of lane L holds halves (L*8 + 2i, L*8 + 2i + 1) | 0x4000
  uint32_t r0 = ((lane * 8 + 0) | 0x4000) | ((lane * 8 + 1) | 0x4000) << 16;
  uint32_t r1 = ((lane * 8 + 2) | 0x4000) | ((lane * 8 + 3) | 0x4000) << 16;
  uint32_t r2 = ((lane * 8 + 4) | 0x4000) | ((lane * 8 + 5) | 0x4000) << 16;
  uint32_t r3 = ((lane * 8 + 6) | 0x4000) | ((lane * 8 + 7) | 0x4000) << 16;
  if (N == 1 && !T) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(r0) : "memory");
  if (N == 2 && !T) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(r0), "r"(r1) : "memory");
  if (N == 4 && !T) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  if (N == 1 && T) asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(a), "r"(r0) : "memory");
  if (N == 2 && T) asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(r0), "r"(r1) : "memory");
  if (N == 4 && T) asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  __syncwarp();
  for (int w = lane; w < TILE_BYTES / 4; w += 32) out[w] = tile[w];
}

// A hazard for racecheck: warp 0 fills the tile, warp 1 reads it with
// ldmatrix (and warp 0 then overwrites rows warp 1 read with stmatrix)
// with no barrier between them when `sync` is 0.
__global__ void ldsm_race(int sync, uint32_t *out) {
  __shared__ __align__(128) uint32_t tile[512];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t a = (uint32_t)__cvta_generic_to_shared(tile) + lane * 16;
  if (warp == 0)
    for (int w = lane; w < 512; w += 32) tile[w] = w;
  if (sync) __syncthreads();
  uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (warp == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  if (sync) __syncthreads();
  if (warp == 0)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(lane) : "memory");
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

// Row r (0..31) of a pattern; lanes 8N.. of an .xN get `rest` rows.
static uint32_t row_off(int pat, int r) {
  switch (pat) {
  case 0: return r * 16;                           // packed 8x8 tiles, 16 B rows
  case 1: return r * 32;                           // 16-half rows
  case 2: return r * 64;                           // 32-half rows
  case 3: return r * 128;                          // 64-half rows: 8-way
  case 4: return r * 128 ^ ((r & 7) << 4);         // 64-half rows, Swizzle<3,4,3>
  case 5: return r * 80;                           // padded rows (64+16 B)
  case 6: return (r & 7) * 128 + (r >> 3) * 16;    // CuTe k-major: 4 matrices side by side
  case 7: return ((r & 7) * 128 + (r >> 3) * 16) ^ ((r & 7) << 4); // same, swizzled
  case 8: return 0;                                // every row the same address
  case 9: return (r * 7 % 32) * 48;                // scattered 48 B stride
  case 10: return (r & 7) * 16;                    // every matrix the same 8 rows
  case 11: return r * 16 + (r >> 3) * 128;         // matrices 128 B apart, rows packed
  case 12: return (r & 7) * 256 + (r >> 3) * 16;   // 256 B row pitch, 4 matrices side by side
  }
  return 0;
}
static const char *pat_name[] = {"s16", "s32", "s64", "s128", "s128swz", "s80", "kmajor", "kmajorswz", "same", "s48perm", "dupmat", "gap128", "kmajor256"};
#define NPAT 13

typedef void (*kfn)(const uint32_t *, uint32_t *);

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "race")) {
    uint32_t *d;
    cudaMalloc(&d, 64 * 4);
    ldsm_race<<<1, 64>>>(argv[2][0] == '1', d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("race sync=%s %s\n", argv[2], cudaGetErrorString(e));
    return 0;
  }
  uint32_t *d_off, *d_out;
  cudaMalloc(&d_off, 32 * 4);
  cudaMalloc(&d_out, TILE_BYTES);
  static uint32_t h_out[TILE_BYTES / 4];
  struct { const char *name; kfn k; int n, t, st; } forms[] = {
    {"ldsm_x1", ldsm_k<1, 0>, 1, 0, 0}, {"ldsm_x2", ldsm_k<2, 0>, 2, 0, 0}, {"ldsm_x4", ldsm_k<4, 0>, 4, 0, 0},
    {"ldsm_x1_trans", ldsm_k<1, 1>, 1, 1, 0}, {"ldsm_x2_trans", ldsm_k<2, 1>, 2, 1, 0}, {"ldsm_x4_trans", ldsm_k<4, 1>, 4, 1, 0},
    {"stsm_x1", stsm_k<1, 0>, 1, 0, 1}, {"stsm_x2", stsm_k<2, 0>, 2, 0, 1}, {"stsm_x4", stsm_k<4, 0>, 4, 0, 1},
    {"stsm_x1_trans", stsm_k<1, 1>, 1, 1, 1}, {"stsm_x2_trans", stsm_k<2, 1>, 2, 1, 1}, {"stsm_x4_trans", stsm_k<4, 1>, 4, 1, 1},
  };
  for (auto &f : forms) {
    for (int p = 0; p < NPAT; p++) {
      // .trans forms only on a few patterns: the bank behaviour is the same rows
      if (f.t && p != 0 && p != 3 && p != 4 && p != 8) continue;
      uint32_t off[32];
      for (int l = 0; l < 32; l++)
        // lanes past the 8N that supply addresses point at row 31's place
        // (or a conflicting one) to show whether the hardware ignores them
        off[l] = l < 8 * f.n ? row_off(p, l) : row_off(3, 31 - (l & 7));
      cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice);
      cudaMemset(d_out, 0, TILE_BYTES);
      f.k<<<1, 32>>>(d_off, d_out);
      cudaError_t e = cudaDeviceSynchronize();
      printf("case %s_%s %s\n", f.name, pat_name[p], e ? cudaGetErrorString(e) : "ok");
      printf("off");
      for (int l = 0; l < 32; l++) printf(" %u", off[l]);
      printf("\n");
      int nw = f.st ? TILE_BYTES / 4 : 128;
      cudaMemcpy(h_out, d_out, nw * 4, cudaMemcpyDeviceToHost);
      for (int i = 0; i < nw; i++) printf("%08x%c", h_out[i], i % 8 == 7 ? '\n' : ' ');
    }
  }
  return 0;
}
