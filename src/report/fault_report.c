/* fault_report.c: a bad address in compute-sanitizer memcheck's words, as
 * recorded on an H100 (tests/hw/sanitizer): "Invalid __global__ write of
 * size 4 bytes", the kernel and line, the thread and block, "Access to 0x..
 * is out of bounds / misaligned" and where the nearest allocation lies,
 * counted from its last byte ("1 bytes after" for one past the end), sizes
 * and distances with grouped digits; inside inlined functions the
 * innermost one and line, then a "Device Frame" line per call site. */
#include "report/grouped.h"
#include "smemu.h"
#include <inttypes.h>

#define PFX "========= "

int smemu_write_fault_text(const smemu_fault *ft, FILE *f) {
  if (!ft || !f || !ft->access) return -1;
  char name[1024], g[48];
  smemu_demangle(ft->func ? ft->func : ft->kernel ? ft->kernel : "?", name, sizeof name);
  fprintf(f, PFX "Invalid __%s__ %s of size %u bytes\n", ft->space, ft->write ? "write" : "read", ft->size);
  if (ft->file)
    fprintf(f, PFX "    at %s in %s:%u\n", name, ft->file, ft->line);
  else
    fprintf(f, PFX "    at %s in PTX line %u\n", name, ft->ptx_line);
  fprintf(f, PFX "    by thread (%u,%u,%u) in block (%u,%u,%u)\n", ft->thread[0], ft->thread[1],
          ft->thread[2], ft->block[0], ft->block[1], ft->block[2]);
  if (ft->remote_cta >= 0)
    fprintf(f, PFX "    Access to 0x%" PRIx64 " in CTA %d is %s\n", ft->address, ft->remote_cta,
            ft->misaligned ? "misaligned" : "out of bounds");
  else
    fprintf(f, PFX "    Access to 0x%" PRIx64 " is %s\n", ft->address,
            ft->misaligned ? "misaligned" : "out of bounds");
  if (ft->near_size) {
    uint64_t a = ft->address, b = ft->near_base, end = ft->near_base + ft->near_size;
    if (a >= b && a < end)
      fprintf(f, PFX "    and is inside the nearest allocation at 0x%" PRIx64 " of size %s bytes\n", b,
              report_grouped(g, sizeof g, ft->near_size));
    else if (a >= end)
      fprintf(f,
              PFX "    and is %s bytes after the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                  " bytes\n",
              report_grouped(g, sizeof g, a - end + 1), b, ft->near_size);
    else
      fprintf(f,
              PFX "    and is %s bytes before the nearest allocation at 0x%" PRIx64 " of size %" PRIu64
                  " bytes\n",
              report_grouped(g, sizeof g, b - a), b, ft->near_size);
  }
  smemu_write_frames(ft->frames, ft->nframes, f);
  fputs(PFX "\n", f);
  return 0;
}

void smemu_write_frames(const smemu_frame *fr, uint32_t n, FILE *f) {
  char name[1024];
  for (uint32_t i = 0; i < n && i < SMEMU_MAX_FRAMES; i++) {
    smemu_demangle(fr[i].func ? fr[i].func : "?", name, sizeof name);
    fprintf(f, PFX "        Device Frame: %s in %s:%u\n", name, fr[i].file ? fr[i].file : "?", fr[i].line);
  }
}
