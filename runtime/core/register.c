/* register.c: what nvcc's generated host code calls before main():
 * __cudaRegisterFatBinary with each translation unit's fatbinary, then one
 * __cudaRegisterFunction per kernel (host stub -> mangled name) and one
 * __cudaRegisterVar per __device__ / __constant__ variable (host shadow ->
 * PTX name). A module's PTX is loaded into the context on first use, as
 * CUDA's lazy loading does; kernels and variables are resolved then. */
#include "api/sass_job.h"
#include "cudart/graph.h"
#include "rt.h"
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRAPPER_MAGIC 0x466243b1

/* nvcc's wrapper around a translation unit's fatbinary. */
typedef struct fatbin_wrapper {
  int magic;
  int version; /* 1; 2 for relocatable device code (-rdc) */
  const unsigned long long *data;
  void *filename_or_fatbins;
} fatbin_wrapper;

/* The file that holds image: the program, or the shared library whose
 * device code it is (a Python extension's, NVIDIA's libraries'), which
 * says more than the interpreter's name. */
static char *program_label(const void *image) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return strdup("the program");
  buf[n] = 0;
  Dl_info info;
  char lib[PATH_MAX];
  if (image && dladdr(image, &info) && info.dli_fname && info.dli_fname[0] && realpath(info.dli_fname, lib) &&
      strcmp(lib, buf))
    return strdup(info.dli_fname);
  return strdup(buf);
}

rt_module *rt_module_new(const void *image, const char *label) {
  rt_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  int cc = rt.arch.major * 10 + rt.arch.minor;
  if (!image)
    snprintf(m->img.err, sizeof m->img.err, "no image");
  else if (fb_parse(image, cc, &m->img) < 0 && !m->img.err[0])
    snprintf(m->img.err, sizeof m->img.err, "bad image");
  m->label = label ? strdup(label) : program_label(image);
  m->next = rt.mods;
  rt.mods = m;
  rt.nmods++;
  return m;
}

void rt_module_free(rt_module *m) {
  for (rt_module **p = &rt.mods; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  for (rt_func **p = &rt.funcs; *p;) {
    if ((*p)->m == m) {
      rt_func *f = *p;
      *p = f->next;
      free(f->name);
      free(f->why);
      free(f);
    } else {
      p = &(*p)->next;
    }
  }
  for (rt_var **p = &rt.vars; *p;) {
    if ((*p)->m == m) {
      rt_var *v = *p;
      *p = v->next;
      free(v->name);
      free(v);
    } else {
      p = &(*p)->next;
    }
  }
  if (m->mod) smemu_module_unload(m->mod);
  if (m->sass_job) smemu_module_count_sass_job(NULL, m->sass_job, NULL, 0);
  rt_module_free_parts(m);
  fb_free(&m->img);
  free(m->label);
  free(m);
}

rt_func *rt_func_new(rt_module *m, const void *host, const char *name) {
  rt_func *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->m = m;
  f->host = host;
  f->name = strdup(name);
  f->max_dyn = -1;
  f->carveout = -1;
  f->next = rt.funcs;
  rt.funcs = f;
  m->nfuncs++;
  return f;
}

rt_func *rt_func_by_host(const void *host) {
  if (!host) return NULL;
  for (rt_func *f = rt.funcs; f; f = f->next)
    if (f->host == host || (const void *)f == host) return f;
  return NULL;
}

rt_var *rt_var_by_host(const void *host) {
  if (!host) return NULL;
  for (rt_var *v = rt.vars; v; v = v->next)
    if (v->host == host) return v;
  return NULL;
}

/* Say once, clearly, why a module cannot run and how to rebuild. */
static void warn_no_ptx(rt_module *m) {
  if (m->warned++) return;
  if (rt_nv_library_refused(m->label)) return;
  char want[16];
  smemu_arch_info ai;
  snprintf(want, sizeof want, "sm_%d", m->img.ptx_arch);
  /* suggest the newer profile only where smemu has it */
  if (m->img.ptx_too_new && smemu_arch_query(want, &ai) == SMEMU_OK)
    rt_msg("%s: the PTX targets %s, newer than the emulated %s, so a GPU of that kind could not run it "
           "either; emulate a newer architecture (smemu run --arch %s) or rebuild with -arch=%s",
           m->label, want, rt.arch.name, want, rt.arch.name);
  else if (m->img.ptx_too_new)
    rt_msg("%s: the PTX targets %s, newer than the emulated %s and than every profile of smemu's, so a GPU "
           "of that kind could not run it either; rebuild with -arch=%s",
           m->label, want, rt.arch.name, rt.arch.name);
  else if (strstr(m->img.err, "relocatable"))
    rt_msg("%s: %s", m->label, m->img.err);
  else
    rt_msg("%s: %s; smemu runs PTX: rebuild with nvcc -arch=sm_XX (which embeds compute_XX PTX) or add "
           "-gencode arch=compute_XX,code=compute_XX, and link with -cudart shared",
           m->label, m->img.err);
}

/* The module has PTX the emulated device may run. SMEMU_PTX_ANY=1 (set by
 * `smemu run FILE.cu` for architectures nvcc no longer targets) accepts
 * PTX for a newer architecture. */
static int runnable(const rt_module *m) {
  const char *any = getenv("SMEMU_PTX_ANY");
  return m->img.ptx && (!m->img.ptx_too_new || m->img.ptx_stands_in || (any && *any == '1'));
}

/* Say once that a module runs PTX of a newer architecture in place of the
 * SASS a GPU would run: its figures are those of that PTX's code paths. */
static void note_stand_in(rt_module *m) {
  if (!m->img.ptx_stands_in || m->warned++) return;
  /* once per file: a library holds many such modules */
  for (const rt_module *p = rt.mods; p; p = p->next)
    if (p != m && p->img.ptx_stands_in && p->warned && !strcmp(p->label, m->label)) return;
  rt_msg("%s: no PTX for %s (only for sm_%d): a GPU runs its SASS for %s; smemu runs the sm_%d PTX in its "
         "place",
         m->label, rt.arch.name, m->img.ptx_arch, rt.arch.name, m->img.ptx_arch);
}

/* The .version of a PTX text ("9.5"), or "" when it has none. */
static void ptx_version(const char *ptx, char *out, size_t n) {
  out[0] = 0;
  const char *v = ptx ? strstr(ptx, ".version") : NULL;
  if (!v) return;
  v += 8;
  while (*v == ' ' || *v == '\t') v++;
  size_t k = 0;
  while (k + 1 < n && ((v[k] >= '0' && v[k] <= '9') || v[k] == '.')) {
    out[k] = v[k];
    k++;
  }
  out[k] = 0;
}

/* SASS-informed counting (SMEMU_COUNTING=sass|ptx, default sass when the
 * tools exist): the fatbinary's cubin when it is for the emulated
 * architecture, else the PTX through ptxas; nvdisasm either way. The
 * mapping only changes the bank model's counts, so a run without it skips
 * the tools (each start of nvdisasm costs about half a second, a large part
 * of a small program's first run) unless sass was asked for by name. */
static int sass_wanted(const char *c) {
  if (c && !strcmp(c, "ptx")) return 0;
  return (rt.analyses & SMEMU_ANALYZE_BANKS) || (c && !strcmp(c, "sass"));
}

static int own_cubin(const rt_module *m) {
  return m->img.cubin && m->img.cubin_arch == rt.arch.major * 10 + rt.arch.minor;
}

/* At registration: nvdisasm starts on the module's own cubin at once, on a
 * thread (ptxas first on its PTX when the cubin is for another
 * architecture), so that the tools run beside the program's host code and
 * the other modules' rather than at the first launch. Only the first few
 * modules: a library registers hundreds that a program may never use. PTX
 * that the load patches (device runtime calls) is compiled again then. */
#define SASS_AHEAD_MAX 8
static void sass_ahead(rt_module *m) {
  static int started;
  if (started >= SASS_AHEAD_MAX || m->nparts || m->img.ptx_stands_in || !runnable(m) ||
      !sass_wanted(getenv("SMEMU_COUNTING")))
    return;
  m->sass_job = own_cubin(m) ? smemu_sass_start_cubin(m->img.cubin, m->img.cubin_len)
                             : smemu_sass_start_ptx(m->img.ptx, m->img.ptx_len, rt.arch.name);
  if (m->sass_job) started++;
}

static void sass_counting(rt_module *m, smemu_ctx *ctx) {
  const char *c = getenv("SMEMU_COUNTING");
  if (!sass_wanted(c)) return;
  /* PTX standing in for SASS: the cubin was built from other code paths,
   * and ptxas refuses PTX for a newer architecture */
  if (m->img.ptx_stands_in) {
    if (c && !strcmp(c, "sass"))
      rt_msg("--counting sass: %s runs sm_%d PTX in place of SASS; it is counted by PTX rules", m->label,
             m->img.ptx_arch);
    return;
  }
  int own = own_cubin(m);
  /* ptxas failed (three tries) on PTX of this .version: it fails on the
   * next such module too, most often because NVRTC is newer than ptxas
   * (NVRTC 13.5's PTX 9.5, the toolkit's ptxas 13.0). Trying again would
   * cost every module of a JIT program (CuPy) the tries and a message. */
  static char failed_version[16];
  char version[16];
  ptx_version(m->img.ptx, version, sizeof version);
  if (!own && failed_version[0] && !strcmp(version, failed_version)) return;
  smemu_sass_job *job = m->sass_job;
  m->sass_job = NULL;
  const void *in = own ? (const void *)m->img.cubin : m->img.ptx;
  size_t inlen = own ? m->img.cubin_len : m->img.ptx_len;
  smemu_status s = job   ? smemu_module_count_sass_job(m->mod, job, in, inlen)
                   : own ? smemu_module_count_sass_cubin(m->mod, m->img.cubin, inlen)
                         : smemu_module_count_sass(m->mod, m->img.ptx, inlen);
  int memo = !own && s == SMEMU_ERR_IO && version[0];
  if (memo) snprintf(failed_version, sizeof failed_version, "%s", version);
  /* a missing tool falls back quietly unless sass was asked for; a tool
   * that is there but failed is said, since the counts change */
  if (s != SMEMU_OK && ((c && !strcmp(c, "sass")) || s == SMEMU_ERR_IO))
    rt_msg("%s: %s; %s is counted by PTX rules%s%s", s == SMEMU_ERR_IO ? "SASS counting" : "--counting sass",
           smemu_errmsg(ctx), m->label, memo ? ", as every later module of PTX .version " : "",
           memo ? version : "");
}

cudaError_t rt_module_load(rt_module *m) {
  if (m->mod) return cudaSuccess;
  if (m->load_err) return m->load_err;
  if (m->nparts) {
    smemu_ctx *lctx = rt_ctx();
    if (!lctx) return cudaErrorNoDevice;
    cudaError_t le = rt_module_load_parts(m, lctx);
    if (le) return m->load_err = le;
  } else if (!runnable(m)) {
    warn_no_ptx(m);
    return m->load_err = cudaErrorNoKernelImageForDevice;
  }
  smemu_ctx *ctx = rt_ctx();
  if (!ctx) return cudaErrorNoDevice;
  smemu_status s = SMEMU_OK;
  if (!m->mod) {
    rt_devrt_patch_ptx(&m->img.ptx, &m->img.ptx_len);
    s = smemu_module_load_data(ctx, m->img.ptx, m->img.ptx_len, m->label, &m->mod);
  }
  if (s != SMEMU_OK) {
    rt_msg("cannot load the PTX of %s: %s (%s)%s", m->label, smemu_errmsg(ctx), smemu_status_name(s),
           m->from_driver ? ""
                          : "; `smemu lint PROGRAM` lists every form smemu cannot run, at the line:col of "
                            "the program's embedded PTX (`--save-ptx DIR` writes that PTX out)");
    m->mod = NULL;
    /* a form the GPU's driver refuses too (smemu's message says so) gets the
     * driver's answer; anything else is what a PTX JIT compiler's rejection
     * gives */
    return m->load_err = strstr(smemu_errmsg(ctx), "CUDA_ERROR_NOT_SUPPORTED") ? cudaErrorNotSupported
                                                                               : cudaErrorInvalidPtx;
  }
  note_stand_in(m);
  sass_counting(m, ctx);
  for (rt_func *f = rt.funcs; f; f = f->next) {
    if (f->m != m) continue;
    smemu_status ks = smemu_module_get_kernel(m->mod, f->name, &f->k);
    if (ks != SMEMU_OK) {
      f->k = NULL;
      /* in the PTX but not decodable: keep the decoder's message */
      if (ks != SMEMU_ERR_NOT_FOUND && !f->why) f->why = strdup(smemu_errmsg(ctx));
      continue;
    }
    if (f->max_dyn >= 0) smemu_kernel_set_attribute(f->k, SMEMU_ATTR_MAX_DYNAMIC_SHARED, f->max_dyn);
    if (f->carveout >= 0) smemu_kernel_set_attribute(f->k, SMEMU_ATTR_PREFERRED_CARVEOUT, f->carveout);
  }
  for (rt_var *v = rt.vars; v; v = v->next) {
    void *p;
    if (v->m == m && v->managed_ptr && smemu_module_get_global(m->mod, v->name, &p, NULL) == SMEMU_OK)
      *v->managed_ptr = p;
  }
  return cudaSuccess;
}

void rt_modules_unload(void) {
  for (rt_module *m = rt.mods; m; m = m->next) {
    m->mod = NULL; /* smemu_destroy unloads it */
    if (m->load_err != cudaErrorNoKernelImageForDevice) m->load_err = cudaSuccess;
  }
  for (rt_func *f = rt.funcs; f; f = f->next) {
    f->k = NULL;
    f->max_dyn = -1;
    f->carveout = -1;
  }
}

/* Says once why kernel f, which is in its module's PTX, cannot run. */
void rt_func_warn(rt_func *f) {
  if (f->warned++) return;
  rt_msg("kernel %s cannot run: %s%s", f->name, f->why,
         f->m->from_driver ? ""
                           : " (`smemu lint PROGRAM` lists every form smemu cannot run, at the line:col of "
                             "the program's embedded PTX; `--save-ptx DIR` writes that PTX out)");
}

cudaError_t rt_func_kernel(rt_func *f, smemu_kernel **k) {
  if (!f) return cudaErrorInvalidDeviceFunction;
  cudaError_t e = rt_module_load(f->m);
  if (e) return e;
  if (!f->k && f->why) {
    /* what a GPU says when its PTX JIT compiler rejects a kernel */
    rt_func_warn(f);
    return cudaErrorInvalidPtx;
  }
  if (!f->k) {
    rt_msg("kernel %s is registered but not in the PTX of %s", f->name, f->m->label);
    return cudaErrorInvalidDeviceFunction;
  }
  *k = f->k;
  return cudaSuccess;
}

cudaError_t rt_var_addr(rt_var *v, void **p, size_t *size) {
  if (!v) return cudaErrorInvalidSymbol;
  cudaError_t e = rt_module_load(v->m);
  if (e) return e;
  size_t n;
  if (smemu_module_get_global(v->m->mod, v->name, p, &n) != SMEMU_OK) return cudaErrorInvalidSymbol;
  if (size) *size = v->size ? v->size : n;
  return cudaSuccess;
}

/* ---- the entry points nvcc's host code calls ---- */

RT_EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
  rt_begin(0);
  const fatbin_wrapper *w = fatCubin;
  const void *image = NULL;
  char why[160] = "";
  int rdc = w && w->magic == WRAPPER_MAGIC && w->version == 2 && w->filename_or_fatbins;
  if (w && w->magic == WRAPPER_MAGIC && (w->version == 1 || rdc))
    image = w->data;
  else if (w && w->magic == WRAPPER_MAGIC)
    snprintf(why, sizeof why, "unknown fatbinary wrapper version %d", w->version);
  else if (w && *(const uint32_t *)w == 0xBA55ED50u)
    image = w;
  else
    snprintf(why, sizeof why, "unknown fatbinary wrapper");
  rt_module *m = rt_module_new(image, NULL);
  if (m && !image) snprintf(m->img.err, sizeof m->img.err, "%s", why);
  if (m && rdc && rt_module_rdc_wrapper(m, w) < 0) snprintf(m->img.err, sizeof m->img.err, "out of memory");
  if (m && image && !rdc) sass_ahead(m);
  rt_end(cudaSuccess);
  return (void **)m;
}

RT_EXPORT void __cudaRegisterFatBinaryEnd(void **handle) {
  rt_begin(0);
  rt_module *m = (rt_module *)handle;
  /* a program built for SASS only: say so now, even if it never checks errors */
  if (m && !m->nparts && !runnable(m) && (m->nfuncs || m->nvars)) warn_no_ptx(m);
  rt_end(cudaSuccess);
}

RT_EXPORT void __cudaUnregisterFatBinary(void **handle) {
  (void)handle;
  /* Called from atexit: finish the queued work while the program's data is
   * still alive. Modules stay until the process ends. */
  rt_begin(0);
  if (!rt.unregistered++ && !rt.sticky && rt.ctx) rt_drain();
  rt_end(cudaSuccess);
}

RT_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                      dim3 *bDim, dim3 *gDim, int *wSize) {
  (void)deviceFun;
  (void)thread_limit;
  (void)tid;
  (void)bid;
  (void)bDim;
  (void)gDim;
  (void)wSize;
  rt_begin(0);
  rt_module *m = (rt_module *)handle;
  if (m && deviceName) rt_func_new(m, hostFun, deviceName);
  rt_end(cudaSuccess);
}

static void register_var(rt_module *m, const void *host, void **managed, const char *name, size_t size,
                         int constant) {
  rt_var *v = calloc(1, sizeof *v);
  if (!v) return;
  v->m = m;
  v->host = host;
  v->name = strdup(name);
  v->size = size;
  v->constant = constant;
  v->managed_ptr = managed;
  v->next = rt.vars;
  rt.vars = v;
  m->nvars++;
}

RT_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                                 int ext, size_t size, int constant, int global) {
  (void)deviceAddress;
  (void)ext;
  (void)global;
  rt_begin(0);
  if (handle && deviceName) register_var((rt_module *)handle, hostVar, NULL, deviceName, size, constant);
  rt_end(cudaSuccess);
}

RT_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant,
                                        int global) {
  (void)deviceAddress;
  (void)ext;
  (void)global;
  rt_begin(0);
  if (handle && deviceName)
    register_var((rt_module *)handle, hostVarPtrAddress, hostVarPtrAddress, deviceName, size, constant);
  rt_end(cudaSuccess);
}

RT_EXPORT void __cudaRegisterHostVar(void **handle, const char *deviceName, char *hostVar, size_t size) {
  (void)handle;
  (void)deviceName;
  (void)hostVar;
  (void)size;
}

/* Managed variables need their module loaded before the host touches them. */
RT_EXPORT char __cudaInitModule(void **handle) {
  cudaError_t e = rt_begin(1);
  if (!e && handle) e = rt_module_load((rt_module *)handle);
  rt_end(cudaSuccess);
  return e == cudaSuccess;
}

RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func) {
  rt_begin(0);
  rt_func *f = rt_func_by_host(func);
  if (kernel) *kernel = (cudaKernel_t)f;
  return rt_end(f ? cudaSuccess : cudaErrorInvalidResourceHandle);
}
