/* fuzz_reader.h: how the runtime's fuzz targets read their input: a cursor
 * over the bytes, and little-endian values taken from it. Past the end of
 * the input every byte reads as zero, so a short input still makes whole
 * calls. */
#ifndef FUZZ_READER_H
#define FUZZ_READER_H
#include <stddef.h>
#include <stdint.h>

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static inline uint64_t take(reader *r, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint64_t)(r->n ? (r->n--, *r->p++) : 0) << (8 * i);
  return v;
}

/* A size: SIZE_MAX - v when the selector byte is below huge (overflow
 * checks), a power of two below pow2, else v % big or v % small. */
static inline size_t take_size(reader *r, int huge, int pow2, uint64_t big, uint64_t small) {
  uint8_t sel = (uint8_t)take(r, 1);
  uint64_t v = take(r, 2);
  if (sel < huge) return SIZE_MAX - v;
  if (sel < pow2) return (size_t)1 << (v % 64);
  return sel & 1 ? v % big : v % small;
}

#endif
