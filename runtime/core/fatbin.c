/* fatbin.c: reads the device code nvcc embeds in a program. A fatbinary
 * (magic 0xBA55ED50: a 16-byte header, then entries, each a header and a
 * payload) holds PTX entries (kind 1) and cubins (kind 2, ELF with SASS),
 * each for one architecture, the payload compressed with zstd (CUDA 13's
 * default for PTX) or LZ4 where a flag says so. The runtime runs the PTX;
 * the cubin that ptxas made for the emulated architecture supplies what
 * only ptxas knows: registers and frame size per kernel, user constant
 * bytes. The decompressors are Debian's libzstd / liblz4, opened with
 * dlopen so that building smemu needs neither's headers. */
#include "mem/bytes.h"
#include "rt.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
/* An entry built for an arch-specific target (compute_90a / sm_90a): nvcc
 * sets this bit of the entry's flags; its code runs only on exactly that
 * architecture. */
#define FLAG_ARCH_SPECIFIC 0x100000u
#define MAX_ENTRY (1ull << 28) /* a decompressed entry larger than this is corrupt */

/* ---- decompression through dlopen'ed libraries ---- */

typedef size_t (*zstd_dec_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_err_fn)(size_t);
typedef size_t (*zstd_frame_fn)(const void *, size_t);
typedef int (*lz4_dec_fn)(const char *, char *, int, int);

static void *lib_sym(const char *const *libs, const char *sym) {
  for (int i = 0; libs[i]; i++) {
    void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h) {
      void *f = dlsym(h, sym);
      if (f) return f;
    }
  }
  return NULL;
}

static const char *const zstd_libs[] = {"libzstd.so.1", "libzstd.so", NULL};
static const char *const lz4_libs[] = {"liblz4.so.1", "liblz4.so", NULL};

/* Decompress an entry's payload into a malloc'd buffer of `out_size` bytes
 * plus a NUL. Returns NULL with err set on failure. */
static uint8_t *decompress(const uint8_t *src, size_t src_len, size_t out_size, uint64_t flags, char *err,
                           size_t en) {
  uint8_t *out = malloc(out_size + 1);
  if (!out) {
    snprintf(err, en, "out of memory");
    return NULL;
  }
  if (flags & FLAG_ZSTD) {
    zstd_dec_fn dec = (zstd_dec_fn)lib_sym(zstd_libs, "ZSTD_decompress");
    zstd_err_fn iserr = (zstd_err_fn)lib_sym(zstd_libs, "ZSTD_isError");
    zstd_frame_fn frame = (zstd_frame_fn)lib_sym(zstd_libs, "ZSTD_findFrameCompressedSize");
    if (!dec || !iserr) {
      snprintf(err, en,
               "the PTX is compressed with zstd and libzstd.so.1 cannot be loaded "
               "(install Debian's libzstd1, or rebuild with nvcc -Xfatbin -compress-all=false)");
      free(out);
      return NULL;
    }
    if (frame) {
      size_t fl = frame(src, src_len);
      if (!iserr(fl) && fl <= src_len) src_len = fl;
    }
    size_t r = dec(out, out_size, src, src_len);
    if (iserr(r)) {
      snprintf(err, en, "the zstd-compressed entry does not decompress");
      free(out);
      return NULL;
    }
    out[r] = 0;
    return out;
  }
  if (flags & FLAG_LZ4) {
    lz4_dec_fn dec = (lz4_dec_fn)lib_sym(lz4_libs, "LZ4_decompress_safe");
    if (!dec) {
      snprintf(err, en,
               "the entry is compressed with LZ4 and liblz4.so.1 cannot be loaded (install liblz4-1)");
      free(out);
      return NULL;
    }
    int r = dec((const char *)src, (char *)out, (int)src_len, (int)out_size);
    if (r < 0) {
      snprintf(err, en, "the LZ4-compressed entry does not decompress");
      free(out);
      return NULL;
    }
    out[r] = 0;
    return out;
  }
  memcpy(out, src, src_len < out_size ? src_len : out_size);
  out[src_len < out_size ? src_len : out_size] = 0;
  return out;
}

/* ---- cubin (ELF) figures ---- */

#define EIATTR_FRAME_SIZE 0x11
#define EIATTR_REGCOUNT 0x2f

static fb_kinfo *kinfo_for(fb_image *img, const char *name) {
  for (int i = 0; i < img->nkinfo; i++)
    if (!strcmp(img->kinfo[i].name, name)) return &img->kinfo[i];
  fb_kinfo *k = realloc(img->kinfo, (size_t)(img->nkinfo + 1) * sizeof *k);
  if (!k) return NULL;
  img->kinfo = k;
  k = &img->kinfo[img->nkinfo];
  k->name = strdup(name);
  if (!k->name) return NULL;
  k->regs = -1;
  k->frame = -1;
  img->nkinfo++;
  return k;
}

/* Read the registers and frame size of each kernel from the cubin's
 * .nv.info section (records: format byte, attribute byte, then for the
 * format with a size, a 16-bit size and {symbol index, value}). */
static void read_cubin(const uint8_t *e, size_t n, fb_image *img) {
  if (n < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2) return;
  uint64_t shoff = rd64(e + 0x28);
  uint16_t shentsize = rd16(e + 0x3a), shnum = rd16(e + 0x3c), shstrndx = rd16(e + 0x3e);
  if (shentsize < 64 || shoff > n || (uint64_t)shnum * shentsize > n - shoff || shstrndx >= shnum) return;
#define SH(i) (e + shoff + (size_t)(i)*shentsize)
  const uint8_t *shstr = SH(shstrndx);
  uint64_t stroff = rd64(shstr + 24), strsz = rd64(shstr + 32);
  if (stroff > n || strsz > n - stroff) return;
  const uint8_t *symtab = NULL, *symstr = NULL;
  uint64_t nsyms = 0, symstrsz = 0;
  for (int i = 0; i < shnum; i++) {
    const uint8_t *s = SH(i);
    if (rd32(s + 4) == 2) { /* SHT_SYMTAB */
      uint64_t off = rd64(s + 24), sz = rd64(s + 32);
      uint32_t link = rd32(s + 40);
      if (off > n || sz > n - off || link >= shnum) continue;
      symtab = e + off;
      nsyms = sz / 24;
      const uint8_t *ls = SH(link);
      uint64_t lo = rd64(ls + 24), lz = rd64(ls + 32);
      if (lo > n || lz > n - lo) return;
      symstr = e + lo;
      symstrsz = lz;
    }
  }
  if (!symtab) return;
  for (int i = 0; i < shnum; i++) {
    const uint8_t *s = SH(i);
    uint32_t nm = rd32(s);
    if (nm >= strsz) continue;
    const char *name = (const char *)e + stroff + nm;
    uint64_t off = rd64(s + 24), sz = rd64(s + 32);
    if (off > n || sz > n - off) continue;
    if (!strcmp(name, ".nv.constant3")) img->const_bytes = (uint32_t)sz;
    if (strcmp(name, ".nv.info")) continue;
    const uint8_t *b = e + off;
    for (uint64_t o = 0; o + 2 <= sz;) {
      uint8_t fmt = b[o], attr = b[o + 1];
      if (fmt == 4) {
        if (o + 4 > sz) break;
        uint16_t len = rd16(b + o + 2);
        if (o + 4 + len > sz) break;
        if ((attr == EIATTR_REGCOUNT || attr == EIATTR_FRAME_SIZE) && len >= 8) {
          uint32_t sym = rd32(b + o + 4), val = rd32(b + o + 8);
          if (sym < nsyms) {
            uint32_t sn = rd32(symtab + (size_t)sym * 24);
            if (sn < symstrsz) {
              fb_kinfo *k = kinfo_for(img, (const char *)symstr + sn);
              if (k && attr == EIATTR_REGCOUNT) k->regs = (int)val;
              if (k && attr == EIATTR_FRAME_SIZE) k->frame = (int)val;
            }
          }
        }
        o += 4 + (uint64_t)len;
      } else if (fmt == 1) {
        o += 2;
      } else if (fmt == 2 || fmt == 3) {
        o += 4;
      } else {
        break;
      }
    }
  }
#undef SH
}

/* ---- the container ---- */

static int looks_like_ptx(const char *s) { return !strncmp(s, "//", 2) || strstr(s, ".version") != NULL; }

/* The architecture of a PTX text: its .target sm_XX (0 when absent). */
static int ptx_target(const char *ptx) {
  const char *t = strstr(ptx, ".target");
  if (!t) return 0;
  t += 7;
  while (*t == ' ' || *t == '\t') t++;
  if (strncmp(t, "sm_", 3)) return 0;
  return atoi(t + 3);
}

static int elf_score(int arch, int cc) {
  return arch == cc ? 1000000 : arch < cc ? 100000 + arch : 10000 - arch;
}

/* A GPU of compute capability cc runs a cubin for arch: the same major
 * architecture, not newer; an arch-specific cubin (sm_90a) on its own
 * architecture alone. */
static int sass_runs_on(int arch, int specific, int cc) {
  return arch / 10 == cc / 10 && arch <= cc && (!specific || arch == cc);
}

static void add_arch(int *list, int *n, int arch) {
  if (*n < 16) list[(*n)++] = arch;
}

int fb_parse(const void *data, int cc, fb_image *out) { return fb_parse_n(data, SIZE_MAX, cc, out); }

int fb_parse_n(const void *data, size_t avail, int cc, fb_image *out) {
  memset(out, 0, sizeof *out);
  const uint8_t *d = data;
  if (!d || avail < 4) {
    snprintf(out->err, sizeof out->err, "no image");
    return -1;
  }
  if (rd32(d) != FATBIN_MAGIC) {
    if (!memcmp(d, "\177ELF", 4)) {
      snprintf(out->err, sizeof out->err, "the image is a cubin (SASS only)");
      return 0;
    }
    /* text: only when it ends inside the bytes there are */
    if (strnlen((const char *)d, avail) < avail && looks_like_ptx((const char *)d)) {
      out->ptx_len = strlen((const char *)d);
      out->ptx = malloc(out->ptx_len + 1);
      if (!out->ptx) return -1;
      memcpy(out->ptx, d, out->ptx_len + 1);
      out->ptx_arch = ptx_target(out->ptx);
      add_arch(out->ptx_archs, &out->nptx, out->ptx_arch);
      return 0;
    }
    snprintf(out->err, sizeof out->err, "the image is neither a fatbinary, PTX text nor a cubin");
    return -1;
  }
  if (avail < 16) {
    snprintf(out->err, sizeof out->err, "the fatbinary is truncated");
    return -1;
  }
  uint16_t hdr = rd16(d + 6);
  uint64_t total = rd64(d + 8);
  if (hdr < 16 || hdr > avail) hdr = 16;
  if (total > avail - hdr) total = avail - hdr;
  const uint8_t *p = d + hdr, *end = d + hdr + total;
  const uint8_t *best_ptx = NULL, *low_ptx = NULL, *best_elf = NULL;
  int best_ptx_arch = -1, low_ptx_arch = 1 << 30, best_elf_arch = -1, best_ptx_specific = 0, sass_here = 0;
  while (p + 16 <= end) {
    uint16_t kind = rd16(p);
    uint32_t ehdr = rd32(p + 4);
    uint64_t size = rd64(p + 8);
    if (ehdr < 16 || (uint64_t)(end - p) < ehdr || (uint64_t)(end - p) - ehdr < size) break;
    int arch = ehdr >= 32 ? (int)rd32(p + 28) : 0;
    int specific = ehdr >= 48 && (rd64(p + 40) & FLAG_ARCH_SPECIFIC);
    if (kind == KIND_PTX) {
      add_arch(out->ptx_archs, &out->nptx, arch);
      /* compute_90a PTX runs on sm_90 alone, and there it is the better
       * choice: the program was built to use its features there (the
       * __CUDA_ARCH_FEAT_SM90_ALL code paths), whatever the entry order */
      if (specific && arch == cc && !best_ptx_specific) {
        best_ptx = p;
        best_ptx_arch = arch;
        best_ptx_specific = 1;
      } else if (!specific && arch <= cc && arch > best_ptx_arch) {
        best_ptx = p;
        best_ptx_arch = arch;
        best_ptx_specific = 0;
      }
      if (arch < low_ptx_arch) {
        low_ptx = p;
        low_ptx_arch = arch;
      }
    } else if (kind == KIND_ELF) {
      add_arch(out->sass_archs, &out->nsass, arch);
      sass_here |= sass_runs_on(arch, specific, cc);
      /* the exact architecture, else the newest one below it, else the closest above */
      int better = best_elf_arch < 0 || elf_score(arch, cc) > elf_score(best_elf_arch, cc);
      if (better) {
        best_elf = p;
        best_elf_arch = arch;
      }
    }
    p += ehdr + size;
  }
  if (!best_ptx && low_ptx) {
    out->ptx_too_new = 1;
    out->ptx_stands_in = sass_here;
    best_ptx = low_ptx;
    best_ptx_arch = low_ptx_arch;
  }
  for (int pass = 0; pass < 2; pass++) {
    const uint8_t *ent = pass ? best_elf : best_ptx;
    if (!ent) continue;
    uint32_t ehdr = rd32(ent + 4);
    uint64_t size = rd64(ent + 8);
    uint64_t flags = ehdr >= 48 ? rd64(ent + 40) : 0;
    uint64_t csize = ehdr >= 20 ? rd32(ent + 16) : 0;
    uint64_t usize = ehdr >= 64 ? rd64(ent + 56) : 0;
    const uint8_t *payload = ent + ehdr;
    size_t in_len = size, out_len = size;
    if (flags & (FLAG_ZSTD | FLAG_LZ4)) {
      if (csize && csize <= size) in_len = csize;
      out_len = usize ? usize : size * 16;
    }
    if (out_len > MAX_ENTRY || size > MAX_ENTRY) {
      if (!pass)
        snprintf(out->err, sizeof out->err, "a fatbinary entry claims %llu bytes: corrupt",
                 (unsigned long long)(out_len > size ? out_len : size));
      continue;
    }
    char err[256];
    uint8_t *buf = decompress(payload, in_len, out_len, flags, err, sizeof err);
    if (!buf) {
      if (!pass) snprintf(out->err, sizeof out->err, "%s", err);
      continue;
    }
    if (!pass) {
      out->ptx = (char *)buf;
      out->ptx_len = strlen(out->ptx);
      out->ptx_arch = best_ptx_arch;
      if (!out->ptx_arch) out->ptx_arch = ptx_target(out->ptx);
    } else {
      out->cubin_arch = best_elf_arch;
      read_cubin(buf, out_len, out);
      out->cubin = buf; /* kept for SASS-informed counting */
      out->cubin_len = out_len;
    }
  }
  if (!out->ptx && !out->err[0]) {
    char archs[96] = "";
    size_t k = 0;
    for (int i = 0; i < out->nsass && k < sizeof archs; i++)
      k += (size_t)snprintf(archs + k, sizeof archs - k, "%ssm_%d", i ? ", " : "", out->sass_archs[i]);
    snprintf(out->err, sizeof out->err, "the fatbinary holds no PTX (SASS only: %s)",
             out->nsass ? archs : "none");
  }
  return 0;
}

void fb_free(fb_image *img) {
  free(img->ptx);
  free(img->cubin);
  for (int i = 0; i < img->nkinfo; i++) free(img->kinfo[i].name);
  free(img->kinfo);
  memset(img, 0, sizeof *img);
}

const fb_kinfo *fb_kernel(const fb_image *img, const char *name) {
  for (int i = 0; i < img->nkinfo; i++)
    if (!strcmp(img->kinfo[i].name, name)) return &img->kinfo[i];
  return NULL;
}
