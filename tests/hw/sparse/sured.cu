// sured.cu: formatted surface reductions (sured.p) next to unformatted ones
// (sured.b) on surface objects of three formats: float, int and unsigned
// int (8 x 4 each). 32 threads, thread t on element (t % 8, t / 8), twice.
// Prints each surface after the kernel; then reads the float one as a
// texture with tex.2d.v2.f16x2.
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

// tex.2d.v2.f16x2: the four channels as two .f16x2 pairs (a float
// texture, linear filtering between texels: values not exact in f16)
__global__ void texh_k(cudaTextureObject_t t, uint32_t *out) {
  int i = threadIdx.x;
  float x = (i % 8) + 0.3f + 0.05f * i, y = (i / 8) + 0.7f;
  uint32_t a, b;
  asm volatile("tex.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}];" : "=r"(a), "=r"(b) : "l"(t), "f"(x), "f"(y));
  out[2 * i] = a;
  out[2 * i + 1] = b;
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
  // the float surface's array as a texture (linear, clamp)
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = af;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &td, NULL);
  uint32_t *d, h[64];
  cudaMalloc(&d, sizeof h);
  texh_k<<<1, 32>>>(t, d);
  e = cudaDeviceSynchronize();
  printf("texh %s\n", e ? cudaGetErrorString(e) : "ok");
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; i++) printf("h %d %08x %08x\n", i, h[2 * i], h[2 * i + 1]);
  return 0;
}
