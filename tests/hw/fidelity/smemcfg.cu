// smemcfg.cu: does the shared-memory bank size configuration change the
// bank counters on sm_90? Two access patterns whose conflicts differ between
// 4-byte and 8-byte bank mode (on compute capability 3.x) run after
// cudaDeviceSetSharedMemConfig / cudaFuncSetSharedMemConfig with each mode;
// record.sh profiles them with Nsight Compute.
//   u64_stride1: lane l reads 8 bytes at 8*l (4-byte mode: 2 wavefronts;
//                8-byte mode on 3.x: 1)
//   u32_stride2: lane l reads 4 bytes at 8*l (4-byte mode: 2-way conflict;
//                8-byte mode on 3.x: none)
#include <cstdio>
#include <cuda_runtime.h>

__global__ void u64_stride1(unsigned long long *o) {
  __shared__ unsigned long long s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x];
}
__global__ void u32_stride2(unsigned *o) {
  __shared__ unsigned s[64];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 32] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = s[2 * threadIdx.x];
}

int main() {
  void *o;
  cudaMalloc(&o, 1024);
  cudaSharedMemConfig c;
  static const cudaSharedMemConfig modes[] = {cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte};
  for (int i = 0; i < 2; i++) {
    cudaError_t e1 = cudaDeviceSetSharedMemConfig(modes[i]);
    cudaError_t e2 = cudaFuncSetSharedMemConfig(u64_stride1, modes[i]);
    cudaError_t e3 = cudaFuncSetSharedMemConfig(u32_stride2, modes[i]);
    cudaError_t e4 = cudaDeviceGetSharedMemConfig(&c);
    printf("set %d: device %s func %s %s; get %s -> %d\n", (int)modes[i], cudaGetErrorName(e1),
           cudaGetErrorName(e2), cudaGetErrorName(e3), cudaGetErrorName(e4), (int)c);
    u64_stride1<<<1, 32>>>((unsigned long long *)o);
    u32_stride2<<<1, 32>>>((unsigned *)o);
    printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  }
  return 0;
}
