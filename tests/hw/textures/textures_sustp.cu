// textures_sustp.cu: a kernel of textures.cu in a module of its own (see there).
#include <cuda_runtime.h>

// formatted surface store (sust.p): the value is converted to the format
__global__ void k_sustp(cudaSurfaceObject_t s, cudaSurfaceObject_t sf, cudaSurfaceObject_t si) {
  int x = threadIdx.x;
  float f = x * 0.0625f - 0.5f;
  asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x % 8), "r"(x / 8),
               "f"(f), "f"(f * 2.f), "f"(1.f - f), "f"(0.25f));
  asm volatile("sust.p.1d.b32.trap [%0, {%1}], {%2};" ::"l"(sf), "r"(x), "f"(f * 3.f));
  asm volatile("sust.p.1d.b32.trap [%0, {%1}], {%2};" ::"l"(si), "r"(x), "r"(x * 1000 - 7000));
}

void launch_sustp(cudaSurfaceObject_t s, cudaSurfaceObject_t sf, cudaSurfaceObject_t si) {
  k_sustp<<<1, 32>>>(s, sf, si);
}
