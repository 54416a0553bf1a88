// hang.cu: kernels that never finish, and one that looks like it could
// but does; tests/cli_harden.sh runs them (hang.ptx: nvcc -arch=sm_90
// -lineinfo -ptx). `volatile` keeps each load inside its loop.

// Every thread waits for a flag nothing sets.
extern "C" __global__ void spinFlag(volatile int *flag) {
  while (flag[0] == 0) {
  }
}

// The threads wait on shared memory that only thread 0 would set, after
// the loop it never leaves.
extern "C" __global__ void spinShared(volatile int *out) {
  __shared__ volatile int ready;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  while (ready == 0) {
  }
  out[threadIdx.x] = 1;
}

// An endless loop whose state changes every iteration: only the
// instruction budget or the time limit can end it.
extern "C" __global__ void countForever(volatile int *flag) {
  int i = 0;
  while (flag[0] == 0) flag[1] = ++i;
}

// Block 0 waits for the last block's flag: it finishes when the blocks run
// at once (--threads 2), never when they run one after the other.
extern "C" __global__ void handoff(volatile int *flag) {
  if (blockIdx.x == gridDim.x - 1) {
    for (int i = 0; i < 100000 && threadIdx.x == 0; i++) flag[2] = i;
    if (threadIdx.x == 0) flag[0] = 1;
  } else {
    while (flag[0] == 0) {
    }
  }
}

// Every pass of the loop waits at a barrier: short rounds, same state.
extern "C" __global__ void spinBarrier(volatile int *flag) {
  __shared__ int s[1024];
  while (flag[0] == 0) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
  }
}

// A long loop with a barrier in every pass that does finish (n passes).
extern "C" __global__ void barrierLoop(int *out, int n) {
  __shared__ int s[1024];
  int acc = 0;
  for (int i = 0; i < n; i++) {
    s[threadIdx.x] = i + threadIdx.x;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}
