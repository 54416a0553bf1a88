/* pocl_run.c: runs every launch of the OpenCL examples' table
 * (examples/cl/cl_example.h) on a real OpenCL implementation, PoCL on the
 * CPU where Debian's pocl-opencl-icd is installed, with the same inputs, and
 * writes each output to OUTDIR/<example>_<label>.bin for test_opencl to
 * compare with smemu's. Built only where OpenCL's headers are
 * (ocl-icd-opencl-dev).
 *
 * usage: cl_pocl_run OUTDIR
 * Exit status: 0 when every launch ran, 77 when there is no OpenCL platform
 * or device (the test skips), 1 on an error, 2 on bad usage. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include "cl_example.h"

/* Prints "pocl_run: WHAT failed (error E)" and returns 0 when e is an error. */
static int cl_ok(cl_int e, const char *what)
{
  if (e == CL_SUCCESS) return 1;
  fprintf(stderr, "pocl_run: %s failed (OpenCL error %d)\n", what, (int)e);
  return 0;
}

/* The first device of the first platform that has one (PoCL's CPU device
 * when it is the only ICD installed). Writes whether it fuses multiply-adds
 * ("fma 1" or "fma 0") to DIR/device.txt. */
static int pick_device(cl_device_id *dev, const char *dir)
{
  cl_platform_id plats[16];
  cl_uint np = 0, i;
  if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) return 0;
  for (i = 0; i < np && i < 16; i++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, dev, &nd) == CL_SUCCESS && nd > 0) {
      char name[256] = "", pname[256] = "";
      clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
      clGetDeviceInfo(*dev, CL_DEVICE_NAME, sizeof name, name, NULL);
      cl_device_fp_config fp = 0;
      char path[1024];
      FILE *f;
      clGetDeviceInfo(*dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
      fprintf(stderr, "pocl_run: platform '%s', device '%s'%s\n", pname, name,
              (fp & CL_FP_FMA) ? ", fused multiply-add" : "");
      snprintf(path, sizeof path, "%s/device.txt", dir);
      if (!(f = fopen(path, "w"))) return 0;
      fprintf(f, "fma %d\n", (fp & CL_FP_FMA) ? 1 : 0);
      return fclose(f) == 0;
    }
  }
  return 0;
}

/* Reads a whole text file (free it); NULL on failure. */
static char *read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  buf = (char *)malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf) buf[n] = 0;
  fclose(f);
  return buf;
}

/* Builds examples/cl/<file>; prints the build log on failure. */
static cl_program build(cl_context cx, cl_device_id dev, const char *argv0, const char *file)
{
  char rel[256], path[1024];
  const char *src;
  char *text;
  cl_int e;
  cl_program prog;
  snprintf(rel, sizeof rel, "examples/cl/%s", file);
  clx_find(argv0, rel, path, sizeof path);
  if (!(text = read_text(path))) {
    fprintf(stderr, "pocl_run: cannot read %s\n", path);
    return NULL;
  }
  src = text;
  prog = clCreateProgramWithSource(cx, 1, &src, NULL, &e);
  free(text);
  if (!cl_ok(e, "clCreateProgramWithSource")) return NULL;
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "pocl_run: building %s failed:\n%s\n", path, log);
    clReleaseProgram(prog);
    return NULL;
  }
  return prog;
}

/* Runs launch c and writes its output to dir. Returns 1 on success. */
static int run_case(cl_context cx, cl_command_queue q, cl_program prog, const clx_case *c,
                    const char *dir)
{
  float *host[CLX_MAX_ARGS];
  cl_mem mem[CLX_MAX_ARGS] = {0};
  cl_kernel k;
  cl_int e;
  size_t global[2], local[2];
  int i, ok = 1, out = clx_out_index(c);
  if (clx_host_buffers(c, host) != 0) {
    fprintf(stderr, "pocl_run: out of host memory\n");
    return 0;
  }
  k = clCreateKernel(prog, c->kernel, &e);
  ok = cl_ok(e, c->kernel);
  for (i = 0; ok && i < CLX_MAX_ARGS && c->args[i].kind != CLX_END; i++) {
    const clx_arg *a = &c->args[i];
    if (a->kind == CLX_IN_F32 || a->kind == CLX_OUT_F32) {
      mem[i] = clCreateBuffer(cx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              (size_t)a->n * sizeof(float), host[i], &e);
      ok = cl_ok(e, "clCreateBuffer") && cl_ok(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &mem[i]), "clSetKernelArg");
    } else if (a->kind == CLX_LOCAL) {
      ok = cl_ok(clSetKernelArg(k, (cl_uint)i, (size_t)a->n, NULL), "clSetKernelArg (__local)");
    } else {
      cl_int v = (cl_int)a->n;
      ok = cl_ok(clSetKernelArg(k, (cl_uint)i, sizeof v, &v), "clSetKernelArg");
    }
  }
  for (i = 0; i < 2; i++) {
    global[i] = c->global[i];
    local[i] = c->local[i];
  }
  if (ok)
    ok = cl_ok(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL), c->label) &&
         cl_ok(clEnqueueReadBuffer(q, mem[out], CL_TRUE, 0, (size_t)c->args[out].n * sizeof(float),
                                   host[out], 0, NULL, NULL),
               "clEnqueueReadBuffer");
  if (ok)
    ok = ex_write_bin(dir, c->example, c->label, host[out], (size_t)c->args[out].n * sizeof(float)) == 0;
  for (i = 0; i < CLX_MAX_ARGS; i++)
    if (mem[i]) clReleaseMemObject(mem[i]);
  if (k) clReleaseKernel(k);
  clx_free_buffers(host);
  if (ok) fprintf(stderr, "pocl_run: %s %s done\n", c->example, c->label);
  return ok;
}

int main(int argc, char **argv)
{
  cl_device_id dev;
  cl_context cx;
  cl_command_queue q;
  cl_program prog = NULL;
  const char *built = NULL;
  cl_int e;
  int i, ok = 1;
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  if (!pick_device(&dev, argv[1])) {
    fprintf(stderr, "pocl_run: no OpenCL platform with a device (install pocl-opencl-icd)\n");
    return 77;
  }
  cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  if (!cl_ok(e, "clCreateContext")) return 1;
  q = clCreateCommandQueue(cx, dev, 0, &e);
  if (!cl_ok(e, "clCreateCommandQueue")) return 1;
  for (i = 0; i < CLX_NCASES && ok; i++) {
    const clx_case *c = &clx_cases[i];
    if (!built || strcmp(built, c->file) != 0) {
      if (prog) clReleaseProgram(prog);
      if (!(prog = build(cx, dev, argv[0], c->file))) {
        ok = 0;
        break;
      }
      built = c->file;
    }
    ok = run_case(cx, q, prog, c, argv[1]);
  }
  if (prog) clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(cx);
  return ok ? 0 : 1;
}
