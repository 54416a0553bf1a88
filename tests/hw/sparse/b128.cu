// b128.cu: .b128 registers (PTX 8.3+, sm_90 for the atomics): ld/st
// (global, shared, .nc, ldu), mov between a .b128 and two .b64 halves,
// atom.cas.b128 (a matching and a failing compare) and atom.exch.b128 on
// global and shared memory. One warp; lane l writes 20 words at out[20l]; the global
// array and the shared one (after the exchange) are printed too.
//   ./b128   prints "l W0 .. W19" per lane and the global array after
#include <cstdio>
#include <cstdint>

__global__ void b128_k(const uint64_t *in, uint64_t *g, uint32_t *out, uint64_t *sh) {
  __shared__ __align__(16) uint64_t s[64];
  int l = threadIdx.x;
  s[2 * l] = 0x1111000000000000ull + l;
  s[2 * l + 1] = 0x2222000000000000ull + l;
  __syncthreads();
  uint64_t a, b, c, d, e, f, o0, o1, x0, x1;
  // global load, split, modify, join, global store
  asm volatile("{ .reg .b128 q; ld.global.b128 q, [%2]; mov.b128 {%0, %1}, q; }" : "=l"(a), "=l"(b) : "l"(in + 2 * l));
  a += 1; b ^= 0xff;
  asm volatile("{ .reg .b128 q; mov.b128 q, {%1, %2}; st.global.b128 [%0], q; }" :: "l"(g + 2 * l), "l"(a), "l"(b) : "memory");
  // shared load of the neighbour's pair (lane l+1)
  uint32_t sa = (uint32_t)__cvta_generic_to_shared(s + 2 * ((l + 1) & 31));
  asm volatile("{ .reg .b128 q; ld.shared.b128 q, [%2]; mov.b128 {%0, %1}, q; }" : "=l"(c), "=l"(d) : "r"(sa));
  // non-coherent and ldu loads
  asm volatile("{ .reg .b128 q; ld.global.nc.b128 q, [%2]; mov.b128 {%0, %1}, q; }" : "=l"(e), "=l"(f) : "l"(in + 2 * ((l + 3) & 31)));
  uint64_t u0, u1;
  asm volatile("{ .reg .b128 q; ldu.global.b128 q, [%2]; mov.b128 {%0, %1}, q; }" : "=l"(u0), "=l"(u1) : "l"(in + 2));
  __syncthreads();
  // atom.cas on global: even lanes compare with the value stored above
  // (succeeds), odd lanes with a wrong one (fails); new value (l, ~l)
  uint64_t c0 = (l & 1) ? a + 7 : a, c1 = b, n0 = l, n1 = ~(uint64_t)l;
  asm volatile("{ .reg .b128 q, cm, nv; mov.b128 cm, {%3, %4}; mov.b128 nv, {%5, %6};"
               " atom.global.cas.b128 q, [%2], cm, nv; mov.b128 {%0, %1}, q; }"
               : "=l"(o0), "=l"(o1) : "l"(g + 2 * l), "l"(c0), "l"(c1), "l"(n0), "l"(n1) : "memory");
  // atom.exch on shared: own pair, new value (l << 32, 5)
  uint32_t so = (uint32_t)__cvta_generic_to_shared(s + 2 * l);
  uint64_t m0 = (uint64_t)l << 32, m1 = 5;
  __syncthreads();
  asm volatile("{ .reg .b128 q, nv; mov.b128 nv, {%3, %4}; atom.shared.exch.b128 q, [%2], nv; mov.b128 {%0, %1}, q; }"
               : "=l"(x0), "=l"(x1) : "r"(so), "l"(m0), "l"(m1) : "memory");
  __syncthreads();
  sh[2 * l] = s[2 * l];
  sh[2 * l + 1] = s[2 * l + 1];
  uint32_t *o = out + 20 * l;
  uint64_t v[10] = {c, d, e, f, u0, u1, o0, o1, x0, x1};
  for (int i = 0; i < 10; i++) { o[2 * i] = (uint32_t)v[i]; o[2 * i + 1] = (uint32_t)(v[i] >> 32); }
}

int main() {
  uint64_t h[64];
  for (int i = 0; i < 64; i++) h[i] = 0x0123456789abcdefull * (i + 1);
  uint64_t *in, *g, *sh;
  uint32_t *out;
  cudaMalloc(&in, sizeof h); cudaMalloc(&g, sizeof h); cudaMalloc(&sh, sizeof h); cudaMalloc(&out, 32 * 20 * 4);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  b128_k<<<1, 32>>>(in, g, out, sh);
  cudaError_t e = cudaDeviceSynchronize();
  printf("status %s\n", e ? cudaGetErrorString(e) : "ok");
  uint32_t w[32 * 20];
  uint64_t gh[64];
  cudaMemcpy(w, out, sizeof w, cudaMemcpyDeviceToHost);
  cudaMemcpy(gh, g, sizeof gh, cudaMemcpyDeviceToHost);
  uint64_t shh[64];
  cudaMemcpy(shh, sh, sizeof shh, cudaMemcpyDeviceToHost);
  for (int l = 0; l < 32; l++) {
    printf("%d", l);
    for (int i = 0; i < 20; i++) printf(" %08x", w[20 * l + i]);
    printf("\n");
  }
  for (int i = 0; i < 64; i++) printf("g %d %016llx\n", i, (unsigned long long)gh[i]);
  for (int i = 0; i < 64; i++) printf("s %d %016llx\n", i, (unsigned long long)shh[i]);
  return 0;
}
