/* demangle.c: an Itanium C++ ABI demangler, written from the ABI's mangling grammar, for what
 * CUDA kernel names use. It parses into a node graph (shared through substitutions), then
 * prints that in c++filt's format (see demangle.h); anything else is refused. */
#include "api/demangle.h"

#include <stdlib.h>
#include <string.h>

enum { K_NAME, K_NEST, K_TMPL, K_ABI, K_PTR, K_CV, K_FUNC, K_ARR, K_LIT, K_PACK, K_LIST, K_ITEM, K_ENC };
enum { F_CDTOR = 1, F_DTOR = 2, F_OP = 4, F_NOCD = 8 }; /* K_NAME flags */

typedef struct node {
  unsigned char k, q; /* kind; q: NAME flags, PTR 0 * 1 & 2 && 3 C::*, CV 1 const 2 volatile 4 restrict,
                       * LIT negative, ITEM mangled as v (a list of just v prints as ()), ENC cv | ref << 3 */
  char bt;            /* builtin type code ('i', 'j', ...; D types: 'C' char-like, 'F' float, 'N'), else 0;
                       * ENC: 1 to print the return type */
  int a, b;           /* or -1: NEST a::b, TMPL a<b>, FUNC a(b), PTR to a (b: class), ITEM a, next b,
                       * ENC name a, FUNC b (-1 for data) */
  const char *s;      /* NAME text, ABI tag, array bound, literal digits, CV vendor qualifier */
  size_t len;
  int h; /* height, bounded so that recursing over the graph needs little stack */
} node;

typedef struct P {
  const char *s;
  size_t pos, end;
  node *nd;
  int nn, cap, *sub, nsub;        /* nodes; substitution candidates */
  int targs, top, in_args, depth; /* targs: LIST of the function template's arguments (T_), or -1 */
  int fq, fref;                   /* member function cv- and ref-qualifiers */
} P;

#define TRY(x)                                                                                               \
  do {                                                                                                       \
    if ((x) < 0) return -1;                                                                                  \
  } while (0)
#define N_OF(a) (sizeof(a) / sizeof *(a))

static const char *const bts[] = {"vvoid",        "wwchar_t",
                                  "bbool",        "cchar",
                                  "asigned char", "hunsigned char",
                                  "sshort",       "tunsigned short",
                                  "iint",         "junsigned int",
                                  "llong",        "munsigned long",
                                  "xlong long",   "yunsigned long long",
                                  "n__int128",    "ounsigned __int128",
                                  "ffloat",       "ddouble",
                                  "elong double", "g__float128",
                                  "z..."};
static const char *const dbts[] = {"hhalf",    "schar16_t",  "ichar32_t",  "ndecltype(nullptr)",
                                   "uchar8_t", "fdecimal32", "ddecimal64", "edecimal128"};
static const char *const ops[] = {
    "nw new", "na new[]", "dl delete", "da delete[]", "ps+",  "ng-",  "ad&",   "de*",  "co~",   "pl+",
    "mi-",    "ml*",      "dv/",       "rm%",         "an&",  "or|",  "eo^",   "aS=",  "pL+=",  "mI-=",
    "mL*=",   "dV/=",     "rM%=",      "aN&=",        "oR|=", "eO^=", "ls<<",  "rs>>", "lS<<=", "rS>>=",
    "eq==",   "ne!=",     "lt<",       "gt>",         "le<=", "ge>=", "ss<=>", "nt!",  "aa&&",  "oo||",
    "pp++",   "mm--",     "cm,",       "pm->*",       "pt->", "cl()", "ix[]"};
static const char *const stds[] = {/* Sa Sb ...; c++filt prints the last four in full */
                                   "aallocator",
                                   "bbasic_string",
                                   "sbasic_string<char, std::char_traits<char>, std::allocator<char> >",
                                   "ibasic_istream<char, std::char_traits<char> >",
                                   "obasic_ostream<char, std::char_traits<char> >",
                                   "dbasic_iostream<char, std::char_traits<char> >"};
static const char *const sfx[] = {"i", "ju", "ll", "mul", "xll", "yull"}; /* literal suffixes */

/* ---- parsing: each function returns a node index, or -1 on failure ---- */

static char peek(const P *p, size_t i) { return p->pos + i < p->end ? p->s[p->pos + i] : 0; }
static int eat(P *p, char c) { return peek(p, 0) == c ? (p->pos++, 1) : 0; }
static int dig(char c) { return c >= '0' && c <= '9'; }

static int mk(P *p, int k, int a, int b, const char *s, size_t len) {
  int h = 1 + (a >= 0 ? p->nd[a].h : 0);
  if (b >= 0 && p->nd[b].h >= h) h = p->nd[b].h + 1;
  if (p->nn >= p->cap || h > 400) return -1;
  p->nd[p->nn] = (node){(unsigned char)k, 0, 0, a, b, s, len, h};
  return p->nn++;
}
static int mkq(P *p, int k, int a, int b, int q) {
  int t = mk(p, k, a, b, NULL, 0);
  if (t >= 0) p->nd[t].q = (unsigned char)q;
  return t;
}
static int mks(P *p, const char *s, int q, char bt) { /* a NAME of static text */
  int t = mkq(p, K_NAME, -1, -1, q);
  if (t >= 0) {
    p->nd[t].s = s;
    p->nd[t].len = strlen(s);
    p->nd[t].bt = bt;
  }
  return t;
}
static int add(P *p, int t) { /* a substitution candidate */
  if (t >= 0 && p->nsub < p->cap) p->sub[p->nsub++] = t;
  return t;
}
static long num(P *p) {
  long v = dig(peek(p, 0)) ? 0 : -1;
  while (v >= 0 && dig(peek(p, 0))) v = v > 100000 ? -1 : v * 10 + (p->s[p->pos++] - '0');
  return v;
}

static int source_name(P *p) {
  long l = num(p);
  if (l <= 0 || (size_t)l > p->end - p->pos) return -1;
  const char *id = p->s + p->pos;
  p->pos += (size_t)l;
  if (l >= 10 && !strncmp(id, "_GLOBAL_", 8) && strchr("._$", id[8]) && id[9] == 'N')
    return mks(p, "(anonymous namespace)", 0, 0);
  return mk(p, K_NAME, -1, -1, id, (size_t)l);
}

static int unqualified(P *p) { /* [L] <source-name> | <operator-name>, then [B <tag>]* */
  int t = -1;
  if (peek(p, 0) == 'L' && dig(peek(p, 1))) p->pos++; /* internal linkage */
  if (dig(peek(p, 0)))
    t = source_name(p);
  else
    for (size_t i = 0; i < N_OF(ops); i++)
      if (ops[i][0] == peek(p, 0) && ops[i][1] == peek(p, 1)) {
        p->pos += 2, t = mks(p, ops[i] + 2, F_OP, 0);
        break;
      }
  while (t >= 0 && eat(p, 'B')) {
    int g = source_name(p);
    TRY(g);
    t = mk(p, K_ABI, t, -1, p->nd[g].s, p->nd[g].len);
  }
  return t;
}

static int type(P *p);
static int list(P *p, int mode);
static int encoding(P *p, int top);
static int name(P *p);

static int args(P *p) { /* I <template-arg>* E */
  p->pos++, p->in_args++;
  int l = list(p, 1);
  if (--p->in_args == 0 && l >= 0 && p->top) p->targs = l;
  return l;
}

static int substitution(P *p) { /* at S, not St */
  long id = 0;
  p->pos++;
  for (size_t i = 0; i < N_OF(stds); i++)
    if (eat(p, stds[i][0])) {
      int s = mks(p, "std", 0, 0), n = mks(p, stds[i] + 1, i > 1 ? F_NOCD : 0, 0);
      return s < 0 || n < 0 ? -1 : mk(p, K_NEST, s, n, NULL, 0);
    }
  if (!eat(p, '_')) {
    for (char c; dig(c = peek(p, 0)) || (c >= 'A' && c <= 'Z'); p->pos++)
      if ((id = id * 36 + (dig(c) ? c - '0' : c - 'A' + 10)) > 1000000) return -1;
    if (!eat(p, '_')) return -1;
    id++; /* S_ is the first, S0_ the second */
  }
  return id < p->nsub ? p->sub[id] : -1;
}

static int template_param(P *p, int pack) { /* T_ T0_ ...; pack: must it be an argument pack */
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

static int cdtor(P *p, int pre) { /* C1 C2 C3 D0 D1 D2, named after the class */
  char c = peek(p, 0), d = peek(p, 1);
  if (!(c == 'C' && d >= '1' && d <= '3') && !(c == 'D' && d >= '0' && d <= '2')) return -1;
  p->pos += 2;
  while (pre >= 0 && p->nd[pre].k != K_NAME)
    pre = p->nd[pre].k == K_NEST ? p->nd[pre].b : p->nd[pre].k <= K_ABI ? p->nd[pre].a : -1; /* TMPL, ABI */
  if (pre < 0 || p->nd[pre].q) return -1;
  int t = mkq(p, K_NAME, -1, -1, F_CDTOR | (c == 'D' ? F_DTOR : 0));
  if (t >= 0) {
    p->nd[t].s = p->nd[pre].s;
    p->nd[t].len = p->nd[pre].len;
  }
  return t;
}

static int cv(P *p) {
  int q = 0;
  for (const char *c; peek(p, 0) && (c = strchr("KVr", peek(p, 0))); p->pos++) q |= 1 << (c - "KVr");
  return q;
}

static int nested(P *p) { /* N [cv] [ref] <prefix components> E */
  int t = -1, sub = 0, q;
  p->pos++;
  q = cv(p);
  int ref = eat(p, 'R') ? 1 : eat(p, 'O') ? 2 : 0;
  if (p->top && !p->in_args) {
    p->fq = q;
    p->fref = ref;
  } else if (q || ref)
    return -1; /* only a member function has these */
  while (!eat(p, 'E')) {
    char c = peek(p, 0);
    int u;
    if (c == 'S' && t < 0 && peek(p, 1) != 't') { /* a substitution starts it, and is not added again */
      TRY(t = substitution(p));
      sub = 1;
      continue;
    }
    if (c == 'S' && t < 0) {
      p->pos += 2;
      if ((t = mks(p, "std", 0, 0)) < 0 || (u = unqualified(p)) < 0) return -1;
      t = mk(p, K_NEST, t, u, NULL, 0);
    } else if (c == 'T' && t < 0)
      t = template_param(p, 0);
    else if (c == 'I' && t >= 0) {
      TRY(u = args(p));
      t = mk(p, K_TMPL, t, u, NULL, 0);
    } else if ((c == 'C' || c == 'D') && t >= 0) {
      TRY(u = cdtor(p, t));
      t = mk(p, K_NEST, t, u, NULL, 0);
    } else {
      TRY(u = unqualified(p));
      t = t < 0 ? u : mk(p, K_NEST, t, u, NULL, 0);
    }
    TRY(t);
    sub = 0;
    if (peek(p, 0) != 'E') add(p, t); /* a prefix, not the whole name */
  }
  return sub ? -1 : t;
}

static int local_name(P *p) { /* Z <function encoding> E <entity> [<discriminator>] */
  int e, t;
  p->pos++;
  if (++p->depth > 256 || (e = encoding(p, 0)) < 0) return -1; /* it takes the E */
  p->fq = p->fref = 0;
  TRY(t = eat(p, 's') ? mks(p, "string literal", 0, 0) : name(p));
  if (eat(p, '_')) { /* _<n> or __<n>_, c++filt's way */
    long two = eat(p, '_'), d = 0;
    while (dig(peek(p, 0)) && d < 1000000) d = d * 10 + (p->s[p->pos++] - '0');
    if (two && d >= 10 && !eat(p, '_')) return -1;
  }
  p->depth--;
  return mk(p, K_NEST, e, t, NULL, 0);
}

static int name(P *p) {
  int t, u;
  if (peek(p, 0) == 'N') return nested(p);
  if (peek(p, 0) == 'Z') return local_name(p);
  if (peek(p, 0) == 'S' && peek(p, 1) == 't') {
    p->pos += 2;
    if ((t = mks(p, "std", 0, 0)) < 0 || (u = unqualified(p)) < 0) return -1;
    t = mk(p, K_NEST, t, u, NULL, 0);
  } else
    t = unqualified(p);
  if (t < 0 || peek(p, 0) != 'I') return t;
  add(p, t); /* an unscoped template name */
  TRY(u = args(p));
  return mk(p, K_TMPL, t, u, NULL, 0);
}

static int literal(P *p) { /* after L: <integer type> [n] <digits> E */
  int t;
  if (peek(p, 0) == '_') return -1; /* L_Z: an external name */
  TRY(t = type(p));
  char bt = p->nd[t].bt;
  if (bt && strchr("fdegvzFN", bt)) return -1;
  int neg = eat(p, 'n');
  size_t st = p->pos;
  while (dig(peek(p, 0))) p->pos++;
  if (p->pos == st || !eat(p, 'E')) return -1;
  int r = mkq(p, K_LIT, t, -1, neg);
  if (r >= 0) {
    p->nd[r].s = p->s + st;
    p->nd[r].len = p->pos - 1 - st;
  }
  return r;
}

static int arg(P *p) {
  int l;
  if (eat(p, 'L')) return literal(p);
  if (!eat(p, 'J')) return type(p);
  TRY(l = list(p, 1)); /* an argument pack */
  return mk(p, K_PACK, l, -1, NULL, 0);
}

/* Items until E (mode 0: types, 1: template args) or until the end (mode 2: types). */
static int list(P *p, int mode) {
  int l = mk(p, K_LIST, -1, -1, NULL, 0), last = -1;
  TRY(l);
  if (++p->depth > 256) return -1;
  while (mode == 2 ? p->pos < p->end : !eat(p, 'E')) {
    int v = peek(p, 0) == 'v', t = mode == 1 ? arg(p) : type(p), it = mkq(p, K_ITEM, t, -1, v);
    if (t < 0 || it < 0) return -1;
    if (last < 0)
      p->nd[l].a = it;
    else
      p->nd[last].b = it;
    last = it;
    if (p->nd[l].h <= p->nd[it].h) p->nd[l].h = p->nd[it].h + 1;
  }
  p->depth--;
  return mode == 1 || p->nd[l].a >= 0 ? l : -1; /* a function has parameter types */
}

static int cvwrap(P *p, int t, int q) { /* cv on an array qualifies its elements */
  if (p->nd[t].k == K_CV && !p->nd[t].s) {
    q |= p->nd[t].q;
    t = p->nd[t].a;
  } /* T const, T = int const */
  if (p->nd[t].k != K_ARR) return mkq(p, K_CV, t, -1, q);
  int e = cvwrap(p, p->nd[t].a, q);
  return e < 0 ? -1 : mk(p, K_ARR, e, -1, p->nd[t].s, p->nd[t].len);
}

static int type2(P *p) {
  char c = peek(p, 0), d = peek(p, 1);
  int t, u;
  for (size_t i = 0; i < N_OF(bts); i++)
    if (eat(p, bts[i][0])) return mks(p, bts[i] + 1, 0, c);
  switch (c) {
  case 'r':
  case 'V':
  case 'K':
    u = cv(p);
    TRY(t = type(p));
    return add(p, cvwrap(p, t, u));
  case 'P':
  case 'R':
  case 'O':
    p->pos++, u = c == 'P' ? 0 : c == 'R' ? 1 : 2;
    TRY(t = type(p));
    if (u && p->nd[t].k == K_PTR && p->nd[t].q && p->nd[t].q < 3) { /* reference collapsing */
      u = u == 1 || p->nd[t].q == 1 ? 1 : 2;
      t = p->nd[t].a;
    }
    return add(p, mkq(p, K_PTR, t, -1, u));
  case 'M': /* M <class> <member type> */
    p->pos++;
    if ((u = type(p)) < 0 || p->nd[u].k > K_ABI || (t = type(p)) < 0) return -1;
    return add(p, mkq(p, K_PTR, t, u, 3));
  case 'F': /* F [Y] <return type> <parameter types> E */
    p->pos++, eat(p, 'Y');
    if ((t = type(p)) < 0 || (u = list(p, 0)) < 0) return -1;
    return add(p, mk(p, K_FUNC, t, u, NULL, 0));
  case 'A': { /* A [<bound>] _ <element type> */
    size_t st = ++p->pos, len;
    while (dig(peek(p, 0))) p->pos++;
    len = p->pos - st;
    if (!eat(p, '_') || (t = type(p)) < 0) return -1;
    return add(p, mk(p, K_ARR, t, -1, p->s + st, len));
  }
  case 'T':
  case 'S':
    if (c == 'S' && d == 't') return add(p, name(p));
    TRY(t = c == 'T' ? add(p, template_param(p, 0)) : substitution(p));
    if (peek(p, 0) != 'I') return t;
    TRY(u = args(p));
    return add(p, mk(p, K_TMPL, t, u, NULL, 0));
  case 'U': /* a vendor qualifier: U3AS1i is int AS1 */
    p->pos++;
    if ((u = source_name(p)) < 0 || (t = type(p)) < 0) return -1;
    return add(p, mk(p, K_CV, t, -1, p->nd[u].s, p->nd[u].len));
  case 'u': /* a vendor type */
    return p->pos++, add(p, source_name(p));
  case 'D':
    p->pos += 2;
    if (d == 'p') return peek(p, 0) == 'T' ? add(p, add(p, template_param(p, 1))) : -1; /* DpT_ */
    if (d == 'F' && peek(p, 0) == '1' && peek(p, 1) == '6' && peek(p, 2) == '_')
      return p->pos += 3, mks(p, "_Float16", 0, 'F');
    for (size_t i = 0; i < N_OF(dbts); i++)
      if (dbts[i][0] == d) return mks(p, dbts[i] + 1, 0, strchr("siu", d) ? 'C' : d == 'n' ? 'N' : 'F');
    return -1;
  default:
    return c == 'N' || dig(c) ? add(p, name(p)) : -1;
  }
}

static int type(P *p) {
  if (p->depth++ > 256) return -1;
  int t = type2(p);
  p->depth--;
  return t;
}

/* ---- printing in c++filt's format: a type prints as its left part, declarator, right part ---- */

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
static void right(W *w, int t, int ctx);

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
  ps(w, q & 1 ? " const" : ""), ps(w, q & 2 ? " volatile" : ""), ps(w, q & 4 ? " restrict" : "");
}

/* Items joined by ", "; as in c++filt, trailing items that print nothing (empty packs) take
 * their ", " with them. */
static void items(W *w, int l) {
  size_t keep = w->len;
  for (int it = w->nd[l].a; it >= 0 && !full(w); it = w->nd[it].b) {
    if (it != w->nd[l].a) ps(w, ", ");
    size_t len = w->len;
    print(w, w->nd[it].a);
    if (w->len != len || it == w->nd[l].a) keep = w->len;
  }
  if (w->len > keep) {
    w->len = keep;
    w->last = keep ? w->o[keep - 1] : 0;
  }
}
static void params(W *w, int l) {
  int it = w->nd[l].a;
  ps(w, "(");
  if (!(it >= 0 && w->nd[it].b < 0 && w->nd[it].q)) items(w, l); /* (v) prints as () */
  ps(w, ")");
}

static void left(W *w, int t) {
  const node *x = &w->nd[t];
  if (full(w)) return;
  switch (x->k) {
  case K_NAME:
    ps(w, x->q & F_OP ? "operator" : x->q & F_DTOR ? "~" : "");
    put(w, x->s, x->len);
    break;
  case K_NEST:
    print(w, x->a);
    ps(w, "::");
    print(w, x->b);
    break;
  case K_TMPL:
    print(w, x->a);
    ps(w, w->last == '<' ? " <" : "<"); /* operator< <int> */
    items(w, x->b);
    ps(w, w->last == '>' ? " >" : ">");
    break;
  case K_ABI:
    print(w, x->a);
    ps(w, "[abi:");
    put(w, x->s, x->len);
    ps(w, "]");
    break;
  case K_LIT: {
    char bt = w->nd[x->a].bt;
    const char *suf = NULL;
    if (bt == 'b' && !x->q && x->len == 1 && (x->s[0] == '0' || x->s[0] == '1')) {
      ps(w, x->s[0] == '1' ? "true" : "false");
      break;
    }
    for (size_t i = 0; i < N_OF(sfx); i++)
      if (bt == sfx[i][0]) suf = sfx[i] + 1;
    if (!suf) {
      ps(w, "(");
      print(w, x->a);
      ps(w, ")");
    } /* (char)65 */
    ps(w, x->q ? "-" : ""), put(w, x->s, x->len), ps(w, suf ? suf : "");
    break;
  }
  case K_PACK:
    items(w, x->a);
    break;
  case K_ENC: { /* [return type] name[(parameters) [cv] [ref]] */
    int f = x->b, ret = f >= 0 && x->bt ? w->nd[f].a : -1;
    if (ret >= 0) {
      left(w, ret);
      ps(w, !has_right(w, ret) || w->nd[ret].k == K_FUNC ? " " : "");
    }
    print(w, x->a);
    if (f >= 0) {
      params(w, w->nd[f].b), quals(w, x->q & 7);
      ps(w, x->q >> 3 == 1 ? " &" : x->q >> 3 ? " &&" : "");
    }
    if (ret >= 0) right(w, ret, 1); /* void (*f<int>())() */
    break;
  }
  case K_PTR:
    left(w, x->a);
    ps(w, paren(w, x->a) ? " (" : x->q == 3 ? " " : "");
    if (x->q == 3) {
      print(w, x->b);
      ps(w, "::*");
    } else
      ps(w, x->q == 0 ? "*" : x->q == 1 ? "&" : "&&");
    break;
  case K_CV:
    left(w, x->a);
    quals(w, w->nd[x->a].k != K_FUNC ? x->q : 0);
    if (x->s) {
      ps(w, " ");
      put(w, x->s, x->len);
    }
    break;
  case K_ARR:
    left(w, x->a);
    break;
  case K_FUNC:
    print(w, x->a);
    break;
  default:
    break;
  }
}

/* ctx: 0 standalone, 1 right after a declarator's ')', 2 after an array bound */
static void right(W *w, int t, int ctx) {
  const node *x = &w->nd[t];
  if (full(w)) return;
  if (x->k == K_PTR && paren(w, x->a)) {
    ps(w, ")");
    right(w, x->a, 1);
  } else if (x->k == K_PTR)
    right(w, x->a, ctx);
  else if (x->k == K_CV) {
    right(w, x->a, ctx);
    quals(w, w->nd[x->a].k == K_FUNC ? x->q : 0);
  } else if (x->k == K_ARR) {
    ps(w, ctx == 2 ? "[" : " [");
    put(w, x->s, x->len), ps(w, "]"), right(w, x->a, 2);
  } else if (x->k == K_FUNC) {
    ps(w, ctx == 0 ? " " : "");
    params(w, x->b);
  }
}

static void print(W *w, int t) { left(w, t), right(w, t, 0); }

/* Function templates, constructors aside, mangle their return type first. */
static int has_ret(const P *p, int t) {
  if (p->nd[t].k != K_TMPL) return 0;
  t = p->nd[t].a;
  while (p->nd[t].k == K_NEST || p->nd[t].k == K_ABI) t = p->nd[t].k == K_NEST ? p->nd[t].b : p->nd[t].a;
  return !(p->nd[t].k == K_NAME && (p->nd[t].q & F_CDTOR));
}

/* <name> [<return type>] [<parameter types>], to the end (top) or to an E (a local name's function) */
static int encoding(P *p, int top) {
  int nm, ret = -1, prm = -1, f = -1, e, q, outer = p->top;
  p->top = 1, p->fq = p->fref = 0;
  TRY(nm = name(p));
  q = p->fq | p->fref << 3;
  p->top = 0;
  if (p->nd[nm].k != K_TMPL) p->targs = -1;   /* T_ means a function template's argument */
  if (top ? p->pos < p->end : !eat(p, 'E')) { /* _ZZ5saxpyE4tile: extern "C" saxpy::tile */
    if (has_ret(p, nm) && (ret = type(p)) < 0) return -1;
    if ((prm = list(p, top ? 2 : 0)) < 0 || (f = mk(p, K_FUNC, ret, prm, NULL, 0)) < 0) return -1;
  } else if (q) {
    return -1; /* only a function has cv- or ref-qualifiers */
  }
  p->top = outer;
  TRY(e = mkq(p, K_ENC, nm, f, q));
  p->nd[e].bt = (char)top;
  return e;
}

static int run(const char *m, char *out, size_t n) { /* _Z <encoding> */
  P p = {.s = m, .pos = 2, .end = strlen(m), .targs = -1};
  int ok = 0, e;
  if (p.end > 100000) return 0;
  p.cap = 4 * (int)p.end + 64;
  p.nd = malloc((size_t)p.cap * sizeof *p.nd);
  p.sub = malloc((size_t)p.cap * sizeof *p.sub);
  if (p.nd && p.sub && (e = encoding(&p, 1)) >= 0) {
    W w = {p.nd, out, n, 0, 0, 0};
    left(&w, e);
    if (n) out[w.len] = 0;
    ok = 1;
  }
  free(p.nd), free(p.sub);
  return ok;
}

int demangle(const char *mangled, char *out, size_t n) {
  size_t l = 0;
  if (mangled && !strncmp(mangled, "_Z", 2) && run(mangled, out, n)) return 1;
  for (; n && mangled && l + 1 < n && mangled[l]; l++) out[l] = mangled[l];
  if (n) out[l] = 0;
  return 0;
}
