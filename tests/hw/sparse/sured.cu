// sured.cu: formatted surface reductions (sured.p) next to unformatted ones
// (sured.b) on surface objects of three formats: float, int and unsigned
// int (8 x 4 each). 32 threads, thread t on element (t % 8, t / 8), twice.
// Prints each surface after the kernel.
//   ./sured
#include <cstdio>
#include <cstdint>

__global__ void sured_k(cudaSurfaceObject_t sf, cudaSurfaceObject_t si, cudaSurfaceObject_t su) {
  int t = threadIdx.x, x = t % 8, y = t / 8;
  float fv = 1.25f * (t % 3) - 0.5f;
  int iv = (t % 5) - 2;
  unsigned uv = (t & 1) ? 0x80000000u | t : t * 7u;
  for (int rep = 0; rep < 2; rep++) {
    // .p: x in elements; .b32 takes the surface's format
    asm volatile("sured.p.add.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(sf), "r"(x), "r"(y), "r"(__float_as_uint(fv)) : "memory");
    asm volatile("sured.p.min.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(si), "r"(x), "r"(y), "r"(iv) : "memory");
    asm volatile("sured.p.max.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(su), "r"(x), "r"(y), "r"(uv) : "memory");
  }
  __syncthreads();
  // .b: x in bytes, the instruction's own type
  asm volatile("sured.b.max.2d.s32.trap [%0, {%1, %2}], %3;" ::"l"(si), "r"(4 * x), "r"(y), "r"(t - 20) : "memory");
  asm volatile("sured.p.and.2d.b32.clamp [%0, {%1, %2}], %3;" ::"l"(su), "r"(x + 5), "r"(y), "r"(0xfffffff0u) : "memory");
  asm volatile("sured.p.max.2d.b32.trap [%0, {%1, %2}], %3;" ::"l"(sf), "r"(x), "r"(y), "r"(__float_as_uint(-1.0f + t * 0.25f)) : "memory");
}

static cudaSurfaceObject_t make(cudaArray_t *a, cudaChannelFormatDesc d, const void *init) {
  cudaMallocArray(a, &d, 8, 4, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(*a, 0, 0, init, 32, 32, 4, cudaMemcpyHostToDevice);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = *a;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &r);
  return s;
}

int main() {
  float fi[32];
  int ii[32];
  unsigned ui[32];
  for (int i = 0; i < 32; i++) { fi[i] = i * 0.5f - 4; ii[i] = i - 16; ui[i] = i * 3u; }
  cudaArray_t af, ai, au;
  cudaSurfaceObject_t sf = make(&af, cudaCreateChannelDesc<float>(), fi);
  cudaSurfaceObject_t si = make(&ai, cudaCreateChannelDesc<int>(), ii);
  cudaSurfaceObject_t su = make(&au, cudaCreateChannelDesc<unsigned>(), ui);
  sured_k<<<1, 32>>>(sf, si, su);
  cudaError_t e = cudaDeviceSynchronize();
  printf("status %s\n", e ? cudaGetErrorString(e) : "ok");
  cudaMemcpy2DFromArray(fi, 32, af, 0, 0, 32, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(ii, 32, ai, 0, 0, 32, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(ui, 32, au, 0, 0, 32, 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; i++) printf("%d %08x %d %08x\n", i, *(unsigned *)&fi[i], ii[i], ui[i]);
  return 0;
}
