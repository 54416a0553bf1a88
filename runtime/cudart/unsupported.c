/* unsupported.c: the few calls that are no-ops here (profiler control).
 * What is not implemented at all is stubbed from runtime/entries.def
 * (core/stubs.c); the stream-ordered allocator is pool.c's. */
#include "rt.h"

RT_EXPORT cudaError_t cudaProfilerStart(void);
RT_EXPORT cudaError_t cudaProfilerStop(void);

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
