/* bank_hint.c: which fix suits a bank-conflicting access. The worst warp
 * instance's addresses are fitted to a regular shape (lanes step by C
 * elements, and by D every n lanes when a warp spans rows); each candidate
 * fix (pad the rows, usually to an odd stride; XOR-swizzle the columns; one wide
 * access per thread) is applied to those addresses and replayed through a
 * small bank count, and only fixes that lower the conflicts are offered. */
#include "report/bank_hint.h"

#include <stdio.h>
#include <string.h>

enum { MAX_WORDS = 32 * 6 }; /* a 16-byte access spans at most 5 words of 4 bytes */

uint32_t bank_hint_degree(const bank_pattern *p) {
  uint32_t z = p->size ? p->size : 4, bb = (uint32_t)p->bank_bytes, nb = (uint32_t)p->banks;
  uint32_t rl = (uint32_t)p->request_lanes, per = rl * bb / z;
  if (!per) per = 1;
  if (per > rl) per = rl;
  uint32_t worst = 0;
  for (uint32_t g = 0; g < 32; g += per) {
    uint32_t words[MAX_WORDS], nw = 0, cnt[32] = {0};
    for (uint32_t l = g; l < g + per && l < 32; l++) {
      if (!(p->active >> l & 1)) continue;
      for (uint32_t w = p->addr[l] / bb; w <= (p->addr[l] + z - 1) / bb; w++) {
        uint32_t k = 0;
        while (k < nw && words[k] != w) k++;
        if (k == nw && nw < MAX_WORDS) {
          words[nw++] = w;
          if (++cnt[w % nb] > worst) worst = cnt[w % nb];
        }
      }
    }
  }
  return worst;
}

/* The regular shape of the lanes' element indices: e[l] = B + (l % n) * C +
 * (l / n) * D for the active lanes, with C >= 1. */
typedef struct shape {
  int n;        /* lanes per row of the warp: 32 when one stride fits all */
  int64_t C, D; /* element steps between neighbouring lanes and rows */
} shape;

static int fit(const bank_pattern *p, const int64_t *e, shape *s) {
  int lanes[32], k = 0;
  for (int l = 0; l < 32; l++)
    if (p->active >> l & 1) lanes[k++] = l;
  if (k < 2) return 0;
  int l0 = lanes[0], l1 = lanes[1];
  int64_t d = e[l1] - e[l0];
  if (d <= 0 || d % (l1 - l0)) return 0;
  s->C = d / (l1 - l0);
  for (int n = 32; n >= 2; n /= 2) {
    int64_t D = 0;
    if (n < 32) {
      int j = 0;
      while (j < k && lanes[j] / n == l0 / n) j++;
      if (j == k) continue;
      int l = lanes[j];
      int64_t r = e[l] - e[l0] - (int64_t)(l % n - l0 % n) * s->C;
      if (r % (l / n - l0 / n)) continue;
      D = r / (l / n - l0 / n);
    }
    int ok = 1;
    for (int j = 0; j < k && ok; j++) {
      int l = lanes[j];
      ok = e[l] - e[l0] == (int64_t)(l % n - l0 % n) * s->C + (int64_t)(l / n - l0 / n) * D;
    }
    if (ok) {
      s->n = n;
      s->D = D;
      return 1;
    }
  }
  return 0;
}

/* The pattern with each element index e moved to f(e), elements of z bytes. */
typedef int64_t (*remap_fn)(int64_t e, const int64_t *arg);
static uint32_t degree_after(const bank_pattern *p, const int64_t *e, uint32_t z, remap_fn f,
                             const int64_t *arg) {
  bank_pattern q = *p;
  for (int l = 0; l < 32; l++)
    if (p->active >> l & 1) {
      int64_t x = f(e[l], arg) * (int64_t)z;
      if (x < 0 || x > UINT32_MAX) return ~0u;
      q.addr[l] = (uint32_t)x;
    }
  return bank_hint_degree(&q);
}

/* rows of arg[0] elements padded by arg[1] */
static int64_t pad(int64_t e, const int64_t *arg) { return e / arg[0] * (arg[0] + arg[1]) + e % arg[0]; }

/* rows of arg[0] elements; units of arg[1] elements XORed with row & arg[2] */
static int64_t swizzle(int64_t e, const int64_t *arg) {
  int64_t row = e / arg[0], col = e % arg[0], u = col / arg[1];
  return row * arg[0] + ((u ^ (row & arg[2])) * arg[1]) + col % arg[1];
}

static const char *after(uint32_t d, char *buf, size_t n) {
  if (d <= 1)
    snprintf(buf, n, "no conflicts");
  else
    snprintf(buf, n, "%u-way", d);
  return buf;
}

int bank_hint(const bank_pattern *p, char *buf, size_t n) {
  size_t k = 0;
  if (n) buf[0] = 0;
  uint32_t z = p->size, bb = (uint32_t)p->bank_bytes;
  if (!z || z > 16 || !bb || p->banks <= 0 || p->banks > 32) return 0;
  int64_t e[32] = {0};
  for (int l = 0; l < 32; l++)
    if (p->active >> l & 1) {
      if (p->addr[l] % z) return 0; /* misaligned elements: no row structure to speak of */
      e[l] = p->addr[l] / z;
    }
  /* lanes that step downwards (a column read bottom-up): mirror the
   * indices; conflicts and their fixes do not depend on the direction */
  int l0 = __builtin_ctz(p->active), l1 = l0 + 1;
  while (l1 < 32 && !(p->active >> l1 & 1)) l1++;
  if (l1 < 32 && e[l1] < e[l0]) {
    int64_t hi = 0;
    for (int l = 0; l < 32; l++)
      if ((p->active >> l & 1) && e[l] > hi) hi = e[l];
    for (int l = 0; l < 32; l++)
      if (p->active >> l & 1) e[l] = hi - e[l];
  }
  shape s;
  if (!fit(p, e, &s)) return 0; /* irregular addresses: no simple fix */
  uint32_t d0 = bank_hint_degree(p);
  if (d0 <= 1) return 0;
  char fixes[3][320], a[32];
  int nf = 0;
  /* 1. padded rows: rows of C elements padded by P (in bank words for
   *    elements narrower than a word); the smallest P with the fewest
   *    conflicts, usually 1 (an odd stride), 2 when a warp reads two rows */
  int64_t unit = z < bb ? (int64_t)(bb / z) : 1, P = 0;
  uint32_t d1 = d0;
  for (int64_t q = unit; q <= 8 * unit && d1 > 1; q += unit) {
    int64_t arg[3] = {s.C, q, 0};
    uint32_t d = degree_after(p, e, z, pad, arg);
    if (d < d1) {
      d1 = d;
      P = q;
    }
  }
  /* in the program's elements: a merged access of 4 floats pads by 4 */
  uint32_t ez = p->elem && p->elem < z && z % p->elem == 0 ? p->elem : z;
  int64_t f = (int64_t)(z / ez), C = s.C * f;
  if (P)
    snprintf(
        fixes[nf++], sizeof fixes[0],
        "fix: pad each row of %lld elements by %lld: [..][%lld] instead of [..][%lld] (for 1-D indexing, "
        "a stride of %lld): %s",
        (long long)C, (long long)(P * f), (long long)(C + P * f), (long long)C, (long long)(C + P * f),
        after(d1, a, sizeof a));
  /* 2. XOR swizzle, for rows that span all the banks (a power-of-two number
   *    of units of max(element, bank word)) */
  uint32_t U = z > bb ? z : bb;
  int64_t eu = U / z, cu = s.C * (int64_t)z / (int64_t)U, span = (int64_t)p->banks * bb / U;
  if ((s.C * (int64_t)z) % (int64_t)(p->banks * bb) == 0 && cu >= 2 && !(cu & (cu - 1))) {
    int64_t arg2[3] = {s.C, eu, (cu < span ? cu : span) - 1};
    uint32_t d2 = degree_after(p, e, z, swizzle, arg2);
    if (d2 < d0)
      snprintf(
          fixes[nf++], sizeof fixes[0],
          "fix: keep the rows unpadded and XOR-swizzle the column: col ^ (row %% %lld), in %u-byte units: %s",
          (long long)(arg2[2] + 1), U, after(d2, a, sizeof a));
  }
  /* 3. one wide access per thread instead of C narrow ones */
  int64_t v = s.C * (int64_t)z;
  if (s.n == 32 && (v == 8 || v == 16) && z <= 8) {
    if ((e[l0] - l0 * s.C) % s.C == 0) {
      bank_pattern q = *p;
      q.size = (uint32_t)v;
      uint32_t d3 = bank_hint_degree(&q);
      if (d3 < d0)
        snprintf(
            fixes[nf++], sizeof fixes[0],
            "fix: if each thread uses these %lld consecutive elements, read them with one %lld-byte access "
            "(%s): %s",
            (long long)s.C, (long long)v, v == 8 ? "float2, int2" : "float4, int4", after(d3, a, sizeof a));
    }
  }
  if (!nf) return 0;
  long long words = (long long)(s.C * (int64_t)z / (int64_t)bb);
  char wide[64] = "";
  if (f > 1) snprintf(wide, sizeof wide, " (each lane reads %u bytes)", z);
  char why[160] = "";
  if ((s.C * (int64_t)z) % (int64_t)bb == 0)
    snprintf(why, sizeof why, " = %lld bank word%s", words, words == 1 ? "" : "s");
  char rows[96] = "";
  if (s.n < 32) snprintf(rows, sizeof rows, ", and by %lld every %d lanes", (long long)s.D, s.n);
  k += (size_t)snprintf(
      buf + k, n > k ? n - k : 0,
      "      hint: the lanes step by %lld element%s of %u bytes (%lld bytes%s)%s%s: up to %u of "
      "them meet on one bank\n",
      (long long)C, C == 1 ? "" : "s", ez, (long long)(s.C * (int64_t)z), why, rows, wide, d0);
  for (int i = 0; i < nf && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "      %s\n", fixes[i]);
  return nf;
}
