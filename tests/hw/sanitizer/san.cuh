// san.cuh: shared helper of the sanitizer corpus. Every program prints each
// runtime call's result by name (never stops on an error), so a recording
// shows what later calls return after a fault, and prints its allocations'
// addresses, so a report's address can be turned into an offset.
#pragma once
#include <cstdio>
#define CALL(x) do { cudaError_t e_ = (x); \
    printf("%s: %s\n", #x, cudaGetErrorName(e_)); } while (0)
#define SYNC(tag) do { cudaError_t e_ = cudaDeviceSynchronize(); \
    printf("sync %s: %s\n", tag, cudaGetErrorName(e_)); \
    e_ = cudaGetLastError(); printf("last %s: %s\n", tag, cudaGetErrorName(e_)); } while (0)
#define ADDR(name, p) printf("addr %s %p\n", name, (void *)(p))
