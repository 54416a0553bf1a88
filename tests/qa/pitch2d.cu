// 2-D pitched memory: cudaMallocPitch, cudaMemcpy2D in and out, cudaMemset2D,
// a 2-D box blur with a (16+2)x(16+2) shared tile loaded by a 16x16 block.
#include "qa.h"

__global__ void blur(const float *in, size_t ip, float *out, size_t op, int w, int h)
{
  __shared__ float t[18][18];
  int x0 = blockIdx.x * 16 - 1, y0 = blockIdx.y * 16 - 1;
  for (int c = threadIdx.y * 16 + threadIdx.x; c < 18 * 18; c += 256) {
    int lx = c % 18, ly = c / 18, gx = x0 + lx, gy = y0 + ly;
    t[ly][lx] = gx >= 0 && gy >= 0 && gx < w && gy < h ? ((const float *)((const char *)in + gy * ip))[gx] : 0.f;
  }
  __syncthreads();
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h) {
    float s = 0.f;
    for (int dy = 0; dy < 3; dy++)
      for (int dx = 0; dx < 3; dx++) s += t[threadIdx.y + dy][threadIdx.x + dx];
    ((float *)((char *)out + y * op))[x] = s;
  }
}

int main()
{
  const int w = 45, h = 33;
  float in[h][w], o[h][w];
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) in[y][x] = (float)((x * 3 + y * 5) % 17);
  float *di, *dout;
  size_t ip, op;
  CHECK(cudaMallocPitch(&di, &ip, w * 4, h));
  CHECK(cudaMallocPitch(&dout, &op, w * 4, h));
  EXPECT_EQ("pitch>=row", 0, ip >= w * 4, 1);
  CHECK(cudaMemset2D(dout, op, 0xff, w * 4, h));
  CHECK(cudaMemcpy2D(di, ip, in, w * 4, w * 4, h, cudaMemcpyHostToDevice));
  blur<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(di, ip, dout, op, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2D(o, w * 4, dout, op, w * 4, h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.f;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          int X = x + dx, Y = y + dy;
          s += X >= 0 && Y >= 0 && X < w && Y < h ? in[Y][X] : 0.f;
        }
      EXPECT_EQ("blur", y * w + x, o[y][x], s);
    }
  return qa_done("pitch2d");
}
