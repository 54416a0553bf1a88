/* test_races_hw.c: the race and barrier checker against compute-sanitizer.
 * Every case of tests/hw/races/manifest.tsv is run on smemu with
 * SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC and compared with what racecheck
 * and synccheck said on an H200 (tests/hw/races/vectors.tsv, made by
 * record.sh and parse.py): the same set of hazards (type, severity and the
 * unordered pair of access kind + source line) and the same barrier errors
 * (kind and line). Cases the recording lacks (or all of them, before there
 * is one) are checked against the manifest's expect column instead. The
 * rules are in tests/hw/races/README.md; cases listed in
 * tests/hw/races/known_differences.txt are reported but not failed.
 * RACES_VERBOSE=1 prints what smemu found for every case; RACES_VECTORS=PATH
 * compares with another vectors.tsv (a fresh recording, before copying it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

#define DIR "tests/hw/races/"
#define WORDS 8192        /* RACES_WORDS of races.cuh */
#define MAXC 96           /* cases */
#define MAXH 128          /* hazards or barrier errors of one case */

/* A row of manifest.tsv. */
typedef struct row {
  char name[64], file[64], kernel[64], flags[64], expect[1024];
  uint32_t grid[3], block[3], shared;
  int n;
} row;

/* A hazard or barrier error, as compared: acc/line pairs sorted so that the
 * pair is unordered; for barrier errors only type (the kind) and a[0]. */
typedef struct item {
  char type[32], sev[16];
  char acc[2][16], file[2][64];
  int line[2];
  uint64_t count;
  char set[256];     /* barrier errors: the threads named, as ranges ("0-15,32") */
} item;

/* The recording of one case (vectors.tsv). */
typedef struct rec {
  char name[64];
  int plain_ok, races_done, sync_done;
  char checksum[24];
  item hz[MAXH], sy[MAXH];
  int nhz, nsy;
} rec;

static row g_rows[MAXC];
static int g_nrows;
static rec g_recs[MAXC];
static int g_nrecs;
static char g_known[4096]; /* known_differences.txt, names between blanks */

static int has_flag(const row *r, const char *f)
{
  char buf[80];
  snprintf(buf, sizeof buf, ",%s,", f);
  char flags[80];
  snprintf(flags, sizeof flags, ",%s,", r->flags);
  return strstr(flags, buf) != NULL;
}

static const char *base(const char *p)
{
  if (!p) return "-";
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* "X" / "XxY" / "XxYxZ" */
static void dims(const char *s, uint32_t d[3])
{
  d[0] = d[1] = d[2] = 1;
  sscanf(s, "%ux%ux%u", &d[0], &d[1], &d[2]);
}

/* Splits line at tabs into at most max fields; returns the count. */
static int split(char *line, char **f, int max)
{
  int n = 0;
  line[strcspn(line, "\r\n")] = 0;
  for (char *p = line; n < max;) {
    f[n++] = p;
    p = strchr(p, '\t');
    if (!p) break;
    *p++ = 0;
  }
  return n;
}

static void load_manifest(void)
{
  FILE *f = fopen(DIR "manifest.tsv", "r");
  if (!f) fail_msg("cannot open " DIR "manifest.tsv (run from the repository root)");
  char line[2048], *c[10];
  while (fgets(line, sizeof line, f) && g_nrows < MAXC) {
    if (line[0] == '#' || line[0] == '\n') continue;
    if (split(line, c, 10) < 9) continue;
    row *r = &g_rows[g_nrows++];
    snprintf(r->name, sizeof r->name, "%s", c[0]);
    snprintf(r->file, sizeof r->file, "%s", c[1]);
    snprintf(r->kernel, sizeof r->kernel, "%s", c[2]);
    dims(c[3], r->grid);
    dims(c[4], r->block);
    r->shared = (uint32_t)atoi(c[5]);
    r->n = atoi(c[6]);
    snprintf(r->flags, sizeof r->flags, "%s", c[7]);
    snprintf(r->expect, sizeof r->expect, "%s", c[8]);
  }
  fclose(f);
}

static rec *find_rec(const char *name)
{
  for (int i = 0; i < g_nrecs; i++)
    if (!strcmp(g_recs[i].name, name)) return &g_recs[i];
  return NULL;
}

/* Puts the pair of an item in a canonical order. */
static void sort_pair(item *it)
{
  int swap = it->line[0] > it->line[1] ||
             (it->line[0] == it->line[1] && strcmp(it->acc[0], it->acc[1]) > 0);
  if (!swap) return;
  char t[64];
  memcpy(t, it->acc[0], sizeof it->acc[0]);
  memcpy(it->acc[0], it->acc[1], sizeof it->acc[0]);
  memcpy(it->acc[1], t, sizeof it->acc[0]);
  memcpy(t, it->file[0], sizeof it->file[0]);
  memcpy(it->file[0], it->file[1], sizeof it->file[0]);
  memcpy(it->file[1], t, sizeof it->file[0]);
  int l = it->line[0]; it->line[0] = it->line[1]; it->line[1] = l;
}

static void load_vectors(void)
{
  const char *path = getenv("RACES_VECTORS");
  FILE *f = fopen(path ? path : DIR "vectors.tsv", "r");
  if (!f) {
    if (path) fail_msg("cannot open RACES_VECTORS=%s", path);
    return;
  }
  char line[1024], *c[12];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    int n = split(line, c, 12);
    if (!strcmp(c[0], "case") && n >= 6 && g_nrecs < MAXC) {
      rec *r = &g_recs[g_nrecs++];
      memset(r, 0, sizeof *r);
      snprintf(r->name, sizeof r->name, "%s", c[1]);
      r->plain_ok = atoi(c[2]);
      snprintf(r->checksum, sizeof r->checksum, "%s", c[3]);
      r->races_done = atoi(c[4]);
      r->sync_done = atoi(c[5]);
    } else if (!strcmp(c[0], "hazard") && n >= 11) {
      rec *r = find_rec(c[1]);
      if (!r || r->nhz >= MAXH) continue;
      item *it = &r->hz[r->nhz++];
      memset(it, 0, sizeof *it);
      snprintf(it->type, sizeof it->type, "%s", c[2]);
      snprintf(it->sev, sizeof it->sev, "%s", c[3]);
      snprintf(it->acc[0], sizeof it->acc[0], "%s", c[4]);
      snprintf(it->file[0], sizeof it->file[0], "%s", c[5]);
      it->line[0] = atoi(c[6]);
      snprintf(it->acc[1], sizeof it->acc[1], "%s", c[7]);
      snprintf(it->file[1], sizeof it->file[1], "%s", c[8]);
      it->line[1] = atoi(c[9]);
      it->count = strtoull(c[10], NULL, 10);
    } else if (!strcmp(c[0], "sync") && n >= 6) {
      rec *r = find_rec(c[1]);
      if (!r || r->nsy >= MAXH) continue;
      item *it = &r->sy[r->nsy++];
      memset(it, 0, sizeof *it);
      snprintf(it->type, sizeof it->type, "%s", c[2]);
      snprintf(it->file[0], sizeof it->file[0], "%s", c[3]);
      it->line[0] = atoi(c[4]);
      it->count = strtoull(c[5], NULL, 10);
      if (n >= 7) snprintf(it->set, sizeof it->set, "%s", c[6]);
    }
  }
  fclose(f);
}

static void load_known(void)
{
  FILE *f = fopen(DIR "known_differences.txt", "r");
  if (!f) return;
  char line[256];
  size_t used = 0;
  g_known[used++] = ' ';
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char name[128];
    if (sscanf(line, "%127s", name) != 1) continue;
    int k = snprintf(g_known + used, sizeof g_known - used, "%s ", name);
    if (k < 0 || (size_t)k >= sizeof g_known - used) break;
    used += (size_t)k;
  }
  fclose(f);
}

static int is_known(const char *name)
{
  char buf[80];
  snprintf(buf, sizeof buf, " %s ", name);
  return strstr(g_known, buf) != NULL;
}

/* The line of marker `//@name` in the case's .cu file, 0 when absent. */
static int marker_line(const row *r, const char *name)
{
  char path[256], line[512], tag[80];
  snprintf(path, sizeof path, DIR "%s", r->file);
  snprintf(tag, sizeof tag, "//@%s", name);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int ln = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    line[strcspn(line, "\r\n")] = 0;
    size_t a = strlen(line), b = strlen(tag);
    while (a && (line[a - 1] == ' ' || line[a - 1] == '\t')) line[--a] = 0;
    if (a >= b && !strcmp(line + a - b, tag)) {
      found = ln;
      break;
    }
  }
  fclose(f);
  return found;
}

static unsigned long long fnv1a(const void *p, size_t n)
{
  const unsigned char *b = (const unsigned char *)p;
  unsigned long long h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* What smemu found for one case. */
typedef struct found {
  int status;
  char err[512];
  item hz[MAXH], sy[MAXH], ghz[MAXH];
  int nhz, nsy, nghz;
  unsigned long long checksum;
} found;

/* "0-15,32" for the set bits of a 1024-bit thread set. */
static void set_ranges(const uint32_t bits[32], char *out, size_t n)
{
  size_t len = 0;
  out[0] = 0;
  for (int t = 0; t < 1024; t++) {
    if (!(bits[t / 32] >> (t % 32) & 1)) continue;
    int e = t;
    while (e + 1 < 1024 && (bits[(e + 1) / 32] >> ((e + 1) % 32) & 1)) e++;
    if (len < n)
      len += (size_t)snprintf(out + len, n - len, e > t ? "%s%d-%d" : "%s%d", len ? "," : "", t, e);
    t = e;
  }
  if (!len) snprintf(out, n, "-");
}

/* Runs the case on smemu with the given analyses. */
static void run_case(const row *r, uint32_t analyses, found *out)
{
  memset(out, 0, sizeof *out);
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = analyses;
  o.schedule = SMEMU_SCHEDULE_FIXED;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  char path[256], stem[64];
  snprintf(stem, sizeof stem, "%s", r->file);
  char *dot = strrchr(stem, '.');
  if (dot) *dot = 0;
  snprintf(path, sizeof path, DIR "%s.ptx", stem);
  if (smemu_module_load_file(c, path, &m) != SMEMU_OK) fail_msg("%s: %s", path, smemu_errmsg(c));
  if (smemu_module_get_kernel(m, r->kernel, &k) != SMEMU_OK)
    fail_msg("%s: %s", r->kernel, smemu_errmsg(c));
  int *in, *dout;
  assert_int_equal(smemu_malloc(c, (void **)&in, WORDS * sizeof(int)), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&dout, WORDS * sizeof(int)), SMEMU_OK);
  for (int i = 0; i < WORDS; i++) in[i] = (i * 37 + 11) % 1009; /* driver.cu's races_input */
  assert_int_equal(smemu_memset(c, dout, 0, WORDS * sizeof(int)), SMEMU_OK);
  int nn = r->n;
  void *args[] = {&dout, &in, &nn};
  out->status = smemu_launch(c, k, r->grid, r->block, r->shared, args);
  snprintf(out->err, sizeof out->err, "%s", smemu_errmsg(c));
  out->checksum = fnv1a(dout, WORDS * sizeof(int));
  for (int i = 0; i < smemu_hazard_count(c); i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    if (!h) continue;
    int *nh = h->global ? &out->nghz : &out->nhz;
    item *it = h->global ? &out->ghz[*nh] : &out->hz[*nh];
    if (*nh >= MAXH) continue;
    (*nh)++;
    memset(it, 0, sizeof *it);
    snprintf(it->type, sizeof it->type, "%s", h->type ? h->type : "?");
    snprintf(it->sev, sizeof it->sev, "%s", h->error ? "error" : "warning");
    snprintf(it->acc[0], sizeof it->acc[0], "%s", h->first_access ? h->first_access : "?");
    snprintf(it->acc[1], sizeof it->acc[1], "%s", h->second_access ? h->second_access : "?");
    snprintf(it->file[0], sizeof it->file[0], "%s", base(h->first_file));
    snprintf(it->file[1], sizeof it->file[1], "%s", base(h->second_file));
    it->line[0] = (int)h->first_line;
    it->line[1] = (int)h->second_line;
    it->count = h->count;
  }
  for (int i = 0; i < smemu_sync_error_count(c) && out->nsy < MAXH; i++) {
    const smemu_sync_error *e = smemu_sync_error_get(c, i);
    if (!e) continue;
    item *it = &out->sy[out->nsy++];
    memset(it, 0, sizeof *it);
    snprintf(it->type, sizeof it->type, "%s", e->kind ? e->kind : "?");
    snprintf(it->file[0], sizeof it->file[0], "%s", base(e->file));
    it->line[0] = (int)e->line;
    it->count = e->count;
    set_ranges(e->threads, it->set, sizeof it->set);
  }
  smemu_destroy(c);
}

/* The comparison key of a hazard: type, severity and the two accesses
 * (kind@file:line). With `anyorder`, RAW and WAR are one class "RW" (which
 * comes first depends on timing). */
static void hz_key(const item *h, int anyorder, char *key, size_t n)
{
  item t = *h;
  if (anyorder && (!strcmp(t.type, "RAW") || !strcmp(t.type, "WAR")))
    snprintf(t.type, sizeof t.type, "RW");
  /* RAW and WAR name which access came first; a WAW pair, or an RW one,
   * is unordered */
  if (!strcmp(t.type, "RW") || !strcmp(t.acc[0], t.acc[1])) sort_pair(&t);
  snprintf(key, n, "%s %s %s@%s:%d %s@%s:%d", t.type, t.sev, t.acc[0], t.file[0], t.line[0],
           t.acc[1], t.file[1], t.line[1]);
}

/* synccheck says "Invalid arguments" for both of these. */
static const char *sync_class(const char *kind)
{
  if (!strcmp(kind, "warp-sync-mask") || !strcmp(kind, "barrier-count")) return "invalid-arguments";
  return kind;
}

static void sy_key(const item *e, char *key, size_t n)
{
  snprintf(key, n, "%s %s:%d", sync_class(e->type), e->file[0], e->line[0]);
}

/* Compares two key sets; prints what one side lacks. Returns mismatches. */
static int compare_sets(const char *what, const char *name, char (*a)[160], int na,
                        char (*b)[160], int nb)
{
  int bad = 0;
  for (int i = 0; i < na; i++) {
    int hit = 0, dup = 0;
    for (int j = 0; j < nb; j++) hit |= !strcmp(a[i], b[j]);
    for (int j = 0; j < i; j++) dup |= !strcmp(a[i], a[j]);
    if (!hit && !dup) {
      print_error("%s: %s on the GPU, not on smemu: %s\n", name, what, a[i]);
      bad++;
    }
  }
  for (int j = 0; j < nb; j++) {
    int hit = 0, dup = 0;
    for (int i = 0; i < na; i++) hit |= !strcmp(b[j], a[i]);
    for (int i = 0; i < j; i++) dup |= !strcmp(b[j], b[i]);
    if (!hit && !dup) {
      print_error("%s: %s on smemu, not on the GPU: %s\n", name, what, b[j]);
      bad++;
    }
  }
  return bad;
}

static int hz_found(const row *r, const item *hz, int nhz, const char *spec, int *parsed);

/* Is hazard h named by a required (non-?) hazard item of the expect column? */
static int expected_item(const row *r, const item *h)
{
  char ex[1024], *save = NULL;
  snprintf(ex, sizeof ex, "%s", r->expect);
  for (char *it = strtok_r(ex, ";", &save); it; it = strtok_r(NULL, ";", &save)) {
    int parsed;
    if (it[0] != '?' && strncmp(it, "sync/", 5) && strncmp(it, "global/", 7) && strcmp(it, "none") &&
        hz_found(r, h, 1, it, &parsed))
      return 1;
  }
  return 0;
}

/* `beyond` cases: smemu reports true hazards racecheck does not, because
 * racecheck remembers fewer accesses per byte (measured: it keeps only the
 * last reader, tests/hw/races README). Such a hazard passes when the expect
 * column names it (so it stays required); every recorded hazard must still
 * be found. Removes them from b; returns the new count. */
static int drop_beyond(const row *r, const found *f, char (*a)[160], int na, char (*b)[160], int nb)
{
  int out = 0;
  for (int j = 0; j < nb; j++) {
    int seen = 0;
    for (int i = 0; i < na; i++) seen |= !strcmp(a[i], b[j]);
    if (!seen && expected_item(r, &f->hz[j])) {
      print_message("%s: note: beyond racecheck (expected): %s\n", r->name, b[j]);
      continue;
    }
    if (out != j) memcpy(b[out], b[j], sizeof b[out]);
    out++;
  }
  return out;
}

/* Against the recording. */
static int check_recording(const row *r, const rec *v, const found *f, int exact)
{
  static char a[MAXH][160], b[MAXH][160];
  int bad = 0, any = has_flag(r, "anyorder");
  if (v->races_done) {
    for (int i = 0; i < v->nhz; i++) hz_key(&v->hz[i], any, a[i], sizeof a[i]);
    for (int i = 0; i < f->nhz; i++) hz_key(&f->hz[i], any, b[i], sizeof b[i]);
    int nb = f->nhz;
    if (has_flag(r, "beyond") && !exact) nb = drop_beyond(r, f, a, v->nhz, b, nb);
    bad += compare_sets("hazard", r->name, a, v->nhz, b, nb);
    /* counts: racecheck's [N hazards] (bytes) against smemu's, for the log */
    for (int i = 0; i < v->nhz; i++)
      for (int j = 0; j < f->nhz; j++)
        if (!strcmp(a[i], b[j]) && v->hz[i].count != f->hz[j].count)
          print_message("%s: note: %s: %llu hazards on the GPU, %llu on smemu\n", r->name, a[i],
                        (unsigned long long)v->hz[i].count, (unsigned long long)f->hz[j].count);
  } else {
    print_message("%s: racecheck did not complete in the recording; hazards not compared\n", r->name);
  }
  if (v->sync_done) {
    for (int i = 0; i < v->nsy; i++) sy_key(&v->sy[i], a[i], sizeof a[i]);
    for (int i = 0; i < f->nsy; i++) sy_key(&f->sy[i], b[i], sizeof b[i]);
    bad += compare_sets("barrier error", r->name, a, v->nsy, b, f->nsy);
    /* the threads synccheck names, and how many errors (one per thread) */
    for (int i = 0; i < v->nsy; i++)
      for (int j = 0; j < f->nsy; j++)
        if (!strcmp(a[i], b[j]) && v->sy[i].set[0] &&
            (strcmp(v->sy[i].set, f->sy[j].set) || v->sy[i].count != f->sy[j].count)) {
          print_error("%s: barrier error %s: threads %s (%llu) on the GPU, %s (%llu) on smemu\n", r->name,
                      a[i], v->sy[i].set, (unsigned long long)v->sy[i].count, f->sy[j].set,
                      (unsigned long long)f->sy[j].count);
          bad++;
        }
  } else {
    print_message("%s: synccheck did not complete in the recording; barrier errors not compared\n",
                  r->name);
  }
  if (has_flag(r, "det") && v->plain_ok && strcmp(v->checksum, "-")) {
    unsigned long long want = strtoull(v->checksum, NULL, 16);
    if (want != f->checksum) {
      print_error("%s: output checksum %016llx, the GPU's %016llx\n", r->name, f->checksum, want);
      bad++;
    }
  }
  return bad;
}

/* Does smemu's hazard list hold the expected item TYPE/SEV/ACC@M/ACC@M? */
static int hz_found(const row *r, const item *hz, int nhz, const char *spec, int *parsed)
{
  char type[16], sev[16], a1[16], m1[32], a2[16], m2[32];
  *parsed = sscanf(spec, "%15[^/]/%15[^/]/%15[^@]@%31[^/]/%15[^@]@%31s", type, sev, a1, m1, a2, m2) == 6;
  if (!*parsed) return 0;
  item want;
  memset(&want, 0, sizeof want);
  snprintf(want.type, sizeof want.type, "%s", type);
  snprintf(want.sev, sizeof want.sev, "%s", sev);
  snprintf(want.acc[0], sizeof want.acc[0], "%s", a1);
  snprintf(want.acc[1], sizeof want.acc[1], "%s", a2);
  snprintf(want.file[0], sizeof want.file[0], "%s", r->file);
  snprintf(want.file[1], sizeof want.file[1], "%s", r->file);
  want.line[0] = marker_line(r, m1);
  want.line[1] = marker_line(r, m2);
  if (!want.line[0] || !want.line[1]) {
    *parsed = 0;
    return 0;
  }
  int any = !strcmp(type, "RW");
  char wk[160], k[160];
  hz_key(&want, any, wk, sizeof wk);
  for (int i = 0; i < nhz; i++) {
    hz_key(&hz[i], any, k, sizeof k);
    if (!strcmp(k, wk)) return 1;
  }
  return 0;
}

/* Does smemu's barrier error list hold sync/KIND@M1|M2? */
static int sy_found(const row *r, const item *sy, int nsy, const char *spec, int *parsed)
{
  char kind[32], ms[96];
  *parsed = sscanf(spec, "sync/%31[^@]@%95s", kind, ms) == 2;
  if (!*parsed) return 0;
  for (char *m = strtok(ms, "|"); m; m = strtok(NULL, "|")) {
    int line = marker_line(r, m);
    if (!line) {
      *parsed = 0;
      return 0;
    }
    for (int i = 0; i < nsy; i++)
      if (!strcmp(sy[i].type, kind) && sy[i].line[0] == line && !strcmp(sy[i].file[0], r->file))
        return 1;
  }
  return 0;
}

static void dump(const row *r, const found *f)
{
  char k[160];
  for (int i = 0; i < f->nhz; i++) {
    const item *h = &f->hz[i];
    print_message("%s:   smemu hazard %s %s %s@%s:%d then %s@%s:%d (%llu)\n", r->name, h->type, h->sev,
                  h->acc[0], h->file[0], h->line[0], h->acc[1], h->file[1], h->line[1],
                  (unsigned long long)h->count);
  }
  for (int i = 0; i < f->nsy; i++) {
    sy_key(&f->sy[i], k, sizeof k);
    print_message("%s:   smemu barrier error %s [%s] (%llu) threads %s\n", r->name, k, f->sy[i].type,
                  (unsigned long long)f->sy[i].count, f->sy[i].set);
  }
}

/* Against the manifest's expect column: every item without '?' must be
 * found; a case that expects no hazard (no hazard item at all, '?' ones
 * included) must have none, and likewise for barrier errors. */
static int check_expect(const row *r, const found *f)
{
  char ex[1024];
  snprintf(ex, sizeof ex, "%s", r->expect);
  int bad = 0, hz_items = 0, sy_items = 0;
  char *save = NULL;
  for (char *it = strtok_r(ex, ";", &save); it; it = strtok_r(NULL, ";", &save)) {
    int optional = it[0] == '?';
    const char *spec = optional ? it + 1 : it;
    int parsed = 1, hit;
    if (!strcmp(spec, "none")) continue;
    if (!strncmp(spec, "global/", 7)) continue; /* the global run's */
    if (!strncmp(spec, "sync/", 5)) {
      sy_items++;
      hit = sy_found(r, f->sy, f->nsy, spec, &parsed);
    } else {
      hz_items++;
      hit = hz_found(r, f->hz, f->nhz, spec, &parsed);
    }
    if (!parsed) fail_msg("%s: bad expect item '%s' (or a marker missing from %s)", r->name, it, r->file);
    if (!hit && !optional) {
      print_error("%s: expected %s, not found on smemu\n", r->name, spec);
      bad++;
    } else if (!hit) {
      print_message("%s: note: %s (doubtful, not required) not found on smemu\n", r->name, spec);
    }
  }
  if (!hz_items && f->nhz) {
    print_error("%s: expected no hazard, smemu found %d\n", r->name, f->nhz);
    bad++;
  }
  if (!sy_items && f->nsy) {
    print_error("%s: expected no barrier error, smemu found %d\n", r->name, f->nsy);
    bad++;
  }
  return bad;
}

/* The global-memory run of cases flagged "global": informational for '?'
 * items, required for the others. */
static int check_global(const row *r)
{
  found *f = calloc(1, sizeof *f);
  assert_non_null(f);
  run_case(r, SMEMU_ANALYZE_GLOBAL_RACES, f);
  char ex[1024];
  snprintf(ex, sizeof ex, "%s", r->expect);
  int bad = 0;
  char *save = NULL;
  for (char *it = strtok_r(ex, ";", &save); it; it = strtok_r(NULL, ";", &save)) {
    int optional = it[0] == '?';
    const char *spec = optional ? it + 1 : it;
    if (strncmp(spec, "global/", 7)) continue;
    int parsed, hit = hz_found(r, f->ghz, f->nghz, spec + 7, &parsed);
    if (!parsed) fail_msg("%s: bad expect item '%s'", r->name, it);
    if (!hit && !optional) {
      print_error("%s: expected %s with SMEMU_ANALYZE_GLOBAL_RACES, not found\n", r->name, spec);
      bad++;
    } else {
      print_message("%s: %s: %s with SMEMU_ANALYZE_GLOBAL_RACES\n", r->name, spec,
                    hit ? "found" : "not found (not required)");
    }
  }
  /* and nothing else: a global hazard no global/ item names is a false
   * positive (different bytes of one word, the fence-then-atomic pattern) */
  for (int i = 0; i < f->nghz; i++) {
    int named = 0;
    snprintf(ex, sizeof ex, "%s", r->expect);
    for (char *it = strtok_r(ex, ";", &save); it; it = strtok_r(NULL, ";", &save)) {
      const char *spec = it[0] == '?' ? it + 1 : it;
      int parsed;
      if (!strncmp(spec, "global/", 7) && hz_found(r, &f->ghz[i], 1, spec + 7, &parsed)) named = 1;
    }
    if (!named) {
      print_error("%s: unexpected global hazard %s %s %s@%s:%d %s@%s:%d\n", r->name, f->ghz[i].type,
                  f->ghz[i].sev, f->ghz[i].acc[0], f->ghz[i].file[0], f->ghz[i].line[0], f->ghz[i].acc[1],
                  f->ghz[i].file[1], f->ghz[i].line[1]);
      bad++;
    }
  }
  free(f);
  return bad;
}

/* smemu aggregates hazards per pair of source lines, as racecheck's
 * analysis mode is read: no pair of lines may come
 * twice with one type and class. Returns the repeats. */
static int check_unique(const row *r, const found *f)
{
  char a[160], b[160];
  int bad = 0;
  for (int i = 0; i < f->nhz; i++)
    for (int j = 0; j < i; j++) {
      hz_key(&f->hz[i], 0, a, sizeof a);
      hz_key(&f->hz[j], 0, b, sizeof b);
      if (!strcmp(a, b)) {
        print_error("%s: smemu reports one pair of lines twice: %s\n", r->name, a);
        bad++;
      }
    }
  return bad;
}

static void test_case(void **state)
{
  const row *r = (const row *)*state;
  found *f = calloc(1, sizeof *f);
  assert_non_null(f);
  run_case(r, SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC, f);
  int bad = 0;
  if (f->status != SMEMU_OK && !has_flag(r, "fault")) {
    print_error("%s: launch failed: %s: %s\n", r->name, smemu_status_name((smemu_status)f->status), f->err);
    bad++;
  }
  const rec *v = find_rec(r->name);
  if (v)
    bad += check_recording(r, v, f, 0);
  if (!v || has_flag(r, "beyond"))
    bad += check_expect(r, f);
  if (v) {
    /* SMEMU_ANALYZE_RACECHECK_COMPAT: exactly the recording, `beyond`
     * cases included */
    found *fc = calloc(1, sizeof *fc);
    assert_non_null(fc);
    run_case(r, SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_RACECHECK_COMPAT, fc);
    int cb = check_recording(r, v, fc, 1);
    if (cb) print_error("%s: %d difference(s) with SMEMU_ANALYZE_RACECHECK_COMPAT\n", r->name, cb);
    bad += cb;
    free(fc);
  }
  if (has_flag(r, "global")) bad += check_global(r);
  bad += check_unique(r, f);
  if (bad || getenv("RACES_VERBOSE")) dump(r, f);
  free(f);
  if (bad && is_known(r->name)) {
    print_message("%s: %d difference(s), listed in known_differences.txt\n", r->name, bad);
    bad = 0;
  }
  assert_int_equal(bad, 0);
}

int main(void)
{
  load_manifest();
  load_vectors();
  load_known();
  const char *vpath = getenv("RACES_VECTORS") ? getenv("RACES_VECTORS") : DIR "vectors.tsv";
  print_message("race corpus: %d cases, %d recorded on a GPU (%s%s)\n", g_nrows, g_nrecs, vpath,
                g_nrecs ? "" : " absent: checking the manifest's expect column");
  static struct CMUnitTest tests[MAXC];
  for (int i = 0; i < g_nrows; i++) {
    tests[i].name = g_rows[i].name;
    tests[i].test_func = test_case;
    tests[i].setup_func = NULL;
    tests[i].teardown_func = NULL;
    tests[i].initial_state = &g_rows[i];
  }
  return _cmocka_run_group_tests("races_hw", tests, (size_t)g_nrows, NULL, NULL);
}
