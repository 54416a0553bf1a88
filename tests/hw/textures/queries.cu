// queries.cu: which txq/suq/istypep forms an H200 accepts on texture and
// surface objects, and what they return: one PTX module per instruction,
// loaded with cuModuleLoadData (the driver's PTX JIT) and launched.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
static const char *insns[] = {
  "txq.width.b32 %r1, [%rd1];", "txq.height.b32 %r1, [%rd1];", "txq.depth.b32 %r1, [%rd1];",
  "txq.channel_data_type.b32 %r1, [%rd1];", "txq.channel_order.b32 %r1, [%rd1];",
  "txq.normalized_coords.b32 %r1, [%rd1];", "txq.num_mipmap_levels.b32 %r1, [%rd1];",
  "txq.array_size.b32 %r1, [%rd1];", "txq.num_samples.b32 %r1, [%rd1];",
  "txq.filter_mode.b32 %r1, [%rd1];", "txq.addr_mode_0.b32 %r1, [%rd1];",
  "suq.width.b32 %r1, [%rd2];", "suq.height.b32 %r1, [%rd2];", "suq.depth.b32 %r1, [%rd2];",
  "suq.channel_data_type.b32 %r1, [%rd2];", "suq.channel_order.b32 %r1, [%rd2];",
  "suq.array_size.b32 %r1, [%rd2];", "suq.memory_layout.b32 %r1, [%rd2];",
  "istypep.texref %p1, %rd1; selp.u32 %r1, 1, 0, %p1;", "istypep.surfref %p1, %rd2; selp.u32 %r1, 1, 0, %p1;",
  "istypep.samplerref %p1, %rd1; selp.u32 %r1, 1, 0, %p1;", "istypep.surfref %p1, %rd1; selp.u32 %r1, 1, 0, %p1;",
  "istypep.texref %p1, %rd2; selp.u32 %r1, 1, 0, %p1;",
};
int main() {
  cudaFree(0);
  // a 6x5 float array (2D, normalized coords, linear) and a 3x2x4 int2 3D surface
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>(), f2 = cudaCreateChannelDesc<int2>();
  cudaArray_t a, s3;
  cudaMallocArray(&a, &fd, 6, 5);
  cudaMalloc3DArray(&s3, &f2, make_cudaExtent(3, 2, 4), cudaArraySurfaceLoadStore);
  cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaTextureDesc td = {}; td.filterMode = cudaFilterModeLinear; td.normalizedCoords = 1;
  td.addressMode[0] = cudaAddressModeMirror;
  cudaTextureObject_t t; cudaSurfaceObject_t s;
  printf("create tex %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, NULL)));
  r.res.array.array = s3;
  printf("create surf %s\n", cudaGetErrorName(cudaCreateSurfaceObject(&s, &r)));
  int *d; cudaMalloc(&d, 64);
  for (unsigned i = 0; i < sizeof insns / sizeof insns[0]; i++) {
    char ptx[2048];
    snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 o)\n{\n"
             ".reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n.reg .pred %%p<2>;\n"
             "ld.param.u64 %%rd1, [t];\nld.param.u64 %%rd2, [s];\nld.param.u64 %%rd3, [o];\n"
             "mov.u32 %%r1, 0x55;\n%s\nst.global.u32 [%%rd3], %%r1;\nret;\n}\n", insns[i]);
    CUmodule m; CUfunction f;
    char log[1024] = ""; CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *ov[2] = {log, (void *)(size_t)sizeof log};
    CUresult e = cuModuleLoadDataEx(&m, ptx, 2, o, ov);
    if (e) { const char *n; cuGetErrorName(e, &n); printf("%-45s load %s %s\n", insns[i], n, log); continue; }
    cuModuleGetFunction(&f, m, "k");
    void *args[] = {&t, &s, &d};
    e = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0);
    cudaError_t se = cudaDeviceSynchronize();
    int v = -1; cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost);
    printf("%-45s launch %d sync %s value 0x%x\n", insns[i], (int)e, cudaGetErrorName(se), v);
    cuModuleUnload(m);
  }
  return 0;
}
