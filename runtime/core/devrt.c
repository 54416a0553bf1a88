/* devrt.c: the device runtime functions smemu supplies as PTX. A module
 * that declares one of them `.extern .func` (it would come from NVIDIA's
 * libcudadevrt.a, which holds no PTX) gets the definition in place of the
 * declaration before it is loaded, written on one line so that the
 * module's line numbers stay:
 *   cudaGraphSetConditional(handle, value)  stores the value of a graph's
 *       conditional node (the handle is the value's address, graph_cond.c);
 *   cudaCGGetIntrinsicHandle(scope)  the grid's workspace (%envreg1:2), the
 *       handle of a grid group (Numba's cuda.cg.this_grid());
 *   cudaCGSynchronize(handle, flags)  the grid barrier on that workspace,
 *       the protocol of cooperative_groups/details/sync.h: every block's
 *       first thread adds to the arrival word (the block of (0,0,0) adds
 *       0x80000000 minus the other blocks) and waits for its top bit to
 *       flip, between two block barriers. It needs a cooperative launch. */
#include "core/devrt.h"
#include <stdlib.h>
#include <string.h>

typedef struct devrt_fn {
  const char *name;
  const char *body;
} devrt_fn;

static const devrt_fn fns[] = {
    {"cudaGraphSetConditional",
     ".func cudaGraphSetConditional(.param .b64 smemu_p0, .param .b32 smemu_p1) { .reg .b64 %smemu_ch; .reg "
     ".b32 "
     "%smemu_cv; ld.param.u64 %smemu_ch, [smemu_p0]; ld.param.u32 %smemu_cv, [smemu_p1]; st.global.u32 "
     "[%smemu_ch], %smemu_cv; ret; }"},
    {"cudaCGGetIntrinsicHandle",
     ".func (.param .b64 smemu_r) cudaCGGetIntrinsicHandle(.param .b32 smemu_p0) { .reg .b32 %smemu_hi, "
     "%smemu_lo; .reg .b64 %smemu_h, %smemu_l; mov.u32 %smemu_hi, %envreg1; mov.u32 %smemu_lo, %envreg2; "
     "cvt.u64.u32 %smemu_h, %smemu_hi; cvt.u64.u32 %smemu_l, %smemu_lo; shl.b64 %smemu_h, %smemu_h, 32; "
     "or.b64 "
     "%smemu_h, %smemu_h, %smemu_l; st.param.b64 [smemu_r], %smemu_h; ret; }"},
    {"cudaCGSynchronize",
     ".func (.param .b32 smemu_r) cudaCGSynchronize(.param .b64 smemu_p0, .param .b32 smemu_p1) { .reg .b64 "
     "%smemu_a; .reg .b32 %smemu_t<3>, %smemu_n, %smemu_x, %smemu_y, %smemu_nb, %smemu_old, %smemu_cur; .reg "
     ".pred %smemu_m, %smemu_g, %smemu_q; ld.param.u64 %smemu_a, [smemu_p0]; add.u64 %smemu_a, %smemu_a, 4; "
     "bar.sync 0; mov.u32 %smemu_t0, %tid.x; mov.u32 %smemu_t1, %tid.y; mov.u32 %smemu_t2, %tid.z; or.b32 "
     "%smemu_t0, %smemu_t0, %smemu_t1; or.b32 %smemu_t0, %smemu_t0, %smemu_t2; setp.ne.u32 %smemu_m, "
     "%smemu_t0, 0; @%smemu_m bra $smemu_cg_done; mov.u32 %smemu_n, %nctaid.x; mov.u32 %smemu_x, %nctaid.y; "
     "mul.lo.u32 %smemu_n, %smemu_n, %smemu_x; mov.u32 %smemu_x, %nctaid.z; mul.lo.u32 %smemu_n, %smemu_n, "
     "%smemu_x; mov.u32 %smemu_x, %ctaid.x; mov.u32 %smemu_y, %ctaid.y; or.b32 %smemu_x, %smemu_x, %smemu_y; "
     "mov.u32 %smemu_y, %ctaid.z; or.b32 %smemu_x, %smemu_x, %smemu_y; setp.eq.u32 %smemu_g, %smemu_x, 0; "
     "mov.u32 %smemu_nb, 1; @%smemu_g sub.u32 %smemu_nb, 0x80000001, %smemu_n; atom.add.release.gpu.u32 "
     "%smemu_old, [%smemu_a], %smemu_nb; $smemu_cg_spin: ld.acquire.gpu.u32 %smemu_cur, [%smemu_a]; xor.b32 "
     "%smemu_x, %smemu_old, %smemu_cur; and.b32 %smemu_x, %smemu_x, 0x80000000; setp.eq.u32 %smemu_q, "
     "%smemu_x, 0; @%smemu_q bra $smemu_cg_spin; $smemu_cg_done: bar.sync 0; st.param.b32 [smemu_r], 0; ret; "
     "}"},
};

/* The `.extern .func` declaration of name in ptx: its first character and
 * the ';' that ends it, or NULL. */
static char *find_decl(char *ptx, const char *name, char **end) {
  size_t n = strlen(name);
  for (char *at = strstr(ptx, ".extern .func"); at; at = strstr(at + 1, ".extern .func")) {
    char *e = strchr(at, ';');
    if (!e) return NULL;
    for (char *p = at; p + n <= e; p++)
      if (!memcmp(p, name, n) && (p[n] == '(' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n') &&
          (p[-1] == ' ' || p[-1] == '\t' || p[-1] == ')' || p[-1] == '\n')) {
        *end = e;
        return at;
      }
    at = e;
  }
  return NULL;
}

/* Replace [at, end] of *ptx by body and as many newlines as it held. */
static int define(char **ptx, size_t *len, char *at, char *end, const char *body) {
  size_t nl = 0, blen = strlen(body);
  for (char *p = at; p < end; p++) nl += *p == '\n';
  size_t head = (size_t)(at - *ptx), tail = *len - (size_t)(end + 1 - *ptx);
  size_t n = head + blen + nl + tail;
  char *out = malloc(n + 1);
  if (!out) return -1;
  memcpy(out, *ptx, head);
  memcpy(out + head, body, blen);
  memset(out + head + blen, '\n', nl);
  memcpy(out + head + blen + nl, end + 1, tail);
  out[n] = 0;
  free(*ptx);
  *ptx = out;
  *len = n;
  return 0;
}

void rt_devrt_patch_ptx(char **ptx, size_t *len) {
  if (!*ptx) return;
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
    char *end, *at = find_decl(*ptx, fns[i].name, &end);
    if (at && define(ptx, len, at, end, fns[i].body) < 0) return;
  }
}

int rt_devrt_library(const char *name) { return name && strstr(name, "cudadevrt") != NULL; }

int rt_devrt_unit(const char *ptx) {
  return ptx && strstr(ptx, "__CNPRT_VERSION_NUMBER__") && strstr(ptx, "cudartErrorCnpMap");
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.';
}

int rt_ptx_defined_funcs(const char *ptx, char ***names, int *n) {
  static const char *const heads[] = {".visible .func", ".weak .func"};
  for (int h = 0; h < 2; h++)
    for (const char *at = strstr(ptx, heads[h]); at; at = strstr(at + 1, heads[h])) {
      const char *p = at + strlen(heads[h]);
      while (*p == ' ' || *p == '\t' || *p == '\n') p++;
      if (*p == '(') { /* the return parameters */
        p = strchr(p, ')');
        if (!p) break;
        p++;
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
      }
      size_t k = 0;
      while (ident_char(p[k])) k++;
      if (!k) continue;
      char **l = realloc(*names, (size_t)(*n + 1) * sizeof *l);
      if (!l) return -1;
      *names = l;
      if (!(l[*n] = strndup(p, k))) return -1;
      (*n)++;
    }
  return 0;
}

void rt_ptx_stub_externs(char **ptx, size_t *len, char *const *names, int n) {
  for (int i = 0; *ptx && i < n; i++) {
    char *end, *at = find_decl(*ptx, names[i], &end);
    if (!at) continue;
    /* ".extern .func SIG;" -> "        .func SIG{ret;}": the same lines */
    size_t head = (size_t)(at - *ptx), tail = *len - (size_t)(end + 1 - *ptx);
    char *out = malloc(*len + 8);
    if (!out) return;
    memcpy(out, *ptx, head);
    memset(out + head, ' ', 7);
    size_t sig = (size_t)(end - at) - 7;
    memcpy(out + head + 7, at + 7, sig);
    memcpy(out + head + 7 + sig, "{ret;}", 6);
    memcpy(out + head + 13 + sig, end + 1, tail);
    out[head + 13 + sig + tail] = 0;
    free(*ptx);
    *ptx = out;
    *len = head + 13 + sig + tail;
  }
}
