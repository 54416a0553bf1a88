// branches.cu: .sync warp operations with the full mask reached by the two
// half-warps in different branches (if / else), which Volta's independent
// thread scheduling allows. Does each half see the other's lanes (the
// branches converge at the operation) or only its own? smemu runs each
// branch's operation with the lanes that reach it. One case per run:
// `branches OP`; prints the launch status and each lane's result.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

enum { BALLOT, SHFL, REDUX, MATCH, SYNCWARP, NOPS };
static const char *const names[NOPS] = {"ballot", "shfl", "redux", "match", "syncwarp"};

__global__ void branches(int op, unsigned *out) {
  unsigned lane = threadIdx.x % 32, r = 0xdeadbeefu;
  if (lane < 16) {
    switch (op) {
    case BALLOT: asm volatile("vote.sync.ballot.b32 %0, 1, -1;" : "=r"(r)); break;
    case SHFL: asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 31, -1;" : "=r"(r) : "r"(lane + 100)); break;
    case REDUX: asm volatile("redux.sync.add.u32 %0, %1, -1;" : "=r"(r) : "r"(lane + 1)); break;
    case MATCH: asm volatile("match.any.sync.b32 %0, %1, -1;" : "=r"(r) : "r"(lane % 4)); break;
    case SYNCWARP: asm volatile("bar.warp.sync -1;"); r = 1; break;
    }
  } else {
    switch (op) {
    case BALLOT: asm volatile("{ .reg .pred p; setp.eq.u32 p, %1, 20; vote.sync.ballot.b32 %0, p, -1; }" : "=r"(r) : "r"(lane)); break;
    case SHFL: asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 31, -1;" : "=r"(r) : "r"(lane + 200)); break;
    case REDUX: asm volatile("redux.sync.add.u32 %0, %1, -1;" : "=r"(r) : "r"(lane * 2)); break;
    case MATCH: asm volatile("match.any.sync.b32 %0, %1, -1;" : "=r"(r) : "r"(lane % 8)); break;
    case SYNCWARP: asm volatile("bar.warp.sync -1;"); r = 2; break;
    }
  }
  out[lane] = r;
}

int main(int argc, char **argv) {
  int op = -1;
  for (int i = 0; argc == 2 && i < NOPS; i++)
    if (!strcmp(argv[1], names[i])) op = i;
  if (op < 0) {
    fprintf(stderr, "usage: branches ballot|shfl|redux|match|syncwarp\n");
    return 2;
  }
  unsigned *o, h[32];
  cudaMalloc(&o, sizeof h);
  cudaMemset(o, 0xee, sizeof h);
  branches<<<1, 32>>>(op, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("case %s: %s\n", names[op], cudaGetErrorName(e));
  if (e == cudaSuccess) {
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int l = 0; l < 32; l++) printf("lane %2d %08x\n", l, h[l]);
  }
  return e != cudaSuccess;
}
