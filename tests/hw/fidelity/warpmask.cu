// warpmask.cu: .sync warp operations (vote, shfl, match, redux,
// bar.warp.sync) whose membermask does not contain the calling thread, or
// names threads that never arrive (undefined in the PTX ISA). One case per
// run: `warpmask OP SCENARIO` launches one warp; the lanes in ACTIVE execute
// the operation with mask MLO (lanes 0-15) or MHI (lanes 16-31), the others
// return at once. Prints the launch status and each lane's two outputs
// (0xdeadbeef where a lane wrote nothing). record.sh runs every case plainly
// and under compute-sanitizer synccheck; tests/hw_fidelity.sh runs the same
// binary under `smemu run --check sync`.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

enum { BALLOT, ANY, ALL, UNI, SHFL_IDX, SHFL_DOWN, SHFL_XOR, MATCH_ANY, MATCH_ALL, REDUX_ADD, REDUX_MIN, SYNCWARP, NOPS };
static const char *const opnames[NOPS] = {"ballot", "any", "all", "uni", "shfl_idx", "shfl_down", "shfl_xor",
                                          "match_any", "match_all", "redux_add", "redux_min", "syncwarp"};

__global__ void warpop(int op, unsigned active, unsigned mlo, unsigned mhi, unsigned *o1, unsigned *o2) {
  unsigned lane = threadIdx.x % 32;
  if (!(active >> lane & 1)) return;
  unsigned m = lane < 16 ? mlo : mhi, r = 0, r2 = 0;
  int pred = 0;
  switch (op) {
  case BALLOT: r = __ballot_sync(m, lane % 3 == 0); break;
  case ANY: r = __any_sync(m, lane == 5); break;
  case ALL: r = __all_sync(m, lane < 20); break;
  case UNI: r = __uni_sync(m, lane < 20); break;
  case SHFL_IDX: r = __shfl_sync(m, lane * 10 + 7, lane ^ 1); break;
  case SHFL_DOWN: r = __shfl_down_sync(m, lane * 10 + 7, 1); break;
  case SHFL_XOR: r = __shfl_xor_sync(m, lane * 10 + 7, 16); break;
  case MATCH_ANY: r = __match_any_sync(m, lane / 4); break;
  case MATCH_ALL: r = __match_all_sync(m, 7u, &pred); r2 = pred; break;
  case REDUX_ADD: r = __reduce_add_sync(m, lane + 1); break;
  case REDUX_MIN: r = __reduce_min_sync(m, 100 - lane); break;
  case SYNCWARP: __syncwarp(m); r = 1; break;
  }
  o1[lane] = r;
  o2[lane] = r2;
}

struct scen { const char *name; unsigned active, mlo, mhi; };
static const scen scens[] = {
    {"full", 0xffffffffu, 0xffffffffu, 0xffffffffu},        // control: correct use
    {"halves", 0xffffffffu, 0x0000ffffu, 0xffff0000u},      // control: each half its own mask
    {"hi_not_in_mask", 0xffffffffu, 0x0000ffffu, 0x0000ffffu}, // lanes 16-31 pass 0xffff
    {"lane0_not_in_mask", 0xffffffffu, 0xfffffffeu, 0xfffffffeu},
    {"swapped", 0xffffffffu, 0xffff0000u, 0x0000ffffu},     // each half names only the other
    {"none_in_mask", 0x0000ffffu, 0xffff0000u, 0xffff0000u}, // lanes 0-15 run, mask has none of them
    {"exited_in_mask", 0x0000ffffu, 0xffffffffu, 0xffffffffu}, // lanes 16-31 exited, mask names them
};
enum { NSCEN = sizeof scens / sizeof *scens };

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: warpmask OP SCENARIO\n");
    return 2;
  }
  int op = -1, sc = -1;
  for (int i = 0; i < NOPS; i++)
    if (!strcmp(argv[1], opnames[i])) op = i;
  for (int i = 0; i < NSCEN; i++)
    if (!strcmp(argv[2], scens[i].name)) sc = i;
  if (op < 0 || sc < 0) {
    fprintf(stderr, "unknown case\n");
    return 2;
  }
  unsigned *o1, *o2, h1[32], h2[32];
  cudaMalloc(&o1, 128);
  cudaMalloc(&o2, 128);
  cudaMemset(o1, 0, 128);
  cudaMemset(o2, 0, 128);
  for (int i = 0; i < 32; i++) h1[i] = 0xdeadbeefu;
  cudaMemcpy(o1, h1, 128, cudaMemcpyHostToDevice);
  cudaMemcpy(o2, h1, 128, cudaMemcpyHostToDevice);
  warpop<<<1, 32>>>(op, scens[sc].active, scens[sc].mlo, scens[sc].mhi, o1, o2);
  cudaError_t e = cudaDeviceSynchronize();
  printf("case %s %s: %s\n", opnames[op], scens[sc].name, cudaGetErrorName(e));
  if (e == cudaSuccess) {
    cudaMemcpy(h1, o1, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(h2, o2, 128, cudaMemcpyDeviceToHost);
    for (int l = 0; l < 32; l++) printf("lane %2d %08x %08x\n", l, h1[l], h2[l]);
  }
  return e != cudaSuccess;
}
