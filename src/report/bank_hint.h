/* bank_hint.h: advice for a bank-conflicting shared-memory access, from the
 * addresses of its worst warp instance. Advice is given only for a regular
 * pattern (a constant stride between lanes, or two strides when a warp
 * covers several rows) and only when the fix, replayed on the same
 * addresses, removes conflicts. */
#ifndef SMEMU_REPORT_BANK_HINT_H
#define SMEMU_REPORT_BANK_HINT_H

#include <stddef.h>
#include <stdint.h>

typedef struct bank_pattern {
  uint32_t active;   /* lanes that accessed */
  uint32_t addr[32]; /* their byte offsets from the start of the array */
  uint32_t size;     /* bytes per lane (the merged width if merged) */
  uint32_t elem;     /* bytes of one PTX access (size / accesses merged), for the wording; 0: size */
  int banks;         /* 32 (16 on 1.x) */
  int bank_bytes;    /* 4 (8 in Kepler's 8-byte mode) */
  int request_lanes; /* lanes per request: 32 (16 on 1.x) */
} bank_pattern;

/* The conflict degree of a pattern as the hint computes it: the most
 * distinct bank-words one bank serves in one phase (lanes are split into
 * phases of request_lanes * bank_bytes / size lanes for wide accesses). */
uint32_t bank_hint_degree(const bank_pattern *p);

/* Writes the advice lines for p into buf (each "      hint: ...\n" or
 * "      fix: ...\n"). Returns the number of fixes offered; 0 (and an
 * empty buf) when the pattern has no simple fix. */
int bank_hint(const bank_pattern *p, char *buf, size_t n);

#endif
