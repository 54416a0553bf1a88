// textures_query.cu: a kernel of textures.cu in a module of its own (see there).
#include <cuda_runtime.h>

// queries on texture and surface objects
__global__ void k_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out) {
  int r[16];
  asm("txq.width.b32 %0, [%1];" : "=r"(r[0]) : "l"(t));
  asm("txq.height.b32 %0, [%1];" : "=r"(r[1]) : "l"(t));
  asm("txq.depth.b32 %0, [%1];" : "=r"(r[2]) : "l"(t));
  asm("txq.channel_data_type.b32 %0, [%1];" : "=r"(r[3]) : "l"(t));
  asm("txq.channel_order.b32 %0, [%1];" : "=r"(r[4]) : "l"(t));
  asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(r[5]) : "l"(t));
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r[6]) : "l"(t));
  asm("txq.array_size.b32 %0, [%1];" : "=r"(r[7]) : "l"(t));
  asm("suq.width.b32 %0, [%1];" : "=r"(r[8]) : "l"(s));
  asm("suq.height.b32 %0, [%1];" : "=r"(r[9]) : "l"(s));
  asm("suq.depth.b32 %0, [%1];" : "=r"(r[10]) : "l"(s));
  asm("suq.channel_data_type.b32 %0, [%1];" : "=r"(r[11]) : "l"(s));
  asm("suq.channel_order.b32 %0, [%1];" : "=r"(r[12]) : "l"(s));
  asm("suq.array_size.b32 %0, [%1];" : "=r"(r[13]) : "l"(s));
  asm("{ .reg .pred p; istypep.texref p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r[14]) : "l"(t));
  asm("{ .reg .pred p; istypep.surfref p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r[15]) : "l"(s));
  for (int i = 0; i < 16; i++) out[threadIdx.x * 16 + i] = r[i];
}


void launch_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out) { k_query<<<1, 1>>>(t, s, out); }
