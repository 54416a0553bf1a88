/* lint.c: `smemu lint FILE`, which decodes every kernel of FILE without
 * running it and lists each form smemu cannot run, with file:line:col.
 * FILE is PTX text, CUDA C (.cu, compiled with nvcc) or a program binary,
 * whose embedded PTX is read from its .nv_fatbin section with the
 * runtime's fatbinary reader (runtime/fatbin.c). */
#include "lint.h"
#include "../runtime/rt.h"
#include "mem/bytes.h"
#include "smemu.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const usage_lint =
    "usage: smemu lint [--arch sm_XX] [--save-ptx DIR] [--quiet] FILE\n"
    "\n"
    "Decodes every kernel of FILE without running it and lists each\n"
    "instruction, modifier or operand smemu cannot run, as\n"
    "FILE:LINE:COL: message (kernel NAME), every one of a kernel, each\n"
    "statement once. FILE is PTX text, CUDA C (.cu: compiled to PTX with\n"
    "nvcc for --arch, sm_90a by default; the CUDA toolkit must be on the\n"
    "PATH) or a program built with nvcc, whose embedded PTX is linted (the\n"
    "fatbinary's PTX for --arch's compute capability; LINE:COL are the\n"
    "lines of that PTX: --save-ptx DIR writes it there as PROGRAM.N.ptx).\n"
    "A program built with -rdc=true has each translation unit's PTX linted\n"
    "with the functions the other units define.\n"
    "\n"
    "exit status: 0 every kernel decodes; 1 some do not (or FILE holds no\n"
    "PTX); 2 bad usage or an unreadable file\n";

typedef struct lint_state {
  int quiet;
  int shown;
} lint_state;

static void report(void *user, const char *kernel, const char *msg) {
  lint_state *s = user;
  s->shown++;
  if (s->quiet) return;
  if (kernel)
    printf("%s (kernel %s)\n", msg, kernel);
  else
    printf("%s\n", msg);
}

/* The file's bytes, NUL-terminated, or NULL when it cannot be read whole. */
static uint8_t *slurp(const char *path, size_t *len) {
  int err;
  char *buf = file_read(path, len, &err);
  if (err) {
    free(buf);
    return NULL;
  }
  return (uint8_t *)buf;
}

/* The .nv_fatbin section of a 64-bit little-endian ELF file: its bytes, or
 * NULL when there is none (or the headers do not fit the file). */
static const uint8_t *fatbin_section(const uint8_t *e, size_t n, const char *want, size_t *size) {
  if (n < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2 || e[5] != 1) return NULL;
  uint64_t shoff = rd64(e + 0x28);
  uint16_t shentsize = rd16(e + 0x3a), shnum = rd16(e + 0x3c), shstrndx = rd16(e + 0x3e);
  if (shentsize < 64 || shstrndx >= shnum || shoff > n || (uint64_t)shnum * shentsize > n - shoff)
    return NULL;
  const uint8_t *strh = e + shoff + (size_t)shstrndx * shentsize;
  uint64_t stroff = rd64(strh + 0x18), strsize = rd64(strh + 0x20);
  if (stroff > n || strsize > n - stroff) return NULL;
  for (uint16_t i = 0; i < shnum; i++) {
    const uint8_t *sh = e + shoff + (size_t)i * shentsize;
    uint32_t name = rd32(sh);
    uint64_t off = rd64(sh + 0x18), sz = rd64(sh + 0x20);
    if (name >= strsize || rd32(sh + 4) == 8 /* SHT_NOBITS */) continue;
    const char *nm = (const char *)e + stroff + name;
    if (strnlen(nm, strsize - name) == strsize - name) continue;
    if ((want ? !strcmp(nm, want) : !strcmp(nm, ".nv_fatbin") || !strcmp(nm, "__nv_relfatbin")) && off <= n &&
        sz <= n - off) {
      *size = sz;
      return e + off;
    }
  }
  return NULL;
}

/* The device runtime functions `smemu run` supplies (cudaGraphSetConditional,
 * the grid group's calls) are defined first, as at load time; so are the
 * nlinked functions other translation units of an -rdc program define
 * (empty: they are linted in their own unit). */
static int lint_text(const char *ptx, size_t len, const char *name, lint_state *s, int *kernels,
                     char *const *linked, int nlinked) {
  int nk = 0;
  char *own = malloc(len + 1);
  size_t n = len;
  if (own) {
    memcpy(own, ptx, len);
    own[len] = 0;
    rt_devrt_patch_ptx(&own, &n);
    rt_ptx_stub_externs(&own, &n, linked, nlinked);
  }
  int p = smemu_lint_ptx(own ? own : ptx, own ? n : len, name, report, s, &nk);
  free(own);
  *kernels += nk;
  return p;
}

/* Each fatbinary of the section: its PTX for compute capability cc. The
 * units of an -rdc program (rdc: the __nv_relfatbin section) are linted
 * each with the functions the others define (and NVIDIA's device runtime
 * unit not at all: smemu supplies it); `names` collects those functions
 * (the pass with names NULL does only that). */
static int lint_program(const char *path, const uint8_t *fb, size_t size, int cc, const char *save,
                        lint_state *s, int *kernels, int *modules, int rdc, char ***names, int *nnames) {
  int problems = 0;
  for (size_t off = 0; off + 16 <= size;) {
    if (rd32(fb + off) != 0xBA55ED50u) {
      off += 8;
      continue;
    }
    uint16_t hdr = rd16(fb + off + 6);
    uint64_t total = rd64(fb + off + 8);
    fb_image img;
    int ok = fb_parse_n(fb + off, size - off, cc, &img) == 0 && img.ptx && !(rdc && rt_devrt_unit(img.ptx));
    if (ok && !kernels) {
      if (rt_ptx_defined_funcs(img.ptx, names, nnames) < 0) problems++;
    } else if (ok) {
      char name[4096];
      (*modules)++;
      snprintf(name, sizeof name, "%s[ptx %d]", path, *modules);
      if (save) {
        const char *base = strrchr(path, '/');
        char out[4096];
        snprintf(out, sizeof out, "%s/%s.%d.ptx", save, base ? base + 1 : path, *modules);
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(img.ptx, 1, img.ptx_len, f) != img.ptx_len)
          fprintf(stderr, "smemu lint: cannot write %s: %s\n", out, strerror(errno));
        else
          snprintf(name, sizeof name, "%s", out);
        if (f) fclose(f);
      }
      int p = lint_text(img.ptx, img.ptx_len, name, s, kernels, rdc ? *names : NULL, rdc ? *nnames : 0);
      problems += p < 0 ? 1 : p;
    }
    fb_free(&img);
    if (hdr < 16 || total > size - off - 16) break;
    off += hdr + total;
    off = (off + 7) & ~(size_t)7;
  }
  return problems;
}

int smemu_cmd_lint(int argc, char **argv) {
  const char *arch = "sm_90a", *save = NULL, *file = NULL;
  lint_state s = {0, 0};
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_lint, stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--arch") && i + 1 < argc)
      arch = argv[++i];
    else if (!strcmp(argv[i], "--save-ptx") && i + 1 < argc)
      save = argv[++i];
    else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
      s.quiet = 1;
    else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "smemu lint: unknown option '%s'\n%s", argv[i], usage_lint);
      return 2;
    } else if (!file)
      file = argv[i];
    else {
      fprintf(stderr, "smemu lint: one FILE at a time\n%s", usage_lint);
      return 2;
    }
  }
  if (!file) {
    fputs(usage_lint, stderr);
    return 2;
  }
  int cc = 0;
  if (strncmp(arch, "sm_", 3) || (cc = atoi(arch + 3)) < 10 || cc > 200) {
    fprintf(stderr, "smemu lint: --arch takes sm_XX, not '%s'\n", arch);
    return 2;
  }
  size_t len = 0;
  uint8_t *data = NULL;
  int problems = 0, kernels = 0, modules = 0;
  size_t fl = strlen(file);
  if (fl > 3 && !strcmp(file + fl - 3, ".cu")) {
    char err[512];
    char *ptx = cu_to_ptx(file, arch, &len, err, sizeof err);
    if (!ptx) {
      fprintf(stderr, "smemu lint: %s\n", err);
      return 2;
    }
    data = (uint8_t *)ptx;
  } else if (!(data = slurp(file, &len))) {
    fprintf(stderr, "smemu lint: cannot read %s: %s\n", file, strerror(errno));
    return 2;
  }
  size_t fbsize = 0;
  const uint8_t *fb = fatbin_section(data, len, NULL, &fbsize);
  char **names = NULL;
  int nnames = 0;
  if (fb) {
    size_t relsize = 0;
    const uint8_t *rel = fatbin_section(data, len, "__nv_relfatbin", &relsize);
    problems = lint_program(file, fb, fbsize, cc, save, &s, &kernels, &modules, 0, NULL, NULL);
    /* -rdc: the linked image is SASS; each unit's PTX is beside it */
    if (!modules && rel && rel != fb) {
      problems += lint_program(file, rel, relsize, cc, NULL, &s, NULL, &modules, 1, &names, &nnames);
      problems += lint_program(file, rel, relsize, cc, save, &s, &kernels, &modules, 1, &names, &nnames);
    }
    if (!modules) {
      printf("%s: the program holds no PTX smemu can read (SASS only: build with -gencode "
             "...,code=compute_XX)\n",
             file);
      problems = 1;
    }
  } else if (len >= 4 && !memcmp(data, "\177ELF", 4)) {
    printf("%s: an ELF file without CUDA device code (.nv_fatbin)\n", file);
    problems = 1;
  } else {
    int p = lint_text((const char *)data, len, file, &s, &kernels, NULL, 0);
    problems = p < 0 ? 1 : p;
    modules = 1;
  }
  free(data);
  for (int i = 0; i < nnames; i++) free(names[i]);
  free(names);
  printf("smemu lint: %s: %d kernel%s, %d problem%s\n", file, kernels, kernels == 1 ? "" : "s", problems,
         problems == 1 ? "" : "s");
  return problems ? 1 : 0;
}
