// small_api.cu: the answers of the runtime's smaller API areas (stream
// attributes, launch attributes, parameter layout, user objects, the log,
// libraries, peers of one device, batches, managed attach) and of entry
// points that need what one device lacks (IPC, external memory, graphics
// interop), one line each: the call and the error name it returned.
// Recorded on an H100 (tests/hw/rtapi/small_api.out, see record.sh); run by
// tests/runtime (programs.txt) under smemu and compared line by line.
#include <cstdio>
#include <cstring>
#define P(x) printf("%s %s\n", #x, cudaGetErrorName(x))
__global__ void k(int *p, unsigned n) { *p = n; }
__device__ int g = 3;
static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n.global .align 4 .u32 h = 5;\n"
                          ".visible .entry e(.param .u64 p){ret;}\n";
static void nop(void *) {}
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaLaunchAttributeValue v;
  memset(&v, 0, sizeof v);
  P(cudaStreamGetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v));
  printf("syncPolicy %d\n", (int)v.syncPolicy);
  P(cudaStreamGetAttribute(s, cudaLaunchAttributeMemSyncDomainMap, &v));
  printf("domainMap %d %d\n", v.memSyncDomainMap.default_, v.memSyncDomainMap.remote);
  P(cudaStreamGetAttribute(s, cudaLaunchAttributeClusterDimension, &v));
  P(cudaStreamGetAttribute(s, (cudaLaunchAttributeID)99, &v));
  int *d, i;
  size_t o, z;
  cudaMalloc(&d, 4096);
  P(cudaFuncGetParamInfo((void *)k, 1, &o, &z));
  printf("param1 %zu %zu\n", o, z);
  P(cudaFuncGetParamInfo((void *)k, 2, &o, &z));
  cudaLaunchAttribute a[1];
  a[0].id = (cudaLaunchAttributeID)15;
  cudaLaunchConfig_t c = {dim3(1), dim3(1), 0, s, a, 1};
  P(cudaLaunchKernelEx(&c, k, d, 1u));
  cudaGetLastError();
  cudaUserObject_t u;
  P(cudaUserObjectCreate(&u, 0, nop, 1, 0));
  P(cudaUserObjectCreate(&u, 0, nop, 0, 1));
  P(cudaDeviceGetP2PAttribute(&i, cudaDevP2PAttrPerformanceRank, 0, 0));
  P(cudaDeviceGetP2PAttribute(&i, cudaDevP2PAttrPerformanceRank, 0, 1));
  P(cudaDeviceGetP2PAttribute(&i, (cudaDeviceP2PAttr)9, 0, 1));
  P(cudaDeviceEnablePeerAccess(0, 0));
  P(cudaDeviceEnablePeerAccess(1, 0));
  P(cudaDeviceEnablePeerAccess(1, 1));
  P(cudaDeviceDisablePeerAccess(0));
  P(cudaDeviceDisablePeerAccess(1));
  P(cudaDeviceGetByPCIBusId(&i, "bus zero"));
  P(cudaDeviceGetByPCIBusId(&i, "0000:ff:00.0"));
  int one = 1;
  P(cudaSetValidDevices(&one, 1));
  cudaLibrary_t l;
  cudaKernel_t kk;
  void *p;
  P(cudaLibraryLoadData(&l, ptx, 0, 0, 0, 0, 0, 0));
  P(cudaLibraryGetKernel(&kk, l, "nope"));
  P(cudaLibraryGetGlobal(&p, &z, l, "nope"));
  P(cudaLibraryGetManaged(&p, &z, l, "h"));
  P(cudaLibraryGetUnifiedFunction(&p, l, "e"));
  P(cudaLibraryUnload(l));
  P(cudaGetKernel(&kk, (void *)main));
  cudaMemcpyAttributes ma;
  memset(&ma, 0, sizeof ma);
  ma.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  void *ds[1] = {d};
  const void *ss[1] = {&one};
  size_t sz[1] = {4}, ix[1] = {0};
  P(cudaMemcpyBatchAsync(ds, ss, sz, 1, &ma, ix, 1, 0));
  P(cudaMemcpyBatchAsync(ds, ss, sz, 1, &ma, ix, 1, s));
  ix[0] = 1;
  P(cudaMemcpyBatchAsync(ds, ss, sz, 1, &ma, ix, 1, s));
  P(cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachSingle));
  cudaExternalMemory_t em;
  cudaExternalMemoryHandleDesc ed;
  memset(&ed, 0, sizeof ed);
  P(cudaImportExternalMemory(&em, &ed));
  P(cudaGraphicsUnregisterResource(0));
  cudaIpcMemHandle_t ih;
  P(cudaIpcGetMemHandle(&ih, d));
  P(cudaIpcOpenMemHandle(&p, ih, cudaIpcMemLazyEnablePeerAccess));
  P(cudaIpcCloseMemHandle(d));
  cudaEvent_t ev, ev2;
  cudaIpcEventHandle_t eh;
  cudaEventCreate(&ev);
  P(cudaIpcGetEventHandle(&eh, ev));
  cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming);
  P(cudaIpcGetEventHandle(&eh, ev));
  P(cudaIpcOpenEventHandle(&ev2, eh));
  cudaExternalSemaphore_t es;
  cudaExternalSemaphoreHandleDesc sd;
  memset(&sd, 0, sizeof sd);
  P(cudaImportExternalSemaphore(&es, &sd));
  P(cudaDestroyExternalMemory(0));
  P(cudaDestroyExternalSemaphore(0));
  P(cudaGraphicsMapResources(0, 0, 0));
  P(cudaGraphicsResourceGetMappedPointer(&p, &z, 0));
  P(cudaDeviceSynchronize());
  return 0;
}
