// test_util.h: the small host-side helpers that CUB's examples include as
// "../../test/test_util.h" (Debian's libcub-dev ships the examples but not
// CUB's test folder). Written for smemu's corpus from the calls the examples
// make; the staging script places it at cub/test/test_util.h beside them.
// Random data is deterministic (a fixed-seed generator), so a program's
// output is the same on the GPU and under smemu.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

// Command-line flags of the form -name, --name or --name=value.
struct CommandLineArgs {
  std::vector<std::string> keys, values;

  CommandLineArgs(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
      std::string a(argv[i]);
      size_t start = a.find_first_not_of('-');
      if (start == 0 || start == std::string::npos)
        continue;
      a = a.substr(start);
      size_t eq = a.find('=');
      keys.push_back(eq == std::string::npos ? a : a.substr(0, eq));
      values.push_back(eq == std::string::npos ? std::string() : a.substr(eq + 1));
    }
  }

  bool CheckCmdLineFlag(const char *name) const {
    for (size_t i = 0; i < keys.size(); i++)
      if (keys[i] == name)
        return true;
    return false;
  }

  template <typename T> void GetCmdLineArgument(const char *name, T &val) const {
    for (size_t i = 0; i < keys.size(); i++)
      if (keys[i] == name) {
        std::istringstream in(values[i]);
        in >> val;
      }
  }

  // Selects --device=N (default 0) and prints which device runs.
  cudaError_t DeviceInit(int dev = -1) {
    if (dev < 0) {
      dev = 0;
      GetCmdLineArgument("device", dev);
    }
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess)
      return err;
    if (count == 0 || dev >= count) {
      fprintf(stderr, "no CUDA device %d\n", dev);
      return cudaErrorInvalidDevice;
    }
    err = cudaSetDevice(dev);
    if (err != cudaSuccess)
      return err;
    cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, dev);
    if (err == cudaSuccess)
      printf("Using device %d: %s (SM%d)\n", dev, prop.name, prop.major * 10 + prop.minor);
    fflush(stdout);
    return err;
  }
};

// CUB_MAX and CUB_MIN (older CUB's util_macro.cuh; CCCL 3 dropped them).
#ifndef CUB_MAX
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#endif
#ifndef CUB_MIN
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#endif

// The bits of `from` as a To of the same size.
template <typename To, typename From> To SafeBitCast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "SafeBitCast: sizes differ");
  To to;
  memcpy(&to, &from, sizeof to);
  return to;
}

// Fills the bytes of x from a fixed-seed xorshift generator; a
// floating-point NaN is drawn again (NaNs have no order to sort by).
template <typename T> void RandomBits(T &x) {
  static unsigned long long state = 0x9e3779b97f4a7c15ull;
  do {
    unsigned char bytes[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); i++) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      bytes[i] = (unsigned char)(state >> 24);
    }
    memcpy(&x, bytes, sizeof(T));
  } while (x != x);
}

template <typename T> void DisplayResults(const T *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    std::cout << (i ? ", " : "") << h[i];
  std::cout << "\n";
}

// Copies n items of d_data back and compares them with h_reference: prints
// CORRECT or INCORRECT and returns 0 when they are equal.
template <typename S, typename T>
int CompareDeviceResults(const S *h_reference, const T *d_data, size_t n, bool verbose = true,
                         bool display = false) {
  std::vector<T> h(n);
  if (n && cudaMemcpy(h.data(), d_data, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("INCORRECT (copy failed)\n");
    return 1;
  }
  if (display) {
    printf("Reference:\n");
    DisplayResults(h_reference, n);
    printf("Computed:\n");
    DisplayResults(h.data(), n);
  }
  for (size_t i = 0; i < n; i++)
    if (!(h[i] == h_reference[i])) {
      if (verbose) {
        std::cout << "INCORRECT: [" << i << "]: " << h[i] << " != " << h_reference[i] << "\n";
      }
      return 1;
    }
  if (verbose)
    printf("CORRECT\n");
  return 0;
}

#define AssertEquals(a, b)                                                                         \
  do {                                                                                             \
    if ((a) != (b)) {                                                                              \
      std::cerr << "AssertEquals failed at " << __FILE__ << ":" << __LINE__ << "\n";               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

// Resident blocks of kernel per multiprocessor (older CUB had this in
// util_device.cuh; the examples still call it).
template <typename Kernel>
cudaError_t MaxSmOccupancy(int &max_sm_occupancy, Kernel kernel, int block_threads,
                           int dynamic_smem_bytes = 0) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_sm_occupancy, kernel, block_threads,
                                                       dynamic_smem_bytes);
}

// Times work on the default stream with two events.
struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void Start() { cudaEventRecord(start_, 0); }
  void Stop() { cudaEventRecord(stop_, 0); }
  float ElapsedMillis() {
    float ms = 0;
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }
};
