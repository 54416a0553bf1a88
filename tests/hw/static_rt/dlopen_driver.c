/* dlopen_driver.c: a program that loads the driver itself, as CuPy's and
 * PyTorch's loaders do: dlopen("libcuda.so.1"), then every entry point
 * through cuGetProcAddress, versioned as CUDA 13's static runtime asks
 * (tests/hw/static_rt/recorded/proc_requests.txt). Under `smemu run` it
 * must find smemu's driver: the device name says so. Prints what it got;
 * exit status 1 on any failure. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*getproc_t)(const char *, void **, int, unsigned long long, int *);

int main(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  getproc_t getproc = (getproc_t)dlsym(h, "cuGetProcAddress_v2");
  if (!getproc) {
    printf("no cuGetProcAddress_v2\n");
    return 1;
  }
  void *fn = (void *)1;
  int r = getproc("", &fn, 0, 0, NULL);
  printf("empty symbol: %d %s\n", r, fn ? "function" : "none");
  int (*init)(unsigned) = NULL;
  int (*count)(int *) = NULL;
  int (*name)(char *, int, int) = NULL;
  int (*ctx_create)(void **, unsigned, int) = NULL; /* cuCtxCreate at 3020: the _v2 signature */
  int (*ver)(int *) = NULL;
  int st = -1, bad = 0;
  bad |= getproc("cuInit", (void **)&init, 2000, 0, &st) || st;
  bad |= getproc("cuDeviceGetCount", (void **)&count, 2000, 0, &st) || st;
  bad |= getproc("cuDeviceGetName", (void **)&name, 2000, 0, &st) || st;
  bad |= getproc("cuCtxCreate", (void **)&ctx_create, 3020, 0, &st) || st;
  bad |= getproc("cuDriverGetVersion", (void **)&ver, 2020, 0, &st) || st;
  if (bad) {
    printf("cuGetProcAddress failed\n");
    return 1;
  }
  int n = 0, v = 0;
  char dev[256] = "";
  void *ctx = NULL;
  /* one call a statement: the order of a call's arguments is unspecified */
  printf("cuInit: %d\n", init(0));
  r = count(&n);
  printf("cuDeviceGetCount: %d, %d device(s)\n", r, n);
  printf("cuDeviceGetName: %d\n", name(dev, sizeof dev, 0));
  printf("smemu's driver: %s\n", strstr(dev, "smemu") ? "yes" : "no");
  r = ctx_create(&ctx, 0, 0);
  printf("cuCtxCreate: %d, context %s\n", r, ctx ? "made" : "missing");
  r = ver(&v);
  printf("cuDriverGetVersion: %d, %d\n", r, v);
  return 0;
}
