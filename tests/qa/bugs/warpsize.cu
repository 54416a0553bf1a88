// warpSize: nvcc 13 writes `mov.u32 %r, WARP_SZ;`; smemu's parser rejects
// the symbol ("unknown symbol 'WARP_SZ'"), so the module does not load.
// smemu exec tests/qa/bugs/warpsize.cu --kernel lanes --grid 1 --block 64 --arg buf:s32:64:print
// expected: 0..31 0..31
__global__ void lanes(int *out) { out[threadIdx.x] = threadIdx.x % warpSize; }
