/* memory_edges.cu: the edges of the CUDA runtime's memory calls that
 * runtime/memory.c implements: flag and direction checks, ranges that end
 * exactly at an allocation's end, empty 2D fills, 1-byte copies, pitches,
 * what fresh memory holds, and the attributes of unregistered memory. Its
 * output on an H200 is the expected output on smemu (tests/runtime). */
#include <cstdio>
#include <cstring>

__device__ int sym[4];

#define SHOW(label, call) printf("%s: %s\n", label, cudaGetErrorName(call)), cudaGetLastError()

int main(void)
{
  /* fresh memory */
  const size_t big = 1 << 20;
  unsigned char *d, *h = (unsigned char *)malloc(big);
  SHOW("malloc 1 MiB", cudaMalloc(&d, big));
  memset(h, 0xab, big);
  SHOW("copy back", cudaMemcpy(h, d, big, cudaMemcpyDeviceToHost));
  size_t nonzero = 0;
  for (size_t i = 0; i < big; i++) nonzero += h[i] != 0;
  printf("fresh device memory: %zu nonzero bytes\n", nonzero);

  /* flags */
  void *m, *p;
  SHOW("managed, flags 4", cudaMallocManaged(&m, 64, 4));
  SHOW("managed, flags 3", cudaMallocManaged(&m, 64, 3));
  SHOW("hostalloc, flags 8", cudaHostAlloc(&p, 64, 8));
  SHOW("hostalloc, flags 16", cudaHostAlloc(&p, 64, 16));
  SHOW("hostalloc, portable", cudaHostAlloc(&p, 64, cudaHostAllocPortable));
  unsigned fl = 12345;
  SHOW("hostgetflags", cudaHostGetFlags(&fl, p));
  printf("flags of a portable allocation: %u\n", fl);
  SHOW("hostregister of device memory", cudaHostRegister(d, 64, 0));

  /* attributes of memory nobody registered */
  int local = 0;
  cudaPointerAttributes a;
  SHOW("attributes of the stack", cudaPointerGetAttributes(&a, &local));
  printf("stack: type %d device %d\n", (int)a.type, a.device);

  /* pitches */
  size_t widths[] = {1, 100, 512, 513, 1000};
  for (int i = 0; i < 5; i++) {
    void *q;
    size_t pitch = 0;
    cudaMallocPitch(&q, &pitch, widths[i], 3);
    printf("pitch for width %zu: %zu\n", widths[i], pitch);
    cudaFree(q);
  }

  /* directions */
  SHOW("memcpy kind 5", cudaMemcpy(h, d, 4, (cudaMemcpyKind)5));
  SHOW("memcpy kind 4 (default)", cudaMemcpy(h, d, 4, cudaMemcpyDefault));
  SHOW("d2d into host memory", cudaMemcpy(h, d, 4, cudaMemcpyDeviceToDevice));
  SHOW("d2d from host memory", cudaMemcpy(d, h, 4, cudaMemcpyDeviceToDevice));
  SHOW("to symbol, host to host", cudaMemcpyToSymbol(sym, h, 4, 0, cudaMemcpyHostToHost));
  SHOW("to symbol, device to host", cudaMemcpyToSymbol(sym, h, 4, 0, cudaMemcpyDeviceToHost));
  SHOW("from symbol, host to device", cudaMemcpyFromSymbol(h, sym, 4, 0, cudaMemcpyHostToDevice));

  /* a 1-byte copy */
  unsigned char one = 0x5a, back = 0;
  SHOW("1 byte up", cudaMemcpy(d + 7, &one, 1, cudaMemcpyHostToDevice));
  SHOW("1 byte down", cudaMemcpy(&back, d + 7, 1, cudaMemcpyDeviceToHost));
  printf("1 byte: %02x\n", back);

  /* 2D ranges that end exactly at the allocation's end, and past it */
  unsigned char *e;
  SHOW("malloc 1000", cudaMalloc(&e, 1000));
  /* rows of 100 bytes at pitch 300: the last row ends at 2*300+100 = 700 */
  SHOW("2D to device ending at 700 of 1000", cudaMemcpy2D(e + 300, 300, h, 100, 100, 3, cudaMemcpyHostToDevice));
  SHOW("2D to device ending at 1000", cudaMemcpy2D(e + 600, 300, h, 100, 100, 2, cudaMemcpyHostToDevice));
  SHOW("2D to device ending at 1001", cudaMemcpy2D(e + 601, 300, h, 100, 100, 2, cudaMemcpyHostToDevice));
  SHOW("2D from device ending at 1000", cudaMemcpy2D(h, 100, e + 600, 300, 100, 2, cudaMemcpyDeviceToHost));
  SHOW("2D with spitch below the width", cudaMemcpy2D(h, 100, e, 50, 100, 2, cudaMemcpyDeviceToHost));

  /* fills */
  SHOW("memset2D width above pitch", cudaMemset2D(e, 10, 0, 20, 2));
  SHOW("memset2D height 0", cudaMemset2D(e, 100, 0, 50, 0));
  SHOW("memset2D width 0", cudaMemset2D(e, 100, 0, 0, 5));
  SHOW("memset2D rows", cudaMemset2D(e, 100, 0x11, 10, 3));
  SHOW("read back", cudaMemcpy(h, e, 300, cudaMemcpyDeviceToHost));
  printf("memset2D: %02x %02x %02x %02x %02x\n", h[0], h[9], h[10], h[100], h[209]);
  SHOW("memset ending at 1000", cudaMemset(e + 900, 0, 100));
  SHOW("memset ending at 1001", cudaMemset(e + 901, 0, 100));
  SHOW("memcpy ending at 1000", cudaMemcpy(e + 996, h, 4, cudaMemcpyHostToDevice));
  SHOW("memcpy ending at 1001", cudaMemcpy(e + 997, h, 4, cudaMemcpyHostToDevice));
  printf("done\n");
  return 0;
}
