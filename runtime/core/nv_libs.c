/* nv_libs.c: NVIDIA's CUDA libraries that smemu does not provide (cuBLAS,
 * cuFFT, cuSPARSE, cuSOLVER, ...). Each carries its own static CUDA runtime,
 * which reaches smemu's driver when a program has the library installed;
 * their kernels are NVIDIA's, most of them SASS, and what they ask of the
 * driver goes beyond what smemu has (cuBLAS and cuFFT fail their handle or
 * plan with an "internal error" of their own). So such a library is
 * refused at its first question to the driver (cuGetProcAddress), with a
 * message naming it and what uses it; its caller gets the library's own
 * error code. cuRAND is let through: its kernels carry PTX, and its
 * results match its host generator's (tests/cupy). */
#include "rt.h"
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static const struct nv_lib {
  const char *soname; /* the file name's start */
  const char *name;
  const char *uses; /* what calls it, for the message */
} libs[] = {
    {"libcublasLt.", "cuBLAS", "matrix products: cupy.dot, cupy.matmul and cupy.linalg on matrices"},
    {"libcublas.", "cuBLAS", "matrix products: cupy.dot, cupy.matmul and cupy.linalg on matrices"},
    {"libcufft", "cuFFT", "cupy.fft"},
    {"libcusparseLt.", "cuSPARSELt", "sparse matrix products"},
    {"libcusparse.", "cuSPARSE", "cupyx.scipy.sparse"},
    {"libcusolver", "cuSOLVER", "cupy.linalg's solvers and decompositions"},
    {"libcudnn", "cuDNN", "deep-learning layers"},
    {"libcutensor", "cuTENSOR", "tensor contractions"},
    {"libnccl.", "NCCL", "collective communication"},
    {"libnpp", "NPP", "image and signal primitives"},
    {"libnvjpeg", "nvJPEG", "JPEG decoding"},
};

static const struct nv_lib *lib_of_file(const char *path) {
  if (!path) return NULL;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
    if (!strncmp(base, libs[i].soname, strlen(libs[i].soname))) return &libs[i];
  return NULL;
}

/* Whether this is the first time l is refused; a handful of libraries at
 * most, so a list. */
static int first_time(const struct nv_lib *l) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  static const struct nv_lib *said[sizeof libs / sizeof libs[0]];
  static size_t nsaid;
  int first = 1;
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < nsaid && first; i++) first = said[i] != l && strcmp(said[i]->name, l->name);
  if (first) said[nsaid++] = l;
  pthread_mutex_unlock(&mu);
  return first;
}

int rt_nv_library_refused(const char *path) {
  const struct nv_lib *l = lib_of_file(path);
  if (!l) return 0;
  if (first_time(l))
    rt_msg("%s is NVIDIA's %s, which smemu does not provide (its kernels are NVIDIA's, mostly SASS): what "
           "calls %s (%s) fails with %s's error",
           path, l->name, l->name, l->uses, l->name);
  return 1;
}

int rt_nv_library_refused_at(const void *code) {
  Dl_info info;
  if (!code || !dladdr(code, &info) || !info.dli_fname) return 0;
  return rt_nv_library_refused(info.dli_fname);
}
