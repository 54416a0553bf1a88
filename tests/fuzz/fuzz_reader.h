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

#endif
