// --check global-races reports st.relaxed.gpu / ld.relaxed.gpu pairs between
// blocks (CUB's decoupled look-back: cub::DeviceScan's tile status words) as
// races; in the PTX memory model two morally strong accesses (same scope,
// both relaxed/acquire/release/volatile or atomic) never form a data race.
// smemu exec tests/qa/bugs/global_relaxed_flags.cu --kernel publish --grid 4 --block 32 --arg buf:u32:8 --check global-races
// expected: no race
__global__ void publish(unsigned *status)
{
  if (threadIdx.x == 0) {
    unsigned prev = 0;
    if (blockIdx.x > 0) asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(prev) : "l"(status + blockIdx.x - 1));
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(status + blockIdx.x), "r"(prev + 1));
  }
}
