// 3-D blocks and grids: a 7-point stencil over a 3-D volume with a haloed
// shared tile of (8+2)^3 floats, block (8,8,8) = 512 threads, grid 3-D.
#include "qa.h"

#define B 8
__global__ void lap(const float *in, float *out, int nx, int ny, int nz)
{
  __shared__ float t[B + 2][B + 2][B + 2];
  int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y, z = blockIdx.z * B + threadIdx.z;
  int lin = (threadIdx.z * B + threadIdx.y) * B + threadIdx.x;
  /* cooperative load of the haloed tile: 1000 cells by 512 threads */
  for (int c = lin; c < (B + 2) * (B + 2) * (B + 2); c += B * B * B) {
    int lx = c % (B + 2), ly = (c / (B + 2)) % (B + 2), lz = c / ((B + 2) * (B + 2));
    int gx = blockIdx.x * B + lx - 1, gy = blockIdx.y * B + ly - 1, gz = blockIdx.z * B + lz - 1;
    t[lz][ly][lx] = gx >= 0 && gy >= 0 && gz >= 0 && gx < nx && gy < ny && gz < nz
                        ? in[(gz * ny + gy) * nx + gx] : 0.f;
  }
  __syncthreads();
  int a = threadIdx.x + 1, b = threadIdx.y + 1, c = threadIdx.z + 1;
  if (x < nx && y < ny && z < nz)
    out[(z * ny + y) * nx + x] = t[c][b][a - 1] + t[c][b][a + 1] + t[c][b - 1][a] + t[c][b + 1][a] +
                                 t[c - 1][b][a] + t[c + 1][b][a] - 6.f * t[c][b][a];
}

int main()
{
  const int nx = 20, ny = 13, nz = 10, n = nx * ny * nz;
  float *h = (float *)malloc(n * 4), *o = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 101);
  float *di, *dout;
  CHECK(cudaMalloc(&di, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(di, h, n * 4, cudaMemcpyHostToDevice));
  dim3 blk(B, B, B), grd((nx + B - 1) / B, (ny + B - 1) / B, (nz + B - 1) / B);
  lap<<<grd, blk>>>(di, dout, nx, ny, nz);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
#define AT(X, Y, Z) ((X) >= 0 && (Y) >= 0 && (Z) >= 0 && (X) < nx && (Y) < ny && (Z) < nz ? h[((Z) * ny + (Y)) * nx + (X)] : 0.f)
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        float w = AT(x - 1, y, z) + AT(x + 1, y, z) + AT(x, y - 1, z) + AT(x, y + 1, z) + AT(x, y, z - 1) +
                  AT(x, y, z + 1) - 6.f * AT(x, y, z);
        EXPECT_EQ("lap", (z * ny + y) * nx + x, o[(z * ny + y) * nx + x], w);
      }
  return qa_done("blocks3d");
}
