/* crash_main.c: a CUDA host program, in C, for tests/cli_harden.sh: it
 * registers the PTX file argv[2] as nvcc's host code would (a fatbinary
 * with one PTX entry), launches its kernel argv[3] (default missingBarrier,
 * a shared-memory race, tests/cli/race.cu; it takes one int pointer) on
 * 64 threads without synchronising, and then ends as argv[1] says: exit
 * (return from main), abort, segv (a null write), term (SIGTERM to itself)
 * or sync (synchronise, print its result, then return).
 * Built against build/runtime/libcudart.so.13 (mk/runtime_harden.mk). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../runtime/cuda_abi.h"

static char stub; /* the kernel's handle: only its address matters */

static uint8_t *fatbin_of(const char *ptx, size_t len) {
  size_t padded = (len + 1 + 7) / 8 * 8;
  uint8_t *f = calloc(1, 16 + 64 + padded);
  uint32_t magic = 0xBA55ED50u, u32;
  uint16_t u16;
  uint64_t u64;
  memcpy(f, &magic, 4);
  u16 = 1, memcpy(f + 4, &u16, 2);
  u16 = 16, memcpy(f + 6, &u16, 2);
  u64 = 64 + padded, memcpy(f + 8, &u64, 8);
  uint8_t *e = f + 16;
  u16 = 1, memcpy(e, &u16, 2);        /* PTX */
  u16 = 0x101, memcpy(e + 2, &u16, 2);
  u32 = 64, memcpy(e + 4, &u32, 4);   /* entry header size */
  u64 = padded, memcpy(e + 8, &u64, 8);
  u16 = 9, memcpy(e + 26, &u16, 2);   /* PTX ISA 9.0 */
  u32 = 90, memcpy(e + 28, &u32, 4);  /* sm_90 */
  u64 = 0x11, memcpy(e + 40, &u64, 8);
  memcpy(e + 64, ptx, len);
  return f;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: crash_main exit|abort|segv|term|sync FILE.ptx [KERNEL]\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "rb");
  if (!f) return 2;
  static char ptx[1 << 16];
  size_t len = fread(ptx, 1, sizeof ptx - 1, f);
  fclose(f);
  struct { int magic, version; const void *data; void *name; } wrap = {0x466243b1, 1, fatbin_of(ptx, len), NULL};
  void **h = __cudaRegisterFatBinary(&wrap);
  const char *kernel = argc > 3 ? argv[3] : "missingBarrier";
  __cudaRegisterFunction(h, &stub, (char *)kernel, kernel, -1, NULL, NULL, NULL, NULL, NULL);
  __cudaRegisterFatBinaryEnd(h);
  int *d = NULL;
  if (cudaMalloc((void **)&d, 64 * sizeof(int)) != cudaSuccess || cudaMemset(d, 0, 64 * sizeof(int)) != cudaSuccess)
    return 3;
  void *args[] = {&d};
  if (cudaLaunchKernel(&stub, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args, 0, NULL) != cudaSuccess) return 4;
  printf("launched\n");
  fflush(stdout);
  if (!strcmp(argv[1], "abort")) abort();
  volatile uintptr_t nowhere = 16; /* no page there */
  if (!strcmp(argv[1], "segv")) *(volatile int *)nowhere = 1;
  if (!strcmp(argv[1], "term")) raise(SIGTERM);
  if (!strcmp(argv[1], "sync")) printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
