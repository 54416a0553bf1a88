// textures.cu: CUDA arrays, texture objects and surface objects, end to end.
// Every line it prints is a fact the GPU gave: texel values fetched with each
// geometry (1D/2D/3D, layered, cube, linear memory, pitch2D), element format
// (float, half, integers, normalized integers), address mode (wrap, clamp,
// mirror, border), filter (point, linear: the interpolation weights are the
// hardware's 1.8 fixed point, so fine sweeps of the coordinate show them),
// normalized coordinates, gathers, mipmap levels, surface loads and stores,
// the txq/suq/istypep queries, and the runtime's answers (descriptors, array
// info, error codes of bad calls). Values are printed as raw bits in hex, so
// a comparison is exact. Recorded on the GPU by record.sh; test.sh runs it
// under smemu and compares.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

// Print n 32-bit words as hex, 16 a line, each line prefixed by the name and
// the first index.
static void dump(const char *name, const void *p, int n) {
  const uint32_t *u = (const uint32_t *)p;
  for (int i = 0; i < n; i += 16) {
    printf("%s %d:", name, i);
    for (int j = i; j < n && j < i + 16; j++) printf(" %08x", u[j]);
    printf("\n");
  }
}

static float *g_out; // device results, 4 words per sample
static float *h_out;
#define NOUT (1 << 16)

// ---- kernels: each thread takes one sample i of n ----

// 1D sweep: coordinate x0 + i * dx, fetch float4 (4 words per sample)
__global__ void k_tex1d(cudaTextureObject_t t, float x0, float dx, int n, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(t, x0 + i * dx);
}
__global__ void k_tex1d_f(cudaTextureObject_t t, float x0, float dx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x0 + i * dx);
}
__global__ void k_fetch_f(cudaTextureObject_t t, int i0, int n, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, i0 + i);
}
__global__ void k_fetch_i(cudaTextureObject_t t, int i0, int n, int4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int4>(t, i0 + i);
}
__global__ void k_fetch_u(cudaTextureObject_t t, int i0, int n, uint4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<uint4>(t, i0 + i);
}
// 2D grid sweep: nx * ny samples at (x0 + ix*dx, y0 + iy*dy)
__global__ void k_tex2d(cudaTextureObject_t t, float x0, float dx, float y0, float dy, int nx, int n, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, x0 + (i % nx) * dx, y0 + (i / nx) * dy);
}
__global__ void k_tex2d_i(cudaTextureObject_t t, float x0, float dx, float y0, float dy, int nx, int n, int4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<int4>(t, x0 + (i % nx) * dx, y0 + (i / nx) * dy);
}
__global__ void k_tex2d_f1(cudaTextureObject_t t, float x0, float dx, float y0, float dy, int nx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, x0 + (i % nx) * dx, y0 + (i / nx) * dy);
}
__global__ void k_tex3d(cudaTextureObject_t t, float x0, float dx, int nx, int ny, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int ix = i % nx, iy = i / nx % ny, iz = i / nx / ny;
    out[i] = tex3D<float>(t, x0 + ix * dx, x0 + iy * dx * 1.25f, x0 + iz * dx * 0.75f);
  }
}
__global__ void k_tex1dlayered(cudaTextureObject_t t, float x0, float dx, int nx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float>(t, x0 + (i % nx) * dx, i / nx);
}
__global__ void k_tex2dlayered(cudaTextureObject_t t, float x0, float dx, int nx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int ix = i % nx, iy = i / nx % nx, layer = i / nx / nx;
    out[i] = tex2DLayered<float>(t, x0 + ix * dx, x0 + iy * dx, layer);
  }
}
__global__ void k_cube(cudaTextureObject_t t, const float4 *dirs, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dirs[i].x, dirs[i].y, dirs[i].z);
}
__global__ void k_gather(cudaTextureObject_t t, float x0, float dx, int nx, int n, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = x0 + (i / 4 % nx) * dx, y = x0 + (i / 4 / nx) * dx * 0.5f;
    switch (i % 4) {
    case 0: out[i] = tex2Dgather<float4>(t, x, y, 0); break;
    case 1: out[i] = tex2Dgather<float4>(t, x, y, 1); break;
    case 2: out[i] = tex2Dgather<float4>(t, x, y, 2); break;
    default: out[i] = tex2Dgather<float4>(t, x, y, 3); break;
    }
  }
}
__global__ void k_lod(cudaTextureObject_t t, float x0, float dx, int nx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, x0 + (i % nx) * dx, 0.4f, (i / nx) * 0.25f - 0.5f);
}
__global__ void k_grad(cudaTextureObject_t t, float x0, float dx, int nx, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float g = (i / nx) * 0.03125f;
    out[i] = tex2DGrad<float>(t, x0 + (i % nx) * dx, 0.4f, make_float2(g, 0), make_float2(0, g * 0.5f));
  }
}
// surfaces: write a pattern, read back with boundary modes
__global__ void k_surf2d_write(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite(100.0f * y + x + 0.5f, s, x * 4, y);
}
__global__ void k_surf2d_read(cudaSurfaceObject_t s, int w, int h, float *out) {
  int x = threadIdx.x - 2, y = blockIdx.x - 1; // two columns and a row beyond each edge
  float a = -1.f, b = -1.f;
  if (x >= -2 && x < w + 2 && y >= -1 && y < h + 1) {
    a = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
    b = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = a;
  out[2 * i + 1] = b;
}
__global__ void k_surf_misc(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl,
                            cudaSurfaceObject_t s4, int *out) {
  int x = threadIdx.x;
  surf1Dwrite((short)(x * 3 - 7), s1, x * 2);
  surf3Dwrite(make_int2(x, -x), s3, (x % 4) * 8, x / 4 % 2, x / 8);
  surf2DLayeredwrite((unsigned char)(x + 200), sl, x % 4, x / 4 % 2, x / 8);
  surf2Dwrite(make_uchar4(x, 2 * x, 255 - x, 7), s4, (x % 8) * 4, x / 8);
  __syncthreads();
  int r = 31 - x;
  out[6 * x + 0] = surf1Dread<short>(s1, r * 2);
  int2 v = surf3Dread<int2>(s3, (r % 4) * 8, r / 4 % 2, r / 8);
  out[6 * x + 1] = v.x;
  out[6 * x + 2] = v.y;
  out[6 * x + 3] = surf2DLayeredread<unsigned char>(sl, r % 4, r / 4 % 2, r / 8);
  uchar4 c = surf2Dread<uchar4>(s4, (r % 8) * 4, r / 8);
  out[6 * x + 4] = c.x | c.y << 8 | c.z << 16 | c.w << 24;
  out[6 * x + 5] = surf1Dread<short>(s1, r * 2 + 64, cudaBoundaryModeZero);
}
// in their own translation units (own modules): a GPU that refuses one of
// their instructions fails to load that module only
void launch_sustp(cudaSurfaceObject_t s, cudaSurfaceObject_t sf, cudaSurfaceObject_t si);
void launch_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out);

#define GRID(n) ((n) + 127) / 128, 128

static cudaTextureDesc tdesc(int addr, int filter, int read, int norm) {
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = (cudaTextureAddressMode)addr;
  d.filterMode = (cudaTextureFilterMode)filter;
  d.readMode = (cudaTextureReadMode)read;
  d.normalizedCoords = norm;
  return d;
}

static cudaResourceDesc rarray(cudaArray_t a) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

static int fetch(const char *name, int words) {
  cudaError_t e1 = cudaDeviceSynchronize(), e2 = cudaGetLastError();
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    printf("FAIL %s: %s %s\n", name, cudaGetErrorName(e1), cudaGetErrorName(e2));
    return e1 != cudaSuccess; // a sticky error ends the program
  }
  cudaError_t e3 = cudaMemcpy(h_out, g_out, words * 4, cudaMemcpyDeviceToHost);
  if (e3 != cudaSuccess) {
    printf("FAIL %s: copy %s\n", name, cudaGetErrorName(e3));
    return 1;
  }
  dump(name, h_out, words);
  return 0;
}

static void print_desc(const char *name, cudaChannelFormatDesc d) {
  printf("%s: %d %d %d %d %d\n", name, d.x, d.y, d.z, d.w, (int)d.f);
}

int main(void) {
  CK(cudaMalloc(&g_out, NOUT * 16));
  h_out = (float *)malloc(NOUT * 16);

  // ---- channel descriptors ----
  print_desc("desc float", cudaCreateChannelDesc<float>());
  print_desc("desc uchar4", cudaCreateChannelDesc<uchar4>());
  print_desc("desc half2", cudaCreateChannelDescHalf2());
  print_desc("desc fn", cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned));

  // ---- 1D linear filtering: the weights (T = 0, 1, 0, 1) ----
  cudaTextureObject_t t1;
  cudaArray_t a1;
  {
    float v[4] = {0.f, 1.f, 0.f, 1.f};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    CK(cudaMallocArray(&a1, &fd, 4));
    CK(cudaMemcpy2DToArray(a1, 0, 0, v, sizeof v, sizeof v, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a1);
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    CK(cudaCreateTextureObject(&t1, &r, &td, NULL));
    k_tex1d_f<<<GRID(2048)>>>(t1, 0.5f, 1.f / 2048, 2048, g_out);
    if (fetch("weights", 2048)) return 1;
    // between the steps of 1/256: the rounding of the weight
    k_tex1d_f<<<GRID(512)>>>(t1, 0.5f + 1.f / 4096, 1.f / 16384, 512, g_out);
    if (fetch("weights_fine", 512)) return 1;
    // large coordinates: where the fraction runs out of float bits
    k_tex1d_f<<<GRID(256)>>>(t1, 1.3f, 0.0f, 1, g_out);
    if (fetch("weights_at", 1)) return 1;
  }
  // ---- 1D: the sub-texel precision of large and of normalized coordinates ----
  {
    static float v[4096];
    for (int i = 0; i < 4096; i++) v[i] = (float)i;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, 4096));
    CK(cudaMemcpy2DToArray(a, 0, 0, v, sizeof v, sizeof v, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    for (int norm = 0; norm < 2; norm++) {
      cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, norm);
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &r, &td, NULL));
      float s = norm ? 1.f / 4096 : 1.f;
      k_tex1d_f<<<GRID(512)>>>(t, 3000.5f * s, s / 97, 512, g_out);
      if (fetch(norm ? "subtexel_norm" : "subtexel", 512)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeArray(a));
  }
  // ---- 1D: lerp precision (values of very different size) ----
  {
    float v[8] = {1.0f, 3.0f, -7.5f, 1000.3f, 1e-3f, 3.14159f, -2.5e7f, 16777217.f};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, 8));
    CK(cudaMemcpyToArray(a, 0, 0, v, sizeof v, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex1d_f<<<GRID(1024)>>>(t, -0.5f, 9.f / 1024, 1024, g_out);
    if (fetch("lerp", 1024)) return 1;
    CK(cudaDestroyTextureObject(t));
    float back[8];
    CK(cudaMemcpyFromArray(back, a, 4, 0, 16, cudaMemcpyDeviceToHost));
    dump("fromarray", back, 4);
    CK(cudaFreeArray(a));
  }
  // ---- 1D normalized coordinates: every address mode, point and linear ----
  {
    float v[5] = {1.f, 2.f, 4.f, 8.f, 16.f};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, 5));
    CK(cudaMemcpy2DToArray(a, 0, 0, v, sizeof v, sizeof v, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    const char *names[4] = {"wrap", "clamp", "mirror", "border"};
    for (int norm = 0; norm < 2; norm++)
      for (int filt = 0; filt < 2; filt++)
        for (int m = 0; m < 4; m++) {
          cudaTextureDesc td = tdesc(m, filt, cudaReadModeElementType, norm);
          td.borderColor[0] = 0.375f;
          cudaTextureObject_t t;
          CK(cudaCreateTextureObject(&t, &r, &td, NULL));
          char name[64];
          snprintf(name, sizeof name, "mode1d_%s_%s_%s", norm ? "norm" : "unnorm", filt ? "linear" : "point", names[m]);
          if (norm) k_tex1d_f<<<GRID(600)>>>(t, -2.0f, 1.f / 150 + 1e-5f, 600, g_out);
          else k_tex1d_f<<<GRID(600)>>>(t, -10.0f, 1.f / 30 + 1e-5f, 600, g_out);
          if (fetch(name, 600)) return 1;
          CK(cudaDestroyTextureObject(t));
        }
    CK(cudaFreeArray(a));
  }
  // ---- linear memory: tex1Dfetch of every format ----
  {
    unsigned char bytes[256];
    for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)i;
    unsigned char *d;
    CK(cudaMalloc(&d, 4096));
    CK(cudaMemcpy(d, bytes, 256, cudaMemcpyHostToDevice));
    unsigned short s16[128];
    for (int i = 0; i < 128; i++) s16[i] = (unsigned short)(i * 517 + (i & 1 ? 0x8000 : 0) + (i == 5 ? 0xffff : 0));
    s16[0] = 0x8000, s16[1] = 0x8001, s16[2] = 0x7fff, s16[3] = 0xffff, s16[4] = 0;
    CK(cudaMemcpy(d + 1024, s16, 256, cudaMemcpyHostToDevice));
    __half hv[64];
    for (int i = 0; i < 64; i++) hv[i] = __float2half(i * 0.37f - 9.f);
    CK(cudaMemcpy(d + 2048, hv, 128, cudaMemcpyHostToDevice));
    struct {
      const char *name;
      int off, bits, nch, kind, read, words;
      int as; // 0 float4, 1 int4, 2 uint4
    } F[] = {
        {"u8x4_norm", 0, 8, 4, cudaChannelFormatKindUnsigned, cudaReadModeNormalizedFloat, 64, 0},
        {"s8x4_norm", 0, 8, 4, cudaChannelFormatKindSigned, cudaReadModeNormalizedFloat, 64, 0},
        {"u8x4_elem", 0, 8, 4, cudaChannelFormatKindUnsigned, cudaReadModeElementType, 64, 2},
        {"s8x2_elem", 0, 8, 2, cudaChannelFormatKindSigned, cudaReadModeElementType, 128, 1},
        {"u16_norm", 1024, 16, 1, cudaChannelFormatKindUnsigned, cudaReadModeNormalizedFloat, 128, 0},
        {"s16_norm", 1024, 16, 1, cudaChannelFormatKindSigned, cudaReadModeNormalizedFloat, 128, 0},
        {"s16x2_elem", 1024, 16, 2, cudaChannelFormatKindSigned, cudaReadModeElementType, 64, 1},
        {"u16x4_elem", 1024, 16, 4, cudaChannelFormatKindUnsigned, cudaReadModeElementType, 32, 2},
        {"f16", 2048, 16, 1, cudaChannelFormatKindFloat, cudaReadModeElementType, 64, 0},
        {"f16x2", 2048, 16, 2, cudaChannelFormatKindFloat, cudaReadModeElementType, 32, 0},
        {"f32", 0, 32, 1, cudaChannelFormatKindFloat, cudaReadModeElementType, 64, 0},
        {"u32x2", 0, 32, 2, cudaChannelFormatKindUnsigned, cudaReadModeElementType, 32, 2},
        {"s32x4", 0, 32, 4, cudaChannelFormatKindSigned, cudaReadModeElementType, 16, 1},
    };
    for (unsigned k = 0; k < sizeof F / sizeof F[0]; k++) {
      cudaResourceDesc r;
      memset(&r, 0, sizeof r);
      r.resType = cudaResourceTypeLinear;
      r.res.linear.devPtr = d + F[k].off;
      int b = F[k].bits;
      r.res.linear.desc = cudaCreateChannelDesc(b, F[k].nch > 1 ? b : 0, F[k].nch > 2 ? b : 0, F[k].nch > 3 ? b : 0,
                                                (cudaChannelFormatKind)F[k].kind);
      r.res.linear.sizeInBytes = F[k].words * F[k].nch * b / 8;
      cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModePoint, F[k].read, 0);
      cudaTextureObject_t t;
      cudaError_t e = cudaCreateTextureObject(&t, &r, &td, NULL);
      char name[64];
      snprintf(name, sizeof name, "fetch_%s", F[k].name);
      if (e != cudaSuccess) {
        printf("%s: create %s\n", name, cudaGetErrorName(e));
        continue;
      }
      int n = F[k].words + 4; // two past each end
      if (F[k].as == 0) k_fetch_f<<<GRID(n)>>>(t, -2, n, (float4 *)g_out);
      else if (F[k].as == 1) k_fetch_i<<<GRID(n)>>>(t, -2, n, (int4 *)g_out);
      else k_fetch_u<<<GRID(n)>>>(t, -2, n, (uint4 *)g_out);
      if (fetch(name, 4 * n)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    // resource queries of a linear texture
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d;
    r.res.linear.desc = cudaCreateChannelDesc<float>();
    r.res.linear.sizeInBytes = 1024;
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    cudaResourceDesc q;
    memset(&q, 0x55, sizeof q);
    CK(cudaGetTextureObjectResourceDesc(&q, t));
    printf("resdesc linear: %d %d %zu %d\n", (int)q.resType, (int)(q.res.linear.devPtr == (void *)d),
           q.res.linear.sizeInBytes, q.flags);
    print_desc("resdesc linear desc", q.res.linear.desc);
    cudaTextureDesc qt;
    memset(&qt, 0x55, sizeof qt);
    CK(cudaGetTextureObjectTextureDesc(&qt, t));
    printf("texdesc: %d %d %d %d %d %d %d %08x %d %u %d\n", qt.addressMode[0], qt.addressMode[1], qt.addressMode[2],
           qt.filterMode, qt.readMode, qt.sRGB, qt.normalizedCoords, fbits(qt.borderColor[0]), qt.maxAnisotropy,
           (unsigned)qt.mipmapFilterMode, qt.seamlessCubemap);
    CK(cudaDestroyTextureObject(t));
    // bad linear textures: the driver's answers
    r.res.linear.sizeInBytes = 0;
    printf("err linear size0: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, NULL)));
    r.res.linear.sizeInBytes = 1024;
    r.res.linear.devPtr = d + 4;
    printf("err linear misaligned: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, NULL)));
    r.res.linear.devPtr = d;
    cudaTextureDesc tl = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    r.res.linear.desc = cudaCreateChannelDesc<int>();
    printf("err int linear filter: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &tl, NULL)));
    printf("err null: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, NULL, &td, NULL)));
    cudaGetLastError();
    CK(cudaFree(d));
  }
  // ---- 2D arrays: uchar4 normalized, bilinear, every mode ----
  {
    const int W = 6, H = 5;
    uchar4 img[H][W];
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
        img[y][x] = make_uchar4(x * 50, y * 60, (x * 37 + y * 101) & 255, 255 - x * y * 9);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, img, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    const char *names[4] = {"wrap", "clamp", "mirror", "border"};
    for (int filt = 0; filt < 2; filt++)
      for (int m = 0; m < 4; m++) {
        cudaTextureDesc td = tdesc(m, filt, cudaReadModeNormalizedFloat, 1);
        td.borderColor[0] = 0.5f, td.borderColor[1] = 0.25f, td.borderColor[2] = 1.f, td.borderColor[3] = -2.f;
        cudaTextureObject_t t;
        CK(cudaCreateTextureObject(&t, &r, &td, NULL));
        char name[64];
        snprintf(name, sizeof name, "rgba2d_%s_%s", filt ? "linear" : "point", names[m]);
        k_tex2d<<<GRID(24 * 20)>>>(t, -0.6f, 0.11f, -0.55f, 0.13f, 24, 24 * 20, (float4 *)g_out);
        if (fetch(name, 4 * 24 * 20)) return 1;
        CK(cudaDestroyTextureObject(t));
      }
    // element type reads of the same array (integers)
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2d_i<<<GRID(8 * 7)>>>(t, -1.f, 1.0f, -1.f, 1.f, 8, 8 * 7, (int4 *)g_out);
    if (fetch("rgba2d_elem", 4 * 8 * 7)) return 1;
    CK(cudaDestroyTextureObject(t));
    // array queries and copies out of / between arrays
    cudaChannelFormatDesc qd;
    cudaExtent ex;
    unsigned flags;
    CK(cudaArrayGetInfo(&qd, &ex, &flags, a));
    print_desc("arrayinfo desc", qd);
    printf("arrayinfo: %zu %zu %zu %u\n", ex.width, ex.height, ex.depth, flags);
    CK(cudaGetChannelDesc(&qd, a));
    print_desc("getchanneldesc", qd);
    cudaArray_t b;
    CK(cudaMallocArray(&b, &fd, 4, 3));
    CK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 8, 1, 16, 3, cudaMemcpyDeviceToDevice));
    uint32_t back[12];
    CK(cudaMemcpy2DFromArray(back, 16, b, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
    dump("arraytoarray", back, 12);
    printf("err 2dtoarray out of range: %s\n",
           cudaGetErrorName(cudaMemcpy2DToArray(b, 4, 0, img, W * 4, 16, 1, cudaMemcpyHostToDevice)));
    printf("err mallocarray 0: %s\n", cudaGetErrorName(cudaMallocArray(&b, &fd, 0, 0)));
    cudaGetLastError();
    CK(cudaFreeArray(a));
  }
  // ---- 2D float with linear filtering (bilinear weights), half2, int ----
  {
    const int W = 4, H = 4;
    float img[H][W];
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) img[y][x] = (float)((x == 1 && y == 1) ? 1 : 0) + (x == 2 && y == 2 ? 1000.f : 0.f);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, W, H));
    CK(cudaMemcpy2DToArray(a, 0, 0, img, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2d_f1<<<GRID(48 * 48)>>>(t, 0.5f, 1.f / 16 + 1.f / 1024, 0.5f, 1.f / 16 + 1.f / 2048, 48, 48 * 48, g_out);
    if (fetch("bilinear", 48 * 48)) return 1;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));

    __half2 hv[3][5];
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 5; x++) hv[y][x] = __floats2half2_rn(x * 1.5f - y * 0.7f, 1000.f + x * y * 0.125f);
    fd = cudaCreateChannelDescHalf2();
    CK(cudaMallocArray(&a, &fd, 5, 3));
    CK(cudaMemcpy2DToArray(a, 0, 0, hv, 20, 20, 3, cudaMemcpyHostToDevice));
    r = rarray(a);
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2d<<<GRID(16 * 8)>>>(t, 0.2f, 0.37f, 0.1f, 0.41f, 16, 16 * 8, (float4 *)g_out);
    if (fetch("half2_linear", 4 * 16 * 8)) return 1;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));

    short2 sv[4][4];
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 4; x++) sv[y][x] = make_short2(x * 10000 - 15000, y * -11000 + (x == 3 ? -32768 : 0));
    fd = cudaCreateChannelDesc<short2>();
    CK(cudaMallocArray(&a, &fd, 4, 4));
    CK(cudaMemcpy2DToArray(a, 0, 0, sv, 16, 16, 4, cudaMemcpyHostToDevice));
    r = rarray(a);
    td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1);
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2d<<<GRID(12 * 12)>>>(t, -0.1f, 0.1f, -0.05f, 0.1f, 12, 12 * 12, (float4 *)g_out);
    if (fetch("snorm16_linear", 4 * 12 * 12)) return 1;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
  }
  // ---- pitch2D ----
  {
    float *p;
    size_t pitch;
    CK(cudaMallocPitch(&p, &pitch, 7 * 4, 6));
    printf("pitch: %zu\n", pitch);
    float img[6][7];
    for (int y = 0; y < 6; y++)
      for (int x = 0; x < 7; x++) img[y][x] = y * 10.f + x;
    CK(cudaMemcpy2D(p, pitch, img, 28, 28, 6, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = p;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = 7;
    r.res.pitch2D.height = 6;
    r.res.pitch2D.pitchInBytes = pitch;
    for (int filt = 0; filt < 2; filt++) {
      cudaTextureDesc td = tdesc(cudaAddressModeWrap, filt, cudaReadModeElementType, 1);
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &r, &td, NULL));
      k_tex2d_f1<<<GRID(20 * 20)>>>(t, -0.3f, 0.077f, -0.2f, 0.081f, 20, 400, g_out);
      if (fetch(filt ? "pitch2d_linear" : "pitch2d_point", 400)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    r.res.pitch2D.pitchInBytes = 30;
    cudaTextureDesc td = tdesc(cudaAddressModeWrap, 0, cudaReadModeElementType, 1);
    cudaTextureObject_t t;
    printf("err pitch2d bad pitch: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, NULL)));
    cudaGetLastError();
    CK(cudaFree(p));
  }
  // ---- 3D array, trilinear; 3D copies to and from it ----
  {
    const int W = 4, H = 3, D = 3;
    float v[D][H][W];
    for (int z = 0; z < D; z++)
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) v[z][y][x] = x + 10.f * y + 100.f * z;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(W, H, D)));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(v, W * 4, W, H);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(W, H, D);
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    cudaResourceDesc r = rarray(a);
    for (int filt = 0; filt < 2; filt++) {
      cudaTextureDesc td = tdesc(cudaAddressModeClamp, filt, cudaReadModeElementType, 0);
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &r, &td, NULL));
      k_tex3d<<<GRID(10 * 8 * 6)>>>(t, -0.3f, 0.43f, 10, 8, 480, g_out);
      if (fetch(filt ? "tex3d_linear" : "tex3d_point", 480)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    // a sub-box back out
    float box[2][2][3];
    memset(&cp, 0, sizeof cp);
    cp.srcArray = a;
    cp.srcPos = make_cudaPos(1, 1, 1);
    cp.dstPtr = make_cudaPitchedPtr(box, 12, 3, 2);
    cp.extent = make_cudaExtent(3, 2, 2);
    cp.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&cp));
    dump("array3d_box", box, 12);
    cudaChannelFormatDesc qd;
    cudaExtent ex;
    unsigned flags;
    CK(cudaArrayGetInfo(&qd, &ex, &flags, a));
    printf("arrayinfo3d: %zu %zu %zu %u\n", ex.width, ex.height, ex.depth, flags);
    CK(cudaFreeArray(a));
  }
  // ---- layered arrays ----
  {
    float v[3][8];
    for (int l = 0; l < 3; l++)
      for (int x = 0; x < 8; x++) v[l][x] = l * 100.f + x * x;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(8, 0, 3), cudaArrayLayered));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(v, 32, 8, 1);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(8, 1, 3);
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    cudaResourceDesc r = rarray(a);
    cudaTextureDesc td = tdesc(cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex1dlayered<<<GRID(40 * 4)>>>(t, -0.1f, 0.031f, 40, 160, g_out);
    if (fetch("layered1d", 160)) return 1;
    cudaExtent ex;
    cudaChannelFormatDesc qd;
    unsigned flags;
    CK(cudaArrayGetInfo(&qd, &ex, &flags, a));
    printf("arrayinfo layered1d: %zu %zu %zu %u\n", ex.width, ex.height, ex.depth, flags);
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));

    float v2[2][4][4];
    for (int l = 0; l < 2; l++)
      for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) v2[l][y][x] = l * 1000.f + y * 16.f + x;
    CK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 4, 2), cudaArrayLayered));
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(v2, 16, 4, 4);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(4, 4, 2);
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    r = rarray(a);
    td = tdesc(cudaAddressModeMirror, cudaFilterModeLinear, cudaReadModeElementType, 1);
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2dlayered<<<GRID(10 * 10 * 3)>>>(t, -0.35f, 0.17f, 10, 300, g_out);
    if (fetch("layered2d", 300)) return 1;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
  }
  // ---- cubemap ----
  {
    const int S = 4;
    float v[6][S][S];
    for (int f = 0; f < 6; f++)
      for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) v[f][y][x] = f * 100.f + y * 10.f + x;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(S, S, 6), cudaArrayCubemap));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(v, S * 4, S, S);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(S, S, 6);
    cp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&cp));
    const int N = 6 * 25 + 8;
    float4 dirs[N];
    int n = 0;
    for (int f = 0; f < 6; f++)
      for (int i = 0; i < 25; i++) {
        float s = (i % 5) * 0.45f - 0.9f, t = (i / 5) * 0.45f - 0.9f, ma = (f & 1) ? -1.f : 1.f;
        float3 d = f < 2 ? make_float3(ma, t, s) : f < 4 ? make_float3(s, ma, t) : make_float3(t, s, ma);
        dirs[n++] = make_float4(d.x * 2.5f, d.y * 2.5f, d.z * 2.5f, 0);
      }
    float4 extra[8] = {{1, 1, 1, 0}, {-1, 1, 0.5f, 0}, {0.3f, -0.3f, 0.3f, 0}, {0, 0, 0, 0},
                       {1, 0.999f, -1, 0}, {-2, 2, 2, 0}, {0.1f, 0.2f, -0.05f, 0}, {5, -4, 3, 0}};
    for (int i = 0; i < 8; i++) dirs[n++] = extra[i];
    float4 *dd;
    CK(cudaMalloc(&dd, sizeof dirs));
    CK(cudaMemcpy(dd, dirs, sizeof dirs, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    for (int filt = 0; filt < 2; filt++) {
      cudaTextureDesc td = tdesc(cudaAddressModeClamp, filt, cudaReadModeElementType, 1);
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &r, &td, NULL));
      k_cube<<<GRID(N)>>>(t, dd, N, g_out);
      if (fetch(filt ? "cube_linear" : "cube_point", N)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFree(dd));
    CK(cudaFreeArray(a));
  }
  // ---- gather (tld4) ----
  {
    const int W = 4, H = 3;
    float4 img[H][W];
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) img[y][x] = make_float4(x + 10 * y, -x, 100 + y, x * y);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float4>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, W, H, cudaArrayTextureGather));
    CK(cudaMemcpy2DToArray(a, 0, 0, img, W * 16, W * 16, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = rarray(a);
    cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_gather<<<GRID(4 * 10 * 8)>>>(t, -0.7f, 0.53f, 10, 4 * 10 * 8, (float4 *)g_out);
    if (fetch("gather", 16 * 10 * 8)) return 1;
    CK(cudaDestroyTextureObject(t));
    CK(cudaFreeArray(a));
  }
  // ---- mipmapped array: tex2DLod, tex2DGrad ----
  {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CK(cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(16, 8, 0), 4));
    for (unsigned lv = 0; lv < 4; lv++) {
      cudaArray_t la;
      CK(cudaGetMipmappedArrayLevel(&la, mm, lv));
      cudaExtent ex;
      cudaChannelFormatDesc qd;
      unsigned flags;
      CK(cudaArrayGetInfo(&qd, &ex, &flags, la));
      printf("mip level %u: %zu %zu %zu\n", lv, ex.width, ex.height, ex.depth);
      float v[8][16];
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) v[y][x] = lv * 1000.f + y * 20.f + x;
      CK(cudaMemcpy2DToArray(la, 0, 0, v, 64, ex.width * 4, ex.height, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mm;
    for (int mf = 0; mf < 2; mf++) {
      cudaTextureDesc td = tdesc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
      td.mipmapFilterMode = (cudaTextureFilterMode)mf;
      td.maxMipmapLevelClamp = 3;
      cudaTextureObject_t t;
      CK(cudaCreateTextureObject(&t, &r, &td, NULL));
      k_lod<<<GRID(16 * 20)>>>(t, 0.01f, 0.061f, 16, 320, g_out);
      if (fetch(mf ? "lod_linear" : "lod_point", 320)) return 1;
      k_grad<<<GRID(16 * 20)>>>(t, 0.01f, 0.061f, 16, 320, g_out);
      if (fetch(mf ? "grad_linear" : "grad_point", 320)) return 1;
      CK(cudaDestroyTextureObject(t));
    }
    CK(cudaFreeMipmappedArray(mm));
  }
  // ---- surfaces ----
  {
    const int W = 9, H = 4;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &fd, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc r = rarray(a);
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &r));
    k_surf2d_write<<<H, 32>>>(s, W, H);
    k_surf2d_read<<<H + 2, W + 4>>>(s, W, H, g_out);
    if (fetch("surf2d", 2 * (H + 2) * (W + 4))) return 1;
    float back[H][W];
    CK(cudaMemcpy2DFromArray(back, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    dump("surf2d_back", back, W * H);
    // the same array read as a texture
    cudaTextureDesc td = tdesc(cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, NULL));
    k_tex2d_f1<<<GRID(11 * 6)>>>(t, -0.5f, 1.f, -0.5f, 1.f, 11, 66, g_out);
    if (fetch("surf2d_tex", 66)) return 1;
    cudaResourceDesc q;
    memset(&q, 0x55, sizeof q);
    CK(cudaGetSurfaceObjectResourceDesc(&q, s));
    printf("surf resdesc: %d %d\n", (int)q.resType, (int)(q.res.array.array == a));

    cudaArray_t a1s, a3, al, a4, af, ai;
    cudaChannelFormatDesc f16 = cudaCreateChannelDesc<short>(), f2 = cudaCreateChannelDesc<int2>(),
                          f8 = cudaCreateChannelDesc<unsigned char>(), f4 = cudaCreateChannelDesc<uchar4>(),
                          fi = cudaCreateChannelDesc<int>();
    CK(cudaMallocArray(&a1s, &f16, 32, 0, cudaArraySurfaceLoadStore));
    CK(cudaMalloc3DArray(&a3, &f2, make_cudaExtent(4, 2, 4), cudaArraySurfaceLoadStore));
    CK(cudaMalloc3DArray(&al, &f8, make_cudaExtent(4, 2, 4), cudaArraySurfaceLoadStore | cudaArrayLayered));
    CK(cudaMallocArray(&a4, &f4, 8, 4, cudaArraySurfaceLoadStore));
    CK(cudaMallocArray(&af, &fd, 32, 0, cudaArraySurfaceLoadStore));
    CK(cudaMallocArray(&ai, &fi, 32, 0, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s1, s3, sl, s4, sf, si;
    r = rarray(a1s);
    CK(cudaCreateSurfaceObject(&s1, &r));
    r = rarray(a3);
    CK(cudaCreateSurfaceObject(&s3, &r));
    r = rarray(al);
    CK(cudaCreateSurfaceObject(&sl, &r));
    r = rarray(a4);
    CK(cudaCreateSurfaceObject(&s4, &r));
    r = rarray(af);
    CK(cudaCreateSurfaceObject(&sf, &r));
    r = rarray(ai);
    CK(cudaCreateSurfaceObject(&si, &r));
    k_surf_misc<<<1, 32>>>(s1, s3, sl, s4, (int *)g_out);
    if (fetch("surf_misc", 6 * 32)) return 1;
    // queries (txq, suq, istypep) on a 2D texture and the 3D surface
    launch_query(t, s3, (int *)g_out);
    if (fetch("query", 16)) return 1;
    // a surface on an array without the load/store flag
    cudaArray_t nf;
    CK(cudaMallocArray(&nf, &fd, 4, 4));
    r = rarray(nf);
    cudaSurfaceObject_t bad;
    printf("err surface no flag: %s\n", cudaGetErrorName(cudaCreateSurfaceObject(&bad, &r)));
    cudaGetLastError();
    // last: a formatted store the GPU might refuse (its error is sticky)
    launch_sustp(s4, sf, si);
    cudaError_t le = cudaGetLastError();
    printf("sustp: %s %s\n", cudaGetErrorName(le), cudaGetErrorName(cudaDeviceSynchronize()));
    uint32_t b4[32], bf[32], bi[32];
    CK(cudaMemcpy2DFromArray(b4, 32, a4, 0, 0, 32, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromArray(bf, af, 0, 0, 128, cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromArray(bi, ai, 0, 0, 128, cudaMemcpyDeviceToHost));
    dump("sustp_rgba8", b4, 32);
    dump("sustp_f32", bf, 32);
    dump("sustp_s32", bi, 32);
    CK(cudaDestroyTextureObject(t));
    CK(cudaDestroySurfaceObject(s));
    CK(cudaDestroySurfaceObject(s1));
    CK(cudaDestroySurfaceObject(s3));
    CK(cudaDestroySurfaceObject(sl));
    CK(cudaDestroySurfaceObject(s4));
    CK(cudaDestroySurfaceObject(sf));
    CK(cudaDestroySurfaceObject(si));
    CK(cudaFreeArray(a));
    CK(cudaFreeArray(a1s));
    CK(cudaFreeArray(a3));
    CK(cudaFreeArray(al));
    CK(cudaFreeArray(a4));
    CK(cudaFreeArray(af));
    CK(cudaFreeArray(ai));
    CK(cudaFreeArray(nf));
  }
  CK(cudaDestroyTextureObject(t1));
  CK(cudaFreeArray(a1));
  printf("done\n");
  return 0;
}
