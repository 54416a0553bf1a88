/* pocl_matmul.c: the native-CPU baseline of the speed table: the tiled
 * matrix product of examples/cl/matmul_tiled.cl (the OpenCL version of
 * examples/matmul.ptx: same 16x16 tiles, same accesses) on the first OpenCL
 * device, PoCL's CPU device where Debian's pocl-opencl-icd is installed.
 * Prints the kernel's time in seconds (enqueue to clFinish, the best of
 * REPS runs after one warm-up that includes PoCL's compile) on one line:
 *   pocl N SECONDS DEVICE
 * and checks a few elements of C against a double-precision CPU product.
 *
 * usage: pocl_matmul CLFILE N [REPS]
 * Exit status: 0, 77 when there is no OpenCL platform or device, 1 on an
 * error, 2 on bad usage. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int ok(cl_int e, const char *what) {
  if (e == CL_SUCCESS) return 1;
  fprintf(stderr, "pocl_matmul: %s failed (OpenCL error %d)\n", what, (int)e);
  return 0;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  long n;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)n + 1))) {
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
      free(s);
      s = NULL;
    } else {
      s[n] = 0;
    }
  }
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pocl_matmul CLFILE N [REPS]\n");
    return 2;
  }
  int n = atoi(argv[2]), reps = argc > 3 ? atoi(argv[3]) : 3;
  if (n <= 0 || n % 16 || reps <= 0) {
    fprintf(stderr, "pocl_matmul: N must be a positive multiple of 16\n");
    return 2;
  }
  char *src = slurp(argv[1]);
  if (!src) {
    fprintf(stderr, "pocl_matmul: cannot read %s\n", argv[1]);
    return 1;
  }
  cl_platform_id plats[8];
  cl_uint np = 0;
  cl_device_id dev = NULL;
  if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || !np) {
    printf("pocl_matmul: no OpenCL platform\n");
    return 77;
  }
  for (cl_uint i = 0; i < np && !dev; i++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, &nd) != CL_SUCCESS || !nd) dev = NULL;
  }
  if (!dev) {
    printf("pocl_matmul: no OpenCL device\n");
    return 77;
  }
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  if (!ok(e, "clCreateContext")) return 1;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  if (!ok(e, "clCreateCommandQueue")) return 1;
  const char *srcs[] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &e);
  if (!ok(e, "clCreateProgramWithSource")) return 1;
  if (!ok(clBuildProgram(prog, 1, &dev, "-DTILE=16", NULL, NULL), "clBuildProgram")) return 1;
  cl_kernel k = clCreateKernel(prog, "matmulTiled", &e);
  if (!ok(e, "clCreateKernel")) return 1;
  size_t nn = (size_t)n * (size_t)n, bytes = nn * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  if (!a || !b || !c) return 1;
  srand(1);
  for (size_t i = 0; i < nn; i++) a[i] = (float)rand() / (float)RAND_MAX;
  for (size_t i = 0; i < nn; i++) b[i] = (float)rand() / (float)RAND_MAX;
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &e);
  if (!ok(e, "clCreateBuffer")) return 1;
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &e);
  if (!ok(e, "clCreateBuffer")) return 1;
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &e);
  if (!ok(e, "clCreateBuffer")) return 1;
  cl_int cn = n;
  if (!ok(clSetKernelArg(k, 0, sizeof da, &da), "clSetKernelArg") || !ok(clSetKernelArg(k, 1, sizeof db, &db), "arg") ||
      !ok(clSetKernelArg(k, 2, sizeof dc, &dc), "arg") || !ok(clSetKernelArg(k, 3, sizeof cn, &cn), "arg"))
    return 1;
  size_t global[2] = {(size_t)n, (size_t)n}, local[2] = {16, 16};
  double best = 1e30;
  for (int r = 0; r <= reps; r++) {
    double t0 = now();
    if (!ok(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL), "clEnqueueNDRangeKernel") ||
        !ok(clFinish(q), "clFinish"))
      return 1;
    double t = now() - t0;
    if (r > 0 && t < best) best = t; /* run 0 warms up (and compiles) */
  }
  if (!ok(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL), "clEnqueueReadBuffer")) return 1;
  /* a few elements against a double-precision product */
  for (int s = 0; s < 16; s++) {
    int i = (s * 7919) % n, j = (s * 104729) % n;
    double want = 0;
    for (int t = 0; t < n; t++) want += (double)a[(size_t)i * n + t] * b[(size_t)t * n + j];
    if (fabs(c[(size_t)i * n + j] - want) > 1e-3 * fabs(want) + 1e-3) {
      fprintf(stderr, "pocl_matmul: C[%d][%d] = %g, want %g\n", i, j, c[(size_t)i * n + j], want);
      return 1;
    }
  }
  printf("pocl %d %.6f %s\n", n, best, name);
  return 0;
}
