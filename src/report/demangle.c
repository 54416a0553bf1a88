/* demangle.c: an Itanium C++ ABI demangler, written from the ABI's mangling
 * grammar, for what CUDA kernel names use. It parses into a node graph (shared
 * through substitutions), then prints it in c++filt's format (demangle.h). */
#include "report/demangle.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { K_NAME, K_NEST, K_TMPL, K_ABI, K_PTR, K_CV, K_FUNC, K_ARR, K_LIT, K_PACK, K_LIST, K_ITEM };
enum { F_CDTOR = 1, F_DTOR = 2, F_OP = 4, F_NOCD = 8 }; /* K_NAME flags */

typedef struct node {
  unsigned char k, q; /* kind; NAME flags, PTR 0 * 1 & 2 && 3 member, CV bits, LIT negative */
  char bt;            /* builtin type code ('i', 'j', ...; 'C' 'F' 'N' for D types), else 0 */
  int a, b;           /* children, -1 if none: NEST a::b, TMPL a<b>, FUNC a(b), ITEM a then b;
                       * an ITEM's q says it was mangled as v (a list of just v prints as ()) */
  const char *s;      /* NAME / ABI tag / array bound / literal digits */
  size_t len;
} node;

typedef struct P {
  const char *s;
  size_t pos, end;
  node *nd;
  int nn, cap, *sub, nsub;
  int targs;           /* LIST of the encoding's template args (for T_), or -1 */
  int top, in_args, depth;
  int fq, fref;        /* member function cv- and ref-qualifiers */
} P;

#define TRY(x) do { if ((x) < 0) return -1; } while (0)

static const char *const bts[] = {
    "vvoid", "wwchar_t", "bbool", "cchar", "asigned char", "hunsigned char", "sshort",
    "tunsigned short", "iint", "junsigned int", "llong", "munsigned long", "xlong long",
    "yunsigned long long", "n__int128", "ounsigned __int128", "ffloat", "ddouble",
    "elong double", "g__float128", "z..."};
static const char *const dbts[] = {"hhalf", "schar16_t", "ichar32_t", "ndecltype(nullptr)",
                                   "uchar8_t", "fdecimal32", "ddecimal64", "edecimal128"};
static const char *const ops[] = {
    "nw new", "na new[]", "dl delete", "da delete[]", "ps+", "ng-", "ad&", "de*", "co~",
    "pl+", "mi-", "ml*", "dv/", "rm%", "an&", "or|", "eo^", "aS=", "pL+=", "mI-=", "mL*=",
    "dV/=", "rM%=", "aN&=", "oR|=", "eO^=", "ls<<", "rs>>", "lS<<=", "rS>>=", "eq==",
    "ne!=", "lt<", "gt>", "le<=", "ge>=", "ss<=>", "nt!", "aa&&", "oo||", "pp++", "mm--",
    "cm,", "pm->*", "pt->", "cl()", "ix[]"};
static const char *const stds[] = { /* S<x> abbreviations; the last four print in full */
    "aallocator", "bbasic_string", "sbasic_string<char, std::char_traits<char>, std::allocator<char> >",
    "ibasic_istream<char, std::char_traits<char> >", "obasic_ostream<char, std::char_traits<char> >",
    "dbasic_iostream<char, std::char_traits<char> >"};
static const char *const sfx[] = {"i", "ju", "ll", "mul", "xll", "yull"};

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* ---- parsing: each function returns a node index, or -1 on failure ---- */

static char peek(const P *p, size_t i) { return p->pos + i < p->end ? p->s[p->pos + i] : 0; }
static int eat(P *p, char c) { return peek(p, 0) == c && c ? (p->pos++, 1) : 0; }
static int dig(char c) { return c >= '0' && c <= '9'; }

static int mk(P *p, int k, int a, int b, const char *s, size_t len) {
  if (p->nn >= p->cap) return -1;
  p->nd[p->nn] = (node){(unsigned char)k, 0, 0, a, b, s, len};
  return p->nn++;
}
static int mkq(P *p, int k, int a, int b, int q) {
  int t = mk(p, k, a, b, NULL, 0);
  if (t >= 0) p->nd[t].q = (unsigned char)q;
  return t;
}
static int add(P *p, int t) {
  if (t >= 0 && p->nsub < p->cap) p->sub[p->nsub++] = t;
  return t;
}

static long num(P *p) {
  long v = 0;
  if (!dig(peek(p, 0))) return -1;
  while (dig(peek(p, 0)))
    if ((v = v * 10 + (p->s[p->pos++] - '0')) > 1000000) return -1;
  return v;
}

static int source_name(P *p) {
  long l = num(p);
  if (l <= 0 || (size_t)l > p->end - p->pos) return -1;
  const char *id = p->s + p->pos;
  p->pos += (size_t)l;
  if (l >= 10 && !strncmp(id, "_GLOBAL_", 8) && strchr("._$", id[8]) && id[9] == 'N')
    return mk(p, K_NAME, -1, -1, "(anonymous namespace)", 21);
  return mk(p, K_NAME, -1, -1, id, (size_t)l);
}

static int unqualified(P *p) {
  int t = -1;
  if (peek(p, 0) == 'L' && dig(peek(p, 1))) p->pos++; /* internal linkage */
  if (dig(peek(p, 0))) {
    t = source_name(p);
  } else {
    for (size_t i = 0; i < N_OF(ops) && t < 0; i++)
      if (ops[i][0] == peek(p, 0) && ops[i][1] == peek(p, 1)) {
        p->pos += 2;
        t = mkq(p, K_NAME, -1, -1, F_OP);
        if (t >= 0) p->nd[t].s = ops[i] + 2, p->nd[t].len = strlen(ops[i] + 2);
      }
  }
  while (t >= 0 && eat(p, 'B')) { /* ABI tags */
    int g = source_name(p);
    TRY(g);
    t = mk(p, K_ABI, t, -1, p->nd[g].s, p->nd[g].len);
  }
  return t;
}

static int type(P *p);
static int list(P *p, int mode);

static int args(P *p) {
  p->pos++; /* I */
  p->in_args++;
  int l = list(p, 1);
  p->in_args--;
  if (l >= 0 && p->top && !p->in_args) p->targs = l;
  return l;
}

static int substitution(P *p) { /* at S, not St */
  p->pos++;
  for (size_t i = 0; i < N_OF(stds); i++)
    if (stds[i][0] == peek(p, 0)) {
      p->pos++;
      int s = mk(p, K_NAME, -1, -1, "std", 3), n = mkq(p, K_NAME, -1, -1, i > 1 ? F_NOCD : 0);
      TRY(s);
      TRY(n);
      p->nd[n].s = stds[i] + 1, p->nd[n].len = strlen(stds[i] + 1);
      return mk(p, K_NEST, s, n, NULL, 0);
    }
  long id = 0;
  if (!eat(p, '_')) {
    for (char c; dig(c = peek(p, 0)) || (c >= 'A' && c <= 'Z'); p->pos++)
      if ((id = id * 36 + (dig(c) ? c - '0' : c - 'A' + 10)) > 1000000) return -1;
    if (!eat(p, '_')) return -1;
    id++;
  }
  return id < p->nsub ? p->sub[id] : -1;
}

static int template_param(P *p, int pack) { /* at T; pack: may it be a pack */
  long i = 0;
  p->pos++;
  if (!eat(p, '_')) {
    TRY(i = num(p));
    if (!eat(p, '_')) return -1;
    i++;
  }
  for (int it = p->targs >= 0 ? p->nd[p->targs].a : -1; it >= 0; it = p->nd[it].b)
    if (i-- == 0) return !pack == (p->nd[p->nd[it].a].k == K_PACK) ? -1 : p->nd[it].a;
  return -1;
}

static int cdtor(P *p, int pre) { /* C1 C2 C3 D0 D1 D2 after the class name */
  char c = peek(p, 0), d = peek(p, 1);
  if (!(c == 'C' && d >= '1' && d <= '3') && !(c == 'D' && d >= '0' && d <= '2')) return -1;
  p->pos += 2;
  while (pre >= 0 && p->nd[pre].k != K_NAME)
    pre = p->nd[pre].k == K_NEST ? p->nd[pre].b : p->nd[pre].k == K_TMPL || p->nd[pre].k == K_ABI ? p->nd[pre].a : -1;
  if (pre < 0 || p->nd[pre].q) return -1;
  int t = mkq(p, K_NAME, -1, -1, F_CDTOR | (c == 'D' ? F_DTOR : 0));
  if (t >= 0) p->nd[t].s = p->nd[pre].s, p->nd[t].len = p->nd[pre].len;
  return t;
}

static int cv(P *p) {
  int q = 0;
  for (;; p->pos++) {
    char c = peek(p, 0);
    if (c == 'K') q |= 1; else if (c == 'V') q |= 2; else if (c == 'r') q |= 4; else return q;
  }
}

static int nested(P *p) {
  int t = -1, q, sub = 0;
  p->pos++; /* N */
  q = cv(p);
  int ref = eat(p, 'R') ? 1 : eat(p, 'O') ? 2 : 0;
  if (!p->top || p->in_args) {
    if (q || ref) return -1; /* only a member function has these */
  } else {
    p->fq = q, p->fref = ref;
  }
  while (!eat(p, 'E')) {
    char c = peek(p, 0);
    if (c == 'S' && t < 0) {
      if (peek(p, 1) == 't') p->pos += 2, t = mk(p, K_NAME, -1, -1, "std", 3);
      else t = substitution(p);
      TRY(t);
      sub = 1;
      continue;
    }
    if (c == 'T' && t < 0) {
      t = template_param(p, 0);
    } else if (c == 'I' && t >= 0) {
      int a = args(p);
      TRY(a);
      t = mk(p, K_TMPL, t, a, NULL, 0);
    } else if ((c == 'C' || c == 'D') && t >= 0) {
      int u = cdtor(p, t);
      TRY(u);
      t = mk(p, K_NEST, t, u, NULL, 0);
    } else {
      int u = unqualified(p);
      TRY(u);
      t = t < 0 ? u : mk(p, K_NEST, t, u, NULL, 0);
    }
    TRY(t);
    sub = 0;
    if (peek(p, 0) != 'E') add(p, t); /* a prefix, not the whole name */
  }
  return sub ? -1 : t;
}

static int name(P *p) {
  int t;
  if (peek(p, 0) == 'N') return nested(p);
  if (peek(p, 0) == 'S' && peek(p, 1) == 't') {
    p->pos += 2;
    int s = mk(p, K_NAME, -1, -1, "std", 3), u = unqualified(p);
    TRY(s);
    TRY(u);
    t = mk(p, K_NEST, s, u, NULL, 0);
  } else {
    t = unqualified(p);
  }
  if (t >= 0 && peek(p, 0) == 'I') { /* unscoped template name */
    add(p, t);
    int a = args(p);
    TRY(a);
    t = mk(p, K_TMPL, t, a, NULL, 0);
  }
  return t;
}

static int literal(P *p) { /* after L: <type> [n] <digits> E */
  if (peek(p, 0) == '_') return -1; /* L_Z external name */
  int t = type(p);
  TRY(t);
  char bt = p->nd[t].bt;
  if (bt && strchr("fdegvzFN", bt)) return -1;
  int neg = eat(p, 'n');
  size_t st = p->pos;
  while (dig(peek(p, 0))) p->pos++;
  if (p->pos == st || !eat(p, 'E')) return -1;
  int r = mkq(p, K_LIT, t, -1, neg);
  if (r >= 0) p->nd[r].s = p->s + st, p->nd[r].len = p->pos - 1 - st;
  return r;
}

static int arg(P *p) {
  if (eat(p, 'L')) return literal(p);
  if (!eat(p, 'J')) return type(p);
  int l = list(p, 1); /* an argument pack */
  TRY(l);
  return mk(p, K_PACK, l, -1, NULL, 0);
}

/* Items until E (mode 0 types, 1 template args) or until the end (mode 2 types). */
static int list(P *p, int mode) {
  int l = mk(p, K_LIST, -1, -1, NULL, 0), last = -1;
  TRY(l);
  if (++p->depth > 256) return -1;
  while (mode == 2 ? p->pos < p->end : !eat(p, 'E')) {
    int v = peek(p, 0) == 'v', t = mode == 1 ? arg(p) : type(p), it = mkq(p, K_ITEM, t, -1, v);
    if (t < 0 || it < 0) return -1;
    if (last < 0) p->nd[l].a = it; else p->nd[last].b = it;
    last = it;
  }
  p->depth--;
  return mode == 1 || p->nd[l].a >= 0 ? l : -1; /* a function has parameter types */
}

static int cvwrap(P *p, int t, int q) { /* cv on an array qualifies its elements */
  if (p->nd[t].k == K_CV) q |= p->nd[t].q, t = p->nd[t].a; /* T const, T = int const */
  if (p->nd[t].k != K_ARR) return mkq(p, K_CV, t, -1, q);
  int e = cvwrap(p, p->nd[t].a, q);
  TRY(e);
  return mk(p, K_ARR, e, -1, p->nd[t].s, p->nd[t].len);
}

static int type2(P *p) {
  char c = peek(p, 0), d = peek(p, 1);
  int t, u;
  for (size_t i = 0; i < N_OF(bts); i++)
    if (bts[i][0] == c) {
      p->pos++;
      TRY(t = mk(p, K_NAME, -1, -1, bts[i] + 1, strlen(bts[i] + 1)));
      p->nd[t].bt = c;
      return t;
    }
  switch (c) {
  case 'r': case 'V': case 'K':
    u = cv(p);
    TRY(t = type(p));
    return add(p, cvwrap(p, t, u));
  case 'P': case 'R': case 'O':
    p->pos++;
    TRY(t = type(p));
    u = c == 'P' ? 0 : c == 'R' ? 1 : 2;
    if (u && p->nd[t].k == K_PTR && p->nd[t].q && p->nd[t].q < 3) /* reference collapsing */
      u = u == 1 || p->nd[t].q == 1 ? 1 : 2, t = p->nd[t].a;
    return add(p, mkq(p, K_PTR, t, -1, u));
  case 'M':
    p->pos++;
    TRY(u = type(p));
    if (p->nd[u].k > K_ABI) return -1; /* the class must be a name */
    TRY(t = type(p));
    return add(p, mkq(p, K_PTR, t, u, 3));
  case 'F':
    p->pos++;
    eat(p, 'Y');
    TRY(t = type(p));
    TRY(u = list(p, 0));
    return add(p, mk(p, K_FUNC, t, u, NULL, 0));
  case 'A': {
    size_t st = ++p->pos;
    while (dig(peek(p, 0))) p->pos++;
    size_t len = p->pos - st;
    if (!eat(p, '_')) return -1;
    TRY(t = type(p));
    return add(p, mk(p, K_ARR, t, -1, p->s + st, len));
  }
  case 'T': case 'S':
    if (c == 'S' && d == 't') return add(p, name(p));
    TRY(t = c == 'T' ? add(p, template_param(p, 0)) : substitution(p));
    if (peek(p, 0) != 'I') return t;
    TRY(u = args(p));
    return add(p, mk(p, K_TMPL, t, u, NULL, 0));
  case 'u':
    p->pos++;
    return add(p, source_name(p));
  case 'D':
    if (d == 'p') { /* pack expansion: only of a whole pack, DpT_ */
      p->pos += 2;
      return peek(p, 0) == 'T' ? add(p, add(p, template_param(p, 1))) : -1;
    }
    if (d == 'F' && peek(p, 2) == '1' && peek(p, 3) == '6' && peek(p, 4) == '_') {
      p->pos += 5;
      TRY(t = mk(p, K_NAME, -1, -1, "_Float16", 8));
      p->nd[t].bt = 'F';
      return t;
    }
    for (size_t i = 0; i < N_OF(dbts); i++)
      if (dbts[i][0] == d) {
        p->pos += 2;
        TRY(t = mk(p, K_NAME, -1, -1, dbts[i] + 1, strlen(dbts[i] + 1)));
        p->nd[t].bt = strchr("siu", d) ? 'C' : d == 'n' ? 'N' : 'F';
        return t;
      }
    return -1;
  default:
    return c == 'N' || dig(c) ? add(p, name(p)) : -1;
  }
}

static int type(P *p) {
  if (p->depth > 256) return -1;
  p->depth++;
  int t = type2(p);
  p->depth--;
  return t;
}

/* ---- printing, in c++filt's format; a type prints as left, declarator, right ---- */

typedef struct W {
  const node *nd;
  char *o;
  size_t n, len;
  char last;
  long steps;
} W;

static void put(W *w, const char *s, size_t l) {
  for (size_t i = 0; i < l && w->len + 1 < w->n; i++) w->last = w->o[w->len++] = s[i];
}
static void ps(W *w, const char *s) { put(w, s, strlen(s)); }
static int full(W *w) { return w->len + 1 >= w->n || ++w->steps > 1000000; }

static void print(W *w, int t);
static int paren(const W *w, int t) { /* does a pointer to t print as (*) ? */
  if (w->nd[t].k == K_CV) t = w->nd[t].a;
  return w->nd[t].k == K_FUNC || w->nd[t].k == K_ARR;
}
static int has_right(const W *w, int t) {
  const node *x = &w->nd[t];
  if (x->k == K_FUNC || x->k == K_ARR) return 1;
  return x->k == K_PTR ? paren(w, x->a) || has_right(w, x->a) : x->k == K_CV && has_right(w, x->a);
}
static void quals(W *w, int q) {
  if (q & 1) ps(w, " const");
  if (q & 2) ps(w, " volatile");
  if (q & 4) ps(w, " restrict");
}

/* Items joined by ", "; like c++filt, trailing items printing nothing (empty
 * packs) take their ", " with them. */
static void items(W *w, int l) {
  size_t keep = w->len;
  for (int it = w->nd[l].a; it >= 0 && !full(w); it = w->nd[it].b) {
    if (it != w->nd[l].a) ps(w, ", ");
    size_t len = w->len;
    print(w, w->nd[it].a);
    if (w->len != len || it == w->nd[l].a) keep = w->len;
  }
  if (w->len > keep) w->len = keep, w->last = w->o[keep - 1];
}
static void params(W *w, int l) {
  int it = w->nd[l].a;
  ps(w, "(");
  if (!(it >= 0 && w->nd[it].b < 0 && w->nd[it].q)) items(w, l); /* (v) is () */
  ps(w, ")");
}

static void left(W *w, int t) {
  const node *x = &w->nd[t];
  if (full(w)) return;
  switch (x->k) {
  case K_NAME:
    if (x->q & F_OP) ps(w, "operator");
    if (x->q & F_DTOR) ps(w, "~");
    put(w, x->s, x->len);
    break;
  case K_NEST: print(w, x->a); ps(w, "::"); print(w, x->b); break;
  case K_TMPL:
    print(w, x->a);
    ps(w, w->last == '<' ? " <" : "<");
    items(w, x->b);
    ps(w, w->last == '>' ? " >" : ">");
    break;
  case K_ABI: print(w, x->a); ps(w, "[abi:"); put(w, x->s, x->len); ps(w, "]"); break;
  case K_LIT: {
    char bt = w->nd[x->a].bt;
    const char *suf = NULL;
    if (bt == 'b' && !x->q && x->len == 1 && (x->s[0] == '0' || x->s[0] == '1')) {
      ps(w, x->s[0] == '1' ? "true" : "false");
      break;
    }
    for (size_t i = 0; i < N_OF(sfx); i++)
      if (bt == sfx[i][0]) suf = sfx[i] + 1;
    if (!suf) ps(w, "("), print(w, x->a), ps(w, ")");
    if (x->q) ps(w, "-");
    put(w, x->s, x->len);
    if (suf) ps(w, suf);
    break;
  }
  case K_PACK: items(w, x->a); break;
  case K_PTR:
    left(w, x->a);
    if (paren(w, x->a)) ps(w, " (");
    else if (x->q == 3) ps(w, " ");
    if (x->q == 3) print(w, x->b), ps(w, "::*");
    else ps(w, x->q == 0 ? "*" : x->q == 1 ? "&" : "&&");
    break;
  case K_CV:
    left(w, x->a);
    if (w->nd[x->a].k != K_FUNC) quals(w, x->q);
    break;
  case K_ARR: left(w, x->a); break;
  case K_FUNC: print(w, x->a); break;
  default: break;
  }
}

/* ctx: 0 standalone, 1 right after a declarator's ')', 2 inside an array's bounds */
static void right(W *w, int t, int ctx) {
  const node *x = &w->nd[t];
  if (full(w)) return;
  switch (x->k) {
  case K_PTR:
    if (paren(w, x->a)) ps(w, ")"), right(w, x->a, 1);
    else right(w, x->a, ctx);
    break;
  case K_CV:
    right(w, x->a, ctx);
    if (w->nd[x->a].k == K_FUNC) quals(w, x->q);
    break;
  case K_ARR:
    ps(w, ctx == 2 ? "[" : " [");
    put(w, x->s, x->len);
    ps(w, "]");
    right(w, x->a, 2);
    break;
  case K_FUNC:
    if (ctx == 0) ps(w, " ");
    params(w, x->b);
    break;
  default: break;
  }
}

static void print(W *w, int t) {
  left(w, t);
  right(w, t, 0);
}

/* Template functions (not constructors) mangle their return type first. */
static int has_ret(const P *p, int t) {
  if (p->nd[t].k != K_TMPL) return 0;
  t = p->nd[t].a;
  while (p->nd[t].k == K_NEST || p->nd[t].k == K_ABI) t = p->nd[t].k == K_NEST ? p->nd[t].b : p->nd[t].a;
  return !(p->nd[t].k == K_NAME && (p->nd[t].q & F_CDTOR));
}

static int run(const char *m, char *out, size_t n) {
  P p = {.s = m, .pos = 2, .end = strlen(m), .targs = -1, .top = 1};
  int ok = 0, nm, ret = -1, prm = -1;
  if (p.end > 100000) return 0;
  p.cap = 4 * (int)p.end + 64;
  p.nd = malloc((size_t)p.cap * sizeof *p.nd);
  p.sub = malloc((size_t)p.cap * sizeof *p.sub);
  if (!p.nd || !p.sub || (nm = name(&p)) < 0) goto done;
  p.top = 0;
  if (p.nd[nm].k != K_TMPL) p.targs = -1; /* T_ is a function template's argument */
  if (p.pos < p.end) { /* a function: its parameter types follow */
    if (has_ret(&p, nm) && (ret = type(&p)) < 0) goto done;
    if ((prm = list(&p, 2)) < 0) goto done;
  } else if (p.fq || p.fref) {
    goto done;
  }
  W w = {p.nd, out, n, 0, 0, 0};
  if (ret >= 0) {
    left(&w, ret);
    if (!has_right(&w, ret) || p.nd[ret].k == K_FUNC) ps(&w, " ");
  }
  print(&w, nm);
  if (prm >= 0) {
    params(&w, prm);
    quals(&w, p.fq);
    if (p.fref) ps(&w, p.fref == 1 ? " &" : " &&");
  }
  if (ret >= 0) right(&w, ret, 1);
  if (n) out[w.len] = 0;
  ok = 1;
done:
  free(p.nd);
  free(p.sub);
  return ok;
}

int demangle(const char *mangled, char *out, size_t n) {
  if (mangled && !strncmp(mangled, "_Z", 2) && run(mangled, out, n)) return 1;
  if (n) {
    size_t l = 0;
    for (; mangled && l + 1 < n && mangled[l]; l++) out[l] = mangled[l];
    out[l] = 0;
  }
  return 0;
}
