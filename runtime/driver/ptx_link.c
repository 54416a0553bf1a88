/* ptx_link.c: joining PTX modules into one, for the JIT linker
 * (cuLinkAddData with several PTX inputs: numba-cuda links its kernels
 * with the PTX of its runtime, nrt.cu, and of helpers such as
 * reshape_funcs.cu). A module's top-level statements are read apart
 * (directives, declarations, definitions with their bodies) and the second
 * module is appended to the first:
 *   - the header (.version, .target, .address_size) is the first's, with
 *     the higher .version of the two;
 *   - an `.extern` declaration of a symbol the other module defines loses
 *     its .extern (it becomes the prototype of that definition), and a
 *     declaration of a symbol the first module already has is dropped;
 *   - a symbol both define: weak definitions keep the first; two strong
 *     visible definitions are an error, as for nvlink;
 *   - a function declared with a result but defined without one gets the
 *     declared result list (nvlink does not compare them either);
 *   - the second module's own (non-visible) symbols that the first also
 *     uses get another name ($lN appended);
 *   - the second module's debug information (.file, .loc, .section) is
 *     dropped: its lines do not show in reports.
 * The result is PTX text smemu's parser reads like any module. */
#include "ptx_link.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stmt {
  const char *s;  /* start in the module's text */
  size_t n;       /* length, the terminating ; or } included */
  char name[256]; /* the symbol it declares or defines, "" none */
  int body;       /* a definition: has a { } body or an initialiser */
  int ext;        /* .extern */
  int weak;       /* .weak */
  int visible;    /* .visible or .weak or .extern: a linked name */
  int header;     /* .version, .target, .address_size */
  int debug;      /* .file, .section */
} stmt;

typedef struct mod {
  stmt *st;
  size_t n, cap;
} mod;

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* The statement's first word is `w` (after linkage words). */
static int has_word(const char *s, size_t n, const char *w) {
  size_t k = strlen(w);
  for (size_t i = 0; i + k <= n; i++) {
    if (s[i] == '(' || s[i] == '{' || s[i] == '=') break;
    if (!strncmp(s + i, w, k) && (i == 0 || isspace((unsigned char)s[i - 1])) &&
        (i + k == n || !ident_char((unsigned char)s[i + k])))
      return 1;
  }
  return 0;
}

/* The name a statement declares: a function's after its return
 * parameters, a variable's before its [size], = or ;. */
static void find_name(stmt *t) {
  const char *s = t->s, *e = t->s + t->n;
  const char *p = NULL;
  int fn = has_word(s, t->n, ".func") || has_word(s, t->n, ".entry");
  if (fn) {
    p = strstr(s, has_word(s, t->n, ".func") ? ".func" : ".entry");
    p += p[1] == 'f' ? 5 : 6;
    while (p < e && isspace((unsigned char)*p)) p++;
    if (p < e && *p == '(') { /* return parameters */
      int depth = 0;
      for (; p < e; p++) {
        if (*p == '(')
          depth++;
        else if (*p == ')' && !--depth)
          break;
      }
      p++;
      while (p < e && isspace((unsigned char)*p)) p++;
    }
  } else {
    /* the last identifier before [, =, ; or { at depth 0 */
    const char *last = NULL;
    for (const char *q = s; q < e && *q != '=' && *q != ';' && *q != '{' && *q != '['; q++)
      if (ident_start((unsigned char)*q) && (q == s || !ident_char((unsigned char)q[-1])) && *q != '.')
        last = q;
      else if (*q == '.' && (q == s || isspace((unsigned char)q[-1]))) {
        while (q + 1 < e && ident_char((unsigned char)q[1])) q++;
      }
    p = last;
  }
  size_t k = 0;
  while (p && p < e && ident_char((unsigned char)*p) && k + 1 < sizeof t->name) t->name[k++] = *p++;
  t->name[k] = 0;
}

static int push(mod *m, stmt t) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    stmt *s = realloc(m->st, cap * sizeof *s);
    if (!s) return -1;
    m->st = s;
    m->cap = cap;
  }
  m->st[m->n++] = t;
  return 0;
}

/* Read a module's top-level statements. Returns -1 on unbalanced text. */
static int split(const char *text, mod *m) {
  const char *p = text;
  for (;;) {
    /* skip space and comments between statements */
    for (;;) {
      while (*p && isspace((unsigned char)*p)) p++;
      if (p[0] == '/' && p[1] == '/') {
        while (*p && *p != '\n') p++;
      } else if (p[0] == '/' && p[1] == '*') {
        const char *c = strstr(p + 2, "*/");
        if (!c) return -1;
        p = c + 2;
      } else
        break;
    }
    if (!*p) return 0;
    stmt t = {0};
    t.s = p;
    int depth = 0, quote = 0;
    /* header directives end at their line */
    if (!strncmp(p, ".version", 8) || !strncmp(p, ".target", 7) || !strncmp(p, ".address_size", 13) ||
        !strncmp(p, ".file", 5)) {
      while (*p && *p != '\n') p++;
      t.n = (size_t)(p - t.s);
      t.header = t.s[1] != 'f';
      t.debug = !t.header;
      if (push(m, t) < 0) return -1;
      continue;
    }
    for (; *p; p++) {
      if (quote) {
        if (*p == '"') quote = 0;
        continue;
      }
      if (*p == '"')
        quote = 1;
      else if (p[0] == '/' && p[1] == '/') {
        while (p[1] && p[1] != '\n') p++;
      } else if (*p == '{')
        depth++;
      else if (*p == '}') {
        if (--depth < 0) return -1;
        /* a body ends the statement; an initialiser's } comes before ; */
        if (!depth) {
          const char *q = p + 1;
          while (*q == ' ' || *q == '\t') q++;
          if (*q != ';') {
            t.body = 1;
            p++;
            break;
          }
        }
      } else if (*p == ';' && !depth) {
        p++;
        break;
      }
    }
    if (depth) return -1;
    t.n = (size_t)(p - t.s);
    t.debug = !strncmp(t.s, ".section", 8);
    t.ext = has_word(t.s, t.n, ".extern");
    t.weak = has_word(t.s, t.n, ".weak");
    t.visible = t.ext || t.weak || has_word(t.s, t.n, ".visible");
    if (!t.body && memchr(t.s, '=', t.n) && !has_word(t.s, t.n, ".func"))
      t.body = 1; /* initialised variable */
    if (!t.body && !t.ext && !t.debug &&
        (has_word(t.s, t.n, ".global") || has_word(t.s, t.n, ".const") || has_word(t.s, t.n, ".shared")))
      t.body = 1; /* a variable's definition needs no initialiser */
    find_name(&t);
    if (push(m, t) < 0) return -1;
  }
}

static const stmt *find(const mod *m, const char *name, int defined) {
  for (size_t i = 0; i < m->n; i++)
    if (m->st[i].name[0] && !strcmp(m->st[i].name, name) && (!defined || m->st[i].body)) return &m->st[i];
  return NULL;
}

/* An output buffer. */
typedef struct out {
  char *s;
  size_t n, cap;
  int oom;
} out;

static void put(out *o, const char *s, size_t n) {
  if (o->oom) return;
  if (o->n + n + 1 > o->cap) {
    size_t cap = (o->n + n + 1) * 2;
    char *b = realloc(o->s, cap);
    if (!b) {
      o->oom = 1;
      return;
    }
    o->s = b;
    o->cap = cap;
  }
  memcpy(o->s + o->n, s, n);
  o->n += n;
  o->s[o->n] = 0;
}
static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

/* Append text, renaming identifiers of the rename list and dropping .loc
 * lines (the second module's debug lines). */
static void put_renamed(out *o, const char *s, size_t n, char (*ren)[256], size_t nren, const char *suffix,
                        int drop_loc) {
  size_t i = 0;
  while (i < n) {
    if (drop_loc && (i == 0 || s[i - 1] == '\n')) {
      size_t j = i;
      while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
      if (n - j >= 4 && !strncmp(s + j, ".loc", 4) && !ident_char((unsigned char)s[j + 4])) {
        while (j < n && s[j] != '\n') j++;
        i = j < n ? j + 1 : j;
        continue;
      }
    }
    if (ident_start((unsigned char)s[i]) &&
        (i == 0 || (!ident_char((unsigned char)s[i - 1]) && s[i - 1] != '.'))) {
      size_t j = i + 1;
      while (j < n && ident_char((unsigned char)s[j])) j++;
      put(o, s + i, j - i);
      for (size_t k = 0; k < nren; k++)
        if (strlen(ren[k]) == j - i && !strncmp(ren[k], s + i, j - i)) {
          puts_(o, suffix);
          break;
        }
      i = j;
      continue;
    }
    size_t j = i + 1;
    while (j < n && !ident_start((unsigned char)s[j]) && s[j] != '\n') j++;
    put(o, s + i, j - i);
    i = j;
  }
}

/* The return parameter list "(...)" of a function statement, or NULL;
 * *after_func: where its text after ".func" begins. */
static const char *return_list(const stmt *t, size_t *len, const char **after_func) {
  const char *e = t->s + t->n, *p = strstr(t->s, ".func");
  if (!p || p >= e) return NULL;
  p += 5;
  *after_func = p;
  while (p < e && isspace((unsigned char)*p)) p++;
  if (p >= e || *p != '(') return NULL;
  int depth = 0;
  for (const char *q = p; q < e; q++) {
    if (*q == '(')
      depth++;
    else if (*q == ')' && !--depth) {
      *len = (size_t)(q + 1 - p);
      return p;
    }
  }
  return NULL;
}

/* The version number of a ".version X.Y" statement, as X*100+Y. */
static int version_of(const stmt *t) {
  int major = 0, minor = 0;
  if (sscanf(t->s, ".version %d.%d", &major, &minor) < 1) return 0;
  return major * 100 + minor;
}

char *rt_ptx_link(const char *a, const char *b, int serial, char *why, size_t whylen) {
  mod ma = {0}, mb = {0};
  out o = {0};
  char(*ren)[256] = NULL;
  size_t nren = 0;
  char *result = NULL;
  if (split(a, &ma) < 0 || split(b, &mb) < 0) {
    snprintf(why, whylen, "unbalanced braces or comments in a PTX input");
    goto done;
  }
  ren = calloc(mb.n + 1, sizeof *ren);
  if (!ren) goto oom;
  /* the second module's local symbols that clash with the first's names */
  for (size_t i = 0; i < mb.n; i++) {
    const stmt *t = &mb.st[i];
    if (!t->name[0] || t->visible || !t->body) continue;
    if (find(&ma, t->name, 0)) memcpy(ren[nren++], t->name, sizeof ren[0]);
  }
  /* strong definitions of one name in both modules */
  for (size_t i = 0; i < mb.n; i++) {
    const stmt *t = &mb.st[i], *d;
    if (!t->name[0] || !t->body || !t->visible || t->weak) continue;
    if ((d = find(&ma, t->name, 1)) && d->visible && !d->weak) {
      snprintf(why, whylen, "%s is defined in two of the PTX inputs", t->name);
      goto done;
    }
  }
  char suffix[32];
  snprintf(suffix, sizeof suffix, "$l%d", serial);
  int va = 0, vb = 0;
  for (size_t i = 0; i < ma.n; i++)
    if (ma.st[i].header && !strncmp(ma.st[i].s, ".version", 8)) va = version_of(&ma.st[i]);
  for (size_t i = 0; i < mb.n; i++)
    if (mb.st[i].header && !strncmp(mb.st[i].s, ".version", 8)) vb = version_of(&mb.st[i]);
  for (size_t i = 0; i < ma.n; i++) {
    const stmt *t = &ma.st[i];
    if (t->header && !strncmp(t->s, ".version", 8) && vb > va) {
      char v[64];
      snprintf(v, sizeof v, ".version %d.%d", vb / 100, vb % 100);
      puts_(&o, v);
    } else if (t->ext && t->name[0] && find(&mb, t->name, 1)) {
      /* the other module defines it: a prototype of that definition */
      const char *e = strstr(t->s, ".extern");
      put(&o, t->s, (size_t)(e - t->s));
      puts_(&o, find(&mb, t->name, 1)->weak ? ".weak" : ".visible");
      put(&o, e + 7, t->n - (size_t)(e + 7 - t->s));
    } else {
      put(&o, t->s, t->n);
    }
    puts_(&o, "\n");
  }
  puts_(&o, "\n// linked: the next PTX input\n");
  for (size_t i = 0; i < mb.n; i++) {
    const stmt *t = &mb.st[i];
    if (t->header || t->debug) continue;
    if (t->name[0] && t->visible) {
      const stmt *d = find(&ma, t->name, 0);
      /* declared or defined already (a weak definition of the first wins) */
      if (d && (!t->body || d->body)) continue;
      if (t->ext && find(&ma, t->name, 1)) continue;
    }
    /* A caller may declare a result the definition does not have (numba's
     * C ABI gives void functions one): as nvlink, which does not compare
     * the two, the call is let through, the definition taking the
     * declared result it never writes. */
    const stmt *d = t->body && t->name[0] ? find(&ma, t->name, 0) : NULL;
    size_t rl = 0, tl = 0;
    const char *af = NULL, *taf = NULL, *r = d && !d->body ? return_list(d, &rl, &af) : NULL;
    if (r && !return_list(t, &tl, &taf) && taf) {
      put_renamed(&o, t->s, (size_t)(taf - t->s), ren, nren, suffix, 1);
      puts_(&o, " ");
      put(&o, r, rl);
      put_renamed(&o, taf, t->n - (size_t)(taf - t->s), ren, nren, suffix, 1);
    } else {
      put_renamed(&o, t->s, t->n, ren, nren, suffix, 1);
    }
    puts_(&o, "\n");
  }
  if (o.oom) goto oom;
  result = o.s;
  o.s = NULL;
  goto done;
oom:
  snprintf(why, whylen, "out of memory");
done:
  free(o.s);
  free(ren);
  free(ma.st);
  free(mb.st);
  return result;
}
