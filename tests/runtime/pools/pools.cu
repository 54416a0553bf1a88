// pools.cu: memory pools and stream-ordered allocation, as a program uses
// them. Every kernel result is checked against arithmetic (fill(i) = 3i + k,
// sums of such series); the pool figures (reserved and used bytes, reuse of
// addresses, error codes) are printed and compared with an H100 recording
// (pools.expected, tests/runtime/pools/record.sh).
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

static int bad;
#define CK(x) check((x), #x, __LINE__)
static cudaError_t check(cudaError_t e, const char *what, int line) {
  if (e != cudaSuccess) {
    printf("line %d: %s: %s\n", line, what, cudaGetErrorName(e));
    bad = 1;
  }
  return e;
}
// an expected error: prints its name
#define ERR(x) printf("%-44s %s\n", #x, cudaGetErrorName(x)), cudaGetLastError()

__global__ void fill(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i + k;
}
__global__ void add(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += a[i];
}

static unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  unsigned long long v = 0;
  int iv = 0;
  if (a <= cudaMemPoolReuseAllowInternalDependencies) {
    CK(cudaMemPoolGetAttribute(pool, a, &iv));
    return (unsigned long long)iv;
  }
  CK(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}
static void show(const char *when, cudaMemPool_t pool) {
  printf("%-28s reserved %llu high %llu used %llu high %llu\n", when, attr(pool, cudaMemPoolAttrReservedMemCurrent),
         attr(pool, cudaMemPoolAttrReservedMemHigh), attr(pool, cudaMemPoolAttrUsedMemCurrent),
         attr(pool, cudaMemPoolAttrUsedMemHigh));
}
// p[i] == 3i + k for i < n
static void expect_fill(const int *d, int n, int k, const char *what) {
  static int h[1 << 16];
  CK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h[i] != 3 * i + k) {
      printf("%s: [%d] = %d, want %d\n", what, i, h[i], 3 * i + k);
      bad = 1;
      return;
    }
  printf("%s: ok\n", what);
}

int main() {
  const int n = 1000;
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreate(&s2));
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  printf("pools supported %d\n", supported);

  // the default pool is the current one
  cudaMemPool_t def, cur;
  CK(cudaDeviceGetDefaultMemPool(&def, 0));
  CK(cudaDeviceGetMemPool(&cur, 0));
  printf("current is default %d\n", cur == def);
  printf("threshold %llu follow %llu opportunistic %llu internal %llu\n", attr(def, cudaMemPoolAttrReleaseThreshold),
         attr(def, cudaMemPoolReuseFollowEventDependencies), attr(def, cudaMemPoolReuseAllowOpportunistic),
         attr(def, cudaMemPoolReuseAllowInternalDependencies));
  show("fresh", def);

  // one allocation, a kernel, the result
  int *a, *b, *c;
  CK(cudaMallocAsync((void **)&a, n * sizeof(int), s1));
  show("after 4000 bytes", def);
  fill<<<(n + 255) / 256, 256, 0, s1>>>(a, n, 7);
  expect_fill(a, n, 7, "fill a");

  // freed and allocated again on the same stream: the same memory
  CK(cudaFreeAsync(a, s1));
  CK(cudaMallocAsync((void **)&b, n * sizeof(int), s1));
  printf("same stream reuses %d\n", b == a);
  fill<<<(n + 255) / 256, 256, 0, s1>>>(b, n, 11);
  // freed on s1, allocated on s2 after an event: reuse follows the event
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  CK(cudaFreeAsync(b, s1));
  CK(cudaEventRecord(ev, s1));
  CK(cudaStreamWaitEvent(s2, ev, 0));
  CK(cudaMallocAsync((void **)&c, n * sizeof(int), s2));
  printf("other stream after event reuses %d\n", c == b);
  fill<<<(n + 255) / 256, 256, 0, s2>>>(c, n, 13);
  expect_fill(c, n, 13, "fill c");
  CK(cudaFreeAsync(c, s2));
  CK(cudaStreamSynchronize(s2));
  show("freed, synchronized", def);

  // a release threshold keeps the memory after a synchronisation
  unsigned long long big = ~0ull, zero = 0;
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &big));
  int *d[4];
  for (int i = 0; i < 4; i++) CK(cudaMallocAsync((void **)&d[i], (i + 1) << 20, s1));
  show("4 allocations, 10 MiB", def);
  for (int i = 0; i < 4; i++) fill<<<16, 256, 0, s1>>>(d[i], 4096, i);
  for (int i = 0; i < 4; i++) expect_fill(d[i], 4096, i, i == 0 ? "d0" : i == 1 ? "d1" : i == 2 ? "d2" : "d3");
  for (int i = 0; i < 4; i++) CK(cudaFreeAsync(d[i], s1));
  CK(cudaDeviceSynchronize());
  show("freed, kept", def);
  CK(cudaMemPoolTrimTo(def, 0));
  show("trimmed to 0", def);
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &zero));
  // the high watermarks reset to the current figures, and only to zero
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemHigh, &zero));
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
  show("high marks reset", def);
  unsigned long long one = 1;
  ERR(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one));
  ERR(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemCurrent, &zero));
  int on = 0;
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &on));
  printf("opportunistic now %llu\n", attr(def, cudaMemPoolReuseAllowOpportunistic));
  on = 1;
  CK(cudaMemPoolSetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &on));

  // a pool of one's own
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CK(cudaMemPoolCreate(&mine, &props));
  printf("created is default %d\n", mine == def);
  show("created", mine);
  int *e, *f;
  CK(cudaMallocFromPoolAsync((void **)&e, n * sizeof(int), mine, s1));
  show("created, 4000 bytes", mine);
  fill<<<(n + 255) / 256, 256, 0, s1>>>(e, n, 5);
  // made current: cudaMallocAsync takes from it
  CK(cudaDeviceSetMemPool(0, mine));
  CK(cudaDeviceGetMemPool(&cur, 0));
  printf("current is mine %d\n", cur == mine);
  CK(cudaMallocAsync((void **)&f, n * sizeof(int), s2));
  show("mine, two allocations", mine);
  show("default meanwhile", def);
  fill<<<(n + 255) / 256, 256, 0, s2>>>(f, n, 1);
  CK(cudaStreamSynchronize(s2));
  add<<<(n + 255) / 256, 256, 0, s1>>>(f, e, n); // e = 6i + 6
  {
    static int h[n];
    CK(cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    // sum of 6i + 6 for i < 1000: 6 * 999 * 1000 / 2 + 6000
    printf("sum e %lld want %lld\n", sum, 6ll * 999 * 1000 / 2 + 6000);
    if (sum != 6ll * 999 * 1000 / 2 + 6000) bad = 1;
  }
  // pointers of a pool are device memory
  cudaPointerAttributes pa;
  CK(cudaPointerGetAttributes(&pa, f));
  printf("pool pointer type %d device %d\n", (int)pa.type, pa.device);
  CK(cudaFreeAsync(e, s1));
  CK(cudaFree(f)); // cudaFree takes stream-ordered memory too
  CK(cudaDeviceSynchronize());
  show("mine, all freed", mine);
  CK(cudaDeviceSetMemPool(0, def));

  // access: the pool's own device reads and writes
  cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  CK(cudaMemPoolGetAccess(&fl, mine, &loc));
  printf("access of device 0: %d\n", (int)fl);
  cudaMemAccessDesc desc = {{cudaMemLocationTypeDevice, 0}, cudaMemAccessFlagsProtReadWrite};
  CK(cudaMemPoolSetAccess(mine, &desc, 1));
  desc.location.id = 1;
  ERR(cudaMemPoolSetAccess(mine, &desc, 1));
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtNone;
  ERR(cudaMemPoolSetAccess(mine, &desc, 1));
  loc.id = 5;
  ERR(cudaMemPoolGetAccess(&fl, mine, &loc));

  // what is refused
  void *p = nullptr;
  ERR(cudaMallocFromPoolAsync(&p, 16, nullptr, s1));
  ERR(cudaMallocAsync(nullptr, 16, s1));
  ERR(cudaMallocAsync(&p, 0, s1));
  printf("size 0 gives null %d\n", p == nullptr);
  ERR(cudaFreeAsync(nullptr, s1));
  int host;
  ERR(cudaFreeAsync(&host, s1));
  ERR(cudaMemPoolDestroy(def));
  ERR(cudaDeviceGetDefaultMemPool(&cur, 1));
  ERR(cudaDeviceSetMemPool(1, mine));
  ERR(cudaMemPoolGetAttribute(mine, (cudaMemPoolAttr)99, &big));
  ERR(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, nullptr));
  props.location.id = 3;
  ERR(cudaMemPoolCreate(&cur, &props));
  props.location.id = 0;
  props.allocType = cudaMemAllocationTypeInvalid;
  ERR(cudaMemPoolCreate(&cur, &props));
  ERR(cudaMemPoolCreate(nullptr, &props));
  ERR(cudaMemPoolTrimTo(nullptr, 0));

  // a pool that still holds memory can be destroyed: its memory stays
  // usable until freed
  int *g;
  CK(cudaMallocFromPoolAsync((void **)&g, 64 * sizeof(int), mine, s1));
  CK(cudaStreamSynchronize(s1));
  CK(cudaMemPoolDestroy(mine));
  fill<<<1, 64, 0, s1>>>(g, 64, 2);
  expect_fill(g, 64, 2, "g after destroy");
  CK(cudaFreeAsync(g, s1));
  CK(cudaDeviceSynchronize());
  show("default at the end", def);
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaEventDestroy(ev));

  // cudaDeviceReset with an allocation outstanding in the default pool and
  // another pool current: the pools are the device's, not the context's
  // (the H200 keeps the current pool and the figures)
  props.allocType = cudaMemAllocationTypePinned;
  CK(cudaMemPoolCreate(&mine, &props));
  CK(cudaDeviceSetMemPool(0, mine));
  CK(cudaMallocFromPoolAsync((void **)&g, 1000, def, 0));
  CK(cudaMallocAsync((void **)&e, 1000, 0));
  CK(cudaDeviceReset());
  CK(cudaDeviceGetMemPool(&cur, 0));
  CK(cudaDeviceGetDefaultMemPool(&def, 0));
  printf("after reset current is default %d\n", cur == def);
  show("after reset", def);
  CK(cudaMallocAsync((void **)&e, 1000, 0));
  show("after reset, 1000 bytes", def);
  CK(cudaFreeAsync(e, 0));
  CK(cudaDeviceSynchronize());
  printf("%s\n", bad ? "FAILED" : "done");
  return bad;
}
