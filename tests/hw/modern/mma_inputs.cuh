// mma_inputs.cuh: the hashed fragment inputs of the mma recordings
// (mma.cu here, tests/hw/sparse/sp.cu): an integer hash, and random value
// bits of each element type; `sp` non-zero: maybe a special value (zeros,
// infinities, NaN, subnormals, the largest finite values).
#ifndef MMA_INPUTS_CUH
#define MMA_INPUTS_CUH
#include <cstdint>

__device__ __forceinline__ uint32_t hsh(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
__device__ uint32_t rnd_f16(uint32_t h, int sp) {
  if (sp && (h >> 28) == 0) {
    const uint16_t s[8] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x03ff};
    return s[(h >> 24) & 7];
  }
  return (h & 0x8000) | ((10 + (h >> 16) % 11) << 10) | ((h >> 3) & 0x3ff);
}
__device__ uint32_t rnd_bf16(uint32_t h, int sp) {
  if (sp && (h >> 28) == 0) {
    const uint16_t s[8] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x7f7f, 0x007f};
    return s[(h >> 24) & 7];
  }
  return (h & 0x8000) | ((120 + (h >> 16) % 16) << 7) | ((h >> 3) & 0x7f);
}
__device__ uint32_t rnd_f32(uint32_t h, uint32_t h2, int sp) {
  if (sp && (h >> 28) == 0) {
    const uint32_t s[8] = {0x0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x1u, 0x7f7fffffu, 0x007fffffu};
    return s[(h >> 24) & 7];
  }
  return (h & 0x80000000u) | ((120 + (h >> 16) % 16) << 23) | (h2 & 0x7fffffu);
}
__device__ uint64_t rnd_f64(uint32_t h, uint32_t h2, int sp) {
  if (sp && (h >> 28) == 0) {
    const uint64_t s[8] = {0x0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                           0x7ff8000000000000ull, 0x1ull, 0x7fefffffffffffffull, 0x000fffffffffffffull};
    return s[(h >> 24) & 7];
  }
  return ((uint64_t)(h & 0x80000000u) << 32) | ((uint64_t)(1015 + (h >> 16) % 16) << 52) |
         ((uint64_t)(h & 0xfffffu) << 32) | h2;
}

#endif
