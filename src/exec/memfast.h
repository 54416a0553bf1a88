/* memfast.h: the fast paths of memfast.c (global vector loads and stores,
 * uniform parameter loads), the generic handlers of mem.c they fall back
 * to, and the element load both use. */
#ifndef SMEMU_MEMFAST_H
#define SMEMU_MEMFAST_H

#include "exec/exec.h"
#include <string.h>

/* An element of size bytes at p, sign- or zero-extended to 64 bits. */
static inline uint64_t load_bytes(const uint8_t *p, int size, int sgn) {
  switch (size) {
  case 1:
    return sgn ? (uint64_t)(int64_t)(int8_t)*p : *p;
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return sgn ? (uint64_t)(int64_t)(int16_t)v : v;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, p, 4);
    return sgn ? (uint64_t)(int64_t)(int32_t)v : v;
  }
  default: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}

/* mem.c: any space, element size and vector width; every lane checked */
void ld_gen(warp *w, const insn *in, uint32_t m);
void st_gen(warp *w, const insn *in, uint32_t m);

/* ld.global / st.global of 2 or 4 elements of 4 or 8 bytes */
void ld_global_vec(warp *w, const insn *in, uint32_t m);
void st_global_vec(warp *w, const insn *in, uint32_t m);

/* ld.param of 1 to 4 elements, every active lane at one address (ld_gen
 * tries it first); 0 where the generic handler must run it */
int ld_param_fast(warp *w, const insn *in, uint32_t m);

#endif
