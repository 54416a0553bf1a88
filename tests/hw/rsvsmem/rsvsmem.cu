// rsvsmem.cu: what a GPU gives for the reserved-shared-memory registers
// (%reserved_smem_offset_begin/_end/_cap/_0/_1) with static and dynamic
// shared memory of several sizes, and the first words of the reserved
// area as a fresh block sees them. One line per case; record.sh runs it.
#include <cstdio>

__device__ unsigned sreg_begin() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); return v; }
__device__ unsigned sreg_end() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v)); return v; }
__device__ unsigned sreg_cap() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v)); return v; }
__device__ unsigned sreg_off0() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v)); return v; }
__device__ unsigned sreg_off1() { unsigned v; asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v)); return v; }

// out: begin, end, cap, off0, off1, address of the static array, of the
// dynamic one, then the first 8 reserved words at off1 (before any write)
template <int S>
__global__ void probe(unsigned *out) {
  __shared__ volatile unsigned char st[S];
  extern __shared__ unsigned char dyn[];
  st[threadIdx.x % S] = 1;
  if (threadIdx.x == 0) {
    out[0] = sreg_begin();
    out[1] = sreg_end();
    out[2] = sreg_cap();
    out[3] = sreg_off0();
    out[4] = sreg_off1();
    out[5] = (unsigned)__cvta_generic_to_shared((const void *)st);
    out[6] = (unsigned)__cvta_generic_to_shared(dyn);
    for (int i = 0; i < 8; i++) {
      unsigned v, a = sreg_off1() + 4 * i;
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
      out[7 + i] = v;
    }
  }
}

template <int S>
static void one(unsigned *d, int dyn) {
  unsigned h[15];
  cudaMemset(d, 0xff, sizeof h);
  probe<S><<<1, 64, dyn>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("static=%d dynamic=%d: %s begin=%u end=%u cap=%u off0=%u off1=%u static_at=0x%x dyn_at=0x%x words=", S, dyn,
         cudaGetErrorName(e), h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
  for (int i = 0; i < 8; i++) printf("%s%x", i ? "," : "", h[7 + i]);
  printf("\n");
}

int main() {
  unsigned *d;
  cudaMalloc(&d, 64);
  one<4>(d, 0);
  one<4>(d, 256);
  one<1000>(d, 0);
  one<1000>(d, 4096);
  one<8192>(d, 100);
  return 0;
}
