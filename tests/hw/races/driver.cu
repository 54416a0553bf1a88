/* driver.cu: runs one case of the race corpus on the GPU, for record.sh and
 * compute-sanitizer. Usage: driver DIR CASE
 * Reads DIR/manifest.tsv, loads the case's kernel from the cubin that
 * record.sh assembled from the checked-in PTX (RACES_CUBIN_DIR/FILE.cubin),
 * or else JIT-compiles DIR/FILE.ptx with line information, so that the GPU
 * runs exactly the PTX smemu runs. Launches it once with the manifest's grid,
 * block, dynamic shared bytes and n on deterministic inputs (see
 * races_input), then prints the launch status ("launch: ok", "launch: kernel
 * failed: ...", "launch: kernel hung ..." after RACES_KERNEL_TIMEOUT seconds,
 * default 20), the first outputs and an FNV-1a checksum of the output
 * buffer. Exit status 0 when the launch succeeded. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RACES_WORDS 8192 /* as races.cuh */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int races_input(int i) { return (i * 37 + 11) % 1009; }

static unsigned long long fnv1a(const void *p, size_t n)
{
  const unsigned char *b = (const unsigned char *)p;
  unsigned long long h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* "X" or "XxY" or "XxYxZ". */
static void dims(const char *s, unsigned d[3])
{
  d[0] = d[1] = d[2] = 1;
  sscanf(s, "%ux%ux%u", &d[0], &d[1], &d[2]);
}

static int check(CUresult r, const char *what)
{
  if (r == CUDA_SUCCESS) return 0;
  const char *name = "?", *msg = "?";
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &msg);
  printf("launch: %s failed: %s (%s)\n", what, name, msg);
  return 1;
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: driver DIR CASE\n");
    return 2;
  }
  const char *dir = argv[1], *want = argv[2];
  char path[4096], line[4096];
  snprintf(path, sizeof path, "%s/manifest.tsv", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return 2;
  }
  char *col[10];
  int found = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\r\n")] = 0;
    int n = 0;
    for (char *p = line; n < 10;) {
      col[n++] = p;
      p = strchr(p, '\t');
      if (!p) break;
      *p++ = 0;
    }
    if (n >= 7 && !strcmp(col[0], want)) {
      found = 1;
      break;
    }
  }
  fclose(f);
  if (!found) {
    fprintf(stderr, "driver: no case %s in %s\n", want, path);
    return 2;
  }
  const char *file = col[1], *kname = col[2];
  unsigned grid[3], block[3];
  dims(col[3], grid);
  dims(col[4], block);
  unsigned shared = (unsigned)atoi(col[5]);
  int n = atoi(col[6]);
  printf("case %s kernel %s grid %ux%ux%u block %ux%ux%u shared %u n %d\n", want, kname,
         grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, n);

  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  if (check(cuInit(0), "cuInit") || check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return 1;
  char stem[1024];
  snprintf(stem, sizeof stem, "%s", file);
  char *dot = strrchr(stem, '.');
  if (dot) *dot = 0;
  const char *cubin_dir = getenv("RACES_CUBIN_DIR");
  FILE *cb = NULL;
  if (cubin_dir) {
    snprintf(path, sizeof path, "%s/%s.cubin", cubin_dir, stem);
    cb = fopen(path, "rb");
  }
  if (cb) {
    fclose(cb);
    printf("module: %s\n", path);
    if (check(cuModuleLoad(&mod, path), "cuModuleLoad")) return 1;
  } else {
    snprintf(path, sizeof path, "%s/%s.ptx", dir, stem);
    FILE *pf = fopen(path, "rb");
    if (!pf) {
      perror(path);
      return 2;
    }
    fseek(pf, 0, SEEK_END);
    long len = ftell(pf);
    fseek(pf, 0, SEEK_SET);
    char *ptx = (char *)calloc(1, (size_t)len + 1);
    if (fread(ptx, 1, (size_t)len, pf) != (size_t)len) {
      perror(path);
      return 2;
    }
    fclose(pf);
    printf("module: %s (JIT, line info)\n", path);
    CUjit_option opt[1] = {CU_JIT_GENERATE_LINE_INFO};
    void *val[1] = {(void *)(size_t)1};
    if (check(cuModuleLoadDataEx(&mod, ptx, 1, opt, val), "cuModuleLoadDataEx")) return 1;
    free(ptx);
  }
  if (check(cuModuleGetFunction(&fn, mod, kname), "cuModuleGetFunction")) return 1;

  size_t bytes = RACES_WORDS * sizeof(int);
  int *hin = (int *)malloc(bytes), *hout = (int *)calloc(RACES_WORDS, sizeof(int));
  for (int i = 0; i < RACES_WORDS; i++) hin[i] = races_input(i);
  CUdeviceptr din, dout;
  if (check(cuMemAlloc(&din, bytes), "cuMemAlloc") || check(cuMemAlloc(&dout, bytes), "cuMemAlloc") ||
      check(cuMemcpyHtoD(din, hin, bytes), "cuMemcpyHtoD") ||
      check(cuMemsetD8(dout, 0, bytes), "cuMemsetD8"))
    return 1;
  void *args[] = {&dout, &din, &n};
  int bad = check(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                 shared, 0, args, NULL), "cuLaunchKernel");
  if (!bad) {
    /* A kernel that does not finish (a misused barrier can hang) ends the
     * process, which frees the GPU, sooner than record.sh's timeout. */
    const char *w = getenv("RACES_KERNEL_TIMEOUT");
    double limit = w ? atof(w) : 20.0, t0 = now();
    CUresult q;
    while ((q = cuStreamQuery(0)) == CUDA_ERROR_NOT_READY) {
      if (now() - t0 > limit) {
        printf("launch: kernel hung (not finished after %.0f s)\n", limit);
        fflush(stdout);
        _exit(3);
      }
      usleep(1000);
    }
    bad = check(q, "kernel");
    if (!bad) bad = check(cuCtxSynchronize(), "kernel");
  }
  if (!bad) bad = check(cuMemcpyDtoH(hout, dout, bytes), "cuMemcpyDtoH");
  if (bad) return 1;
  printf("launch: ok\n");
  printf("out:");
  for (int i = 0; i < 8; i++) printf(" %d", hout[i]);
  printf("\nchecksum %s 0x%016llx\n", want, fnv1a(hout, bytes));
  cuMemFree(din);
  cuMemFree(dout);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
