// global.cu: gshift adds each element into its neighbour with no ordering
// between the threads (a race on global memory, within and between blocks);
// gok touches each element from one thread only.
extern "C" __global__ void gshift(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = d[i] + 1;
  if (i + 1 < n) d[i + 1] += d[i];
}
extern "C" __global__ void gok(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = d[i] * 2;
}
