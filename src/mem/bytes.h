/* bytes.h: what the loaders of binary and text inputs share: little-endian
 * fields (rd16/rd32/rd64; the host is little-endian, as the GPU's images
 * are) and a whole file read into memory (file_read, bytes.c). */
#ifndef SMEMU_BYTES_H
#define SMEMU_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t rd16(const void *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}
static inline uint32_t rd32(const void *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t rd64(const void *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Why file_read returned what it did. */
enum { FILE_OK, FILE_NO_OPEN, FILE_NO_READ, FILE_NO_MEMORY };

/* The bytes of the file at path in a malloc'd buffer with a NUL after them
 * (not counted in *len). NULL when the file does not open (*err =
 * FILE_NO_OPEN) or memory runs out (FILE_NO_MEMORY); after a read error
 * (FILE_NO_READ) the buffer holds what was read before it. */
char *file_read(const char *path, size_t *len, int *err);

#endif
