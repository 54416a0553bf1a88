/* parse.c: the PTX parser. A recursive-descent reader over the lexer's tokens
 * that builds a ptx_module in an arena. Syntax only: opcodes and modifiers are
 * kept as words for the decoder. Errors unwind with longjmp to ptx_parse,
 * which frees everything and returns "FILE:LINE:COL: message". */
#include "ptx/ptx.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/lex.h"

enum {
  MAX_SCOPE_DEPTH = 64,    /* nested { } scopes in a function body */
  MAX_INIT_DEPTH = 32,     /* nested { } in an initializer */
  MAX_DIMS = 16,           /* array dimensions of one declaration */
  MAX_REG_COUNT = 1000000, /* N of %r<N> */
  MAX_ALIGN = 1 << 16,     /* .align N */
  MAX_FILE_INDEX = 65535,  /* N of .file N and .loc N: the decoder indexes a table by it */
  MAX_LIST = INT_MAX / 4   /* entries of any one list, bytes of an initializer */
};
/* Largest variable, in bytes. */
#define MAX_VAR_BYTES (UINT64_C(1) << 32)
/* Largest input, in bytes (positions are 32-bit). */
#define MAX_TEXT_BYTES ((size_t)INT32_MAX)

/* A growable scratch array (malloc'd, reused); finished lists are copied
 * into the arena with exactly their size. */
typedef struct vec {
  void *p;    /* elements */
  size_t n;   /* elements in use */
  size_t cap; /* elements allocated */
} vec;

/* A register declared with a name without '%' (inline asm: `.reg .pred p;`),
 * so that operands naming it are classified as registers. */
typedef struct plain_reg {
  const char *s;  /* name or prefix (arena) */
  uint32_t len;   /* bytes of s; 0 marks a free slot */
  int single;     /* declared as a single register */
  uint32_t count; /* largest N of name<N>, or 0 */
} plain_reg;

/* An .alias directive, resolved when all functions are known. */
typedef struct alias {
  const char *name, *target; /* .alias name, target; */
  ptx_pos pos, tpos;         /* where each is */
} alias;

/* Shape of a declaration being read: the words before the name. */
typedef struct decl {
  int space;     /* enum ptx_space */
  int linkage;   /* enum ptx_linkage */
  int type;      /* enum ptx_type, PTX_T_NONE for .texref & co */
  int opaque;    /* 1 .texref, 2 .samplerref, 3 .surfref */
  int vec;       /* 1, 2, 4 */
  int align;     /* .align N or 0 */
  int ptr_space; /* .ptr .global ... */
  int ptr_align; /* .ptr .align N */
  int managed;   /* .attribute(.managed) */
} decl;

typedef struct parser {
  ptx_lexer lx;         /* the token source */
  ptx_token tok;        /* current token */
  ptx_token ahead;      /* the token after it, when has_ahead */
  int has_ahead;        /* ahead is valid */
  ptx_arena *arena;     /* the module's memory */
  ptx_module *m;        /* the module being built */
  const char *fname;    /* for messages */
  char *err;            /* message buffer of the caller */
  size_t errsize;       /* its size */
  jmp_buf jb;           /* where errors unwind to */
  ptx_loc loc;          /* the current .loc */
  vec mvars;            /* ptx_var: module variables */
  vec funcs;            /* ptx_func */
  vec files;            /* ptx_file */
  vec inlines;          /* ptx_inline, func still the function_name label */
  vec dstr;             /* debug_str: .debug_str's labels and strings */
  vec params, rets;     /* ptx_var: of the function being read */
  vec regs;             /* ptx_regdecl */
  vec fvars;            /* ptx_var: declared in the body */
  vec body;             /* ptx_stmt */
  vec ops;              /* ptx_operand: stack of operands being read */
  vec init;             /* uint8_t: initializer bytes being built */
  vec relocs;           /* ptx_reloc: of the initializer being built */
  plain_reg *plain;     /* open-addressing table, cap a power of two */
  size_t plain_cap;     /* slots */
  size_t plain_n;       /* slots in use */
  uint64_t init_budget; /* initializer bytes left: bounds padding by { } */
  int mask_run;         /* the last reloc is a run of byte-mask initializers */
  vec aliases;          /* alias: .alias directives */
  int depth;            /* { } scopes open in the body being read */
  uint32_t serial;      /* numbers the registers declared in inner scopes */
  vec ren;              /* scoped: registers renamed in open inner scopes */
  vec lbl;              /* scoped_label: labels of open inner scopes */
  int in_call;          /* reading call's operands: ( ) is a list, not an expression */
  ptx_loc inl[16];      /* recent .loc with inlined_at, resolved to the outermost */
  unsigned ninl;        /* entries written to inl (a ring) */
} parser;

/* A string of the .debug_str section (function names for .loc's
 * function_name). */
typedef struct debug_str {
  const char *label, *text;
} debug_str;

/* A register declared inside a { } scope: it hides an outer one of the same
 * name until the scope closes, so it gets a name of its own. */
typedef struct scoped {
  const char *orig;    /* name or prefix as declared */
  const char *renamed; /* the unique name or prefix used instead */
  uint64_t count;      /* 0 for a single register, N for name<N> */
  int depth;           /* scope depth of the declaration */
} scoped;

/* A label declared inside a { } scope (inline asm blocks repeat theirs:
 * CUTLASS's mbarrier waits each hold `LAB_WAIT:` and `DONE:`). It is
 * visible only in its scope, so when the scope closes it gets a name of its
 * own, and so do the branches inside the scope that mean it. */
typedef struct scoped_label {
  const char *orig; /* name as declared */
  size_t stmt;      /* its statement in body */
  int depth;        /* scope depth of the declaration */
} scoped_label;

/* ---- errors ------------------------------------------------------------- */

static _Noreturn void fail_at(parser *P, ptx_pos pos, const char *fmt, ...) {
  if (P->err && P->errsize) {
    int n = snprintf(P->err, P->errsize, "%s:%u:%u: ", P->fname, pos.line, pos.col);
    if (n >= 0 && (size_t)n < P->errsize) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(P->err + n, P->errsize - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  longjmp(P->jb, 1);
}

/* A short printable description of a token for messages. */
static const char *describe(const ptx_token *t, char *buf, size_t size) {
  switch (t->kind) {
  case PTX_TK_EOF:
    return "end of file";
  case PTX_TK_STRING:
    return "a string";
  case PTX_TK_IDENT:
  case PTX_TK_DIR:
  case PTX_TK_INT:
  case PTX_TK_F32:
  case PTX_TK_F64:
  case PTX_TK_FLOAT:
    if (t->len > 40)
      snprintf(buf, size, "'%.40s...'", t->s);
    else
      snprintf(buf, size, "'%.*s'", (int)t->len, t->s);
    return buf;
  default:
    snprintf(buf, size, "'%c'", t->kind);
    return buf;
  }
}

static _Noreturn void expected(parser *P, const char *what) {
  char buf[64];
  fail_at(P, P->tok.pos, "expected %s, found %s", what, describe(&P->tok, buf, sizeof buf));
}

/* ---- memory ------------------------------------------------------------- */

static void *alloc(parser *P, size_t n) {
  void *p = ptx_arena_alloc(P->arena, n);
  if (!p) fail_at(P, P->tok.pos, "out of memory");
  return p;
}

static const char *intern(parser *P, const char *s, size_t n) {
  char *p = ptx_arena_strndup(P->arena, s, n);
  if (!p) fail_at(P, P->tok.pos, "out of memory");
  return p;
}

/* Makes room for n elements in v. */
static void reserve(parser *P, vec *v, size_t n, size_t esz) {
  if (n <= v->cap) return;
  if (n > MAX_LIST) fail_at(P, P->tok.pos, "too many entries in a list");
  size_t cap = v->cap ? v->cap : 16;
  while (cap < n) cap *= 2;
  void *p = realloc(v->p, cap * esz);
  if (!p) fail_at(P, P->tok.pos, "out of memory");
  v->p = p;
  v->cap = cap;
}

/* A new zeroed element at the end of v (valid until the next push). */
static void *push(parser *P, vec *v, size_t esz) {
  reserve(P, v, v->n + 1, esz);
  void *e = (char *)v->p + v->n++ * esz;
  memset(e, 0, esz);
  return e;
}

/* Moves the elements of v from index `from` on into the arena; v keeps the
 * elements before `from`. Returns NULL for none. */
static void *take(parser *P, vec *v, size_t from, size_t esz, int *count) {
  size_t n = v->n - from;
  *count = (int)n;
  v->n = from;
  if (n == 0) return NULL;
  void *p = alloc(P, n * esz);
  memcpy(p, (char *)v->p + from * esz, n * esz);
  return p;
}

/* ---- tokens ------------------------------------------------------------- */

static _Noreturn void lex_failed(parser *P) { fail_at(P, P->lx.err_pos, "%s", P->lx.msg); }

static void advance(parser *P) {
  if (P->has_ahead) {
    P->tok = P->ahead;
    P->has_ahead = 0;
  } else {
    ptx_lex_next(&P->lx, &P->tok);
  }
  if (P->tok.kind == PTX_TK_ERROR) lex_failed(P);
}

static const ptx_token *peek_ahead(parser *P) {
  if (!P->has_ahead) {
    ptx_lex_next(&P->lx, &P->ahead);
    P->has_ahead = 1;
    if (P->ahead.kind == PTX_TK_ERROR) lex_failed(P);
  }
  return &P->ahead;
}

static int text_is(const ptx_token *t, const char *s) {
  size_t n = strlen(s);
  return t->len == n && memcmp(t->s, s, n) == 0;
}

/* The current token is the directive .`name`. */
static int at_dir(const parser *P, const char *name) {
  return P->tok.kind == PTX_TK_DIR && P->tok.len == strlen(name) + 1 &&
         memcmp(P->tok.s + 1, name, P->tok.len - 1) == 0;
}

static void expect(parser *P, int kind, const char *what) {
  if (P->tok.kind != kind) expected(P, what);
  advance(P);
}

static const char *expect_ident(parser *P, const char *what) {
  if (P->tok.kind != PTX_TK_IDENT) expected(P, what);
  const char *s = intern(P, P->tok.s, P->tok.len);
  advance(P);
  return s;
}

/* An unsigned integer literal no larger than max. */
static int64_t parse_cexpr(parser *P);
static int at_expr_start(parser *P);

/* The token after the current one continues a constant expression. */
static int peek_is_operator(parser *P) {
  int k = peek_ahead(P)->kind;
  return k > 0 && k < 256 && strchr("*/%+-<>=!&^|?", k);
}

/* An unsigned integer literal no larger than max. */
static uint64_t expect_uint(parser *P, const char *what, uint64_t max) {
  if (P->tok.kind != PTX_TK_INT) expected(P, what);
  if (P->tok.u > max)
    fail_at(P, P->tok.pos, "%s %llu is too large (the limit is %llu)", what, (unsigned long long)P->tok.u,
            (unsigned long long)max);
  uint64_t v = P->tok.u;
  advance(P);
  return v;
}

/* The same, where a constant expression may stand (array sizes, .maxntid):
 * a literal followed by no operator is read as before, so its full
 * unsigned range stays available. */
static uint64_t expect_uint_expr(parser *P, const char *what, uint64_t max) {
  if (P->tok.kind == PTX_TK_INT && !peek_is_operator(P)) return expect_uint(P, what, max);
  ptx_pos pos = P->tok.pos;
  if (!at_expr_start(P)) expected(P, what);
  int64_t e = parse_cexpr(P);
  if (e < 0) fail_at(P, pos, "%s is negative", what);
  if ((uint64_t)e > max)
    fail_at(P, pos, "%s %llu is too large (the limit is %llu)", what, (unsigned long long)e,
            (unsigned long long)max);
  return (uint64_t)e;
}

/* Skips tokens up to and including the next ';' (.callprototype and the
 * like); a '{', '}' or the end of the file before it is an error. */
static void skip_statement(parser *P, const char *what) {
  while (P->tok.kind != ';') {
    if (P->tok.kind == PTX_TK_EOF || P->tok.kind == '{' || P->tok.kind == '}') {
      char buf[80];
      snprintf(buf, sizeof buf, "';' to end %s", what);
      expected(P, buf);
    }
    advance(P);
  }
  advance(P);
}

/* Skips a balanced { ... } group starting at the current '{'. */
static void skip_braces(parser *P, const char *what) {
  ptx_pos open = P->tok.pos;
  expect(P, '{', "'{'");
  for (size_t depth = 1; depth;) {
    if (P->tok.kind == PTX_TK_EOF) fail_at(P, open, "unterminated %s: no matching '}'", what);
    if (P->tok.kind == '{') depth++;
    if (P->tok.kind == '}') depth--;
    advance(P);
  }
}

/* ---- names of plain registers -------------------------------------------- */

static uint32_t hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static plain_reg *plain_slot(parser *P, const char *s, size_t n) {
  size_t mask = P->plain_cap - 1;
  for (size_t i = hash(s, n) & mask;; i = (i + 1) & mask) {
    plain_reg *r = &P->plain[i];
    if (r->len == 0 || (r->len == n && memcmp(r->s, s, n) == 0)) return r;
  }
}

static void plain_add(parser *P, const char *s, size_t n, uint32_t count) {
  if (P->plain_n * 2 >= P->plain_cap) {
    size_t cap = P->plain_cap ? P->plain_cap * 2 : 64;
    plain_reg *old = P->plain;
    size_t oldcap = P->plain_cap;
    P->plain = calloc(cap, sizeof *P->plain);
    if (!P->plain) {
      P->plain = old;
      fail_at(P, P->tok.pos, "out of memory");
    }
    P->plain_cap = cap;
    for (size_t i = 0; i < oldcap; i++)
      if (old[i].len) *plain_slot(P, old[i].s, old[i].len) = old[i];
    free(old);
  }
  plain_reg *r = plain_slot(P, s, n);
  if (!r->len) {
    r->s = s;
    r->len = (uint32_t)n;
    P->plain_n++;
  }
  if (count == 0) r->single = 1;
  if (count > r->count) r->count = count;
}

/* Whether a name without '%' is a declared register: `p`, or `r3` after
 * `.reg .b32 r<4>`. */
static int plain_is_reg(parser *P, const char *s, size_t n) {
  if (!P->plain_n) return 0;
  /* an element of a vector register: v.x */
  const char *dot = memchr(s, '.', n);
  if (dot && dot > s) return plain_is_reg(P, s, (size_t)(dot - s));
  plain_reg *r = plain_slot(P, s, n);
  if (r->len && r->single) return 1;
  size_t k = n;
  while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  if (k == 0 || k == n || n - k > 9 || (n - k > 1 && s[k] == '0')) return 0;
  uint32_t idx = 0;
  for (size_t i = k; i < n; i++) idx = idx * 10 + (uint32_t)(s[i] - '0');
  r = plain_slot(P, s, k);
  return r->len && idx < r->count;
}

static void plain_clear(parser *P) {
  if (P->plain_n) memset(P->plain, 0, P->plain_cap * sizeof *P->plain);
  P->plain_n = 0;
}

/* ---- numbers -------------------------------------------------------------- */

/* Rounds a double to nearest-even in a binary format with `ebits` exponent
 * and `mbits` mantissa bits (f16: 5/10, bf16: 8/7, f32: 8/23); returns its
 * bits. NaNs stay quiet NaNs, overflow gives infinity. */
static uint32_t round_to_format(double d, int ebits, int mbits) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << (ebits + mbits);
  int e = (int)(b >> 52 & 0x7ff);
  uint64_t man = b & ((UINT64_C(1) << 52) - 1);
  uint32_t emax = (1u << ebits) - 1;
  if (e == 0x7ff)
    return sign | emax << mbits | (man ? 1u << (mbits - 1) | (uint32_t)(man >> (52 - mbits)) : 0);
  if (e == 0 && man == 0) return sign;
  int bias = (1 << (ebits - 1)) - 1;
  int te = (e ? e : 1) - 1023 + bias; /* target biased exponent */
  uint64_t sig = (e ? UINT64_C(1) << 52 : 0) | man;
  int shift = 52 - mbits;
  if (te < 1) {
    shift += 1 - te; /* a subnormal result */
    te = 0;
  }
  if (shift > 62) return sign;
  uint64_t kept = sig >> shift, rem = sig & ((UINT64_C(1) << shift) - 1);
  uint64_t half = UINT64_C(1) << (shift - 1);
  if (rem > half || (rem == half && (kept & 1))) kept++;
  if (te == 0) return sign | (uint32_t)kept; /* may round up into the normals */
  if (kept >> (mbits + 1)) {
    kept >>= 1;
    te++;
  }
  if ((uint32_t)te >= emax) return sign | emax << mbits;
  return sign | (uint32_t)te << mbits | (uint32_t)(kept & ((UINT64_C(1) << mbits) - 1));
}

/* A numeric literal with its sign, as read from the text. */
typedef struct number {
  int kind;    /* PTX_TK_INT, _F32, _F64 or _FLOAT */
  int neg;     /* preceded by '-' */
  uint64_t u;  /* magnitude (INT) or bits without the sign (floats) */
  ptx_pos pos; /* where it starts */
} number;

static int at_float_kind(int k) { return k == PTX_TK_F32 || k == PTX_TK_F64 || k == PTX_TK_FLOAT; }

static int at_number(const parser *P) {
  int k = P->tok.kind;
  return k == PTX_TK_INT || at_float_kind(k);
}

/* Reads [-]literal. */
static number read_number(parser *P, const char *what) {
  number n = {0, 0, 0, P->tok.pos};
  if (P->tok.kind == '-') {
    n.neg = 1;
    advance(P);
  }
  if (!at_number(P)) expected(P, what);
  n.kind = P->tok.kind;
  n.u = P->tok.u;
  advance(P);
  return n;
}

/* The integer value of an INT number (negation wraps). */
static uint64_t number_int(const number *n) { return n->neg ? 0 - n->u : n->u; }

/* The bits of a floating number, sign applied. */
static uint64_t number_bits(const number *n) {
  if (!n->neg) return n->u;
  return n->kind == PTX_TK_F32 ? n->u ^ 0x80000000u : n->u ^ (UINT64_C(1) << 63);
}

static double number_value(const number *n) {
  if (n->kind == PTX_TK_INT) return n->neg ? -(double)n->u : (double)n->u;
  uint64_t bits = number_bits(n);
  if (n->kind == PTX_TK_F32) {
    float f;
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* ---- directives of the module ---------------------------------------------- */

static void parse_version(parser *P) {
  advance(P);
  const ptx_token *t = &P->tok;
  /* 9.0 lexes as a decimal floating literal: read it from the text. */
  int major = 0, minor = 0, i = 0, ok = t->kind == PTX_TK_FLOAT;
  for (; ok && i < (int)t->len && t->s[i] >= '0' && t->s[i] <= '9' && major < 1000; i++)
    major = major * 10 + (t->s[i] - '0');
  if (ok && (i == 0 || i >= (int)t->len - 1 || t->s[i] != '.')) ok = 0;
  for (i++; ok && i < (int)t->len; i++) {
    if (t->s[i] < '0' || t->s[i] > '9' || minor >= 1000)
      ok = 0;
    else
      minor = minor * 10 + (t->s[i] - '0');
  }
  if (!ok) expected(P, "a version number like 9.0");
  P->m->version_major = major;
  P->m->version_minor = minor;
  advance(P);
}

static void parse_target(parser *P) {
  advance(P);
  ptx_pos tpos = P->tok.pos;
  P->m->target = expect_ident(P, "a target like sm_90");
  {
    /* sm_NN{a,f}: a number of at most three digits */
    const char *t = P->m->target;
    if (!strncmp(t, "sm_", 3)) {
      size_t d = strspn(t + 3, "0123456789");
      if (d == 0 || d > 3 || strlen(t + 3 + d) > 1)
        fail_at(P, tpos, "'%s' is no target (sm_ and a number of up to three digits, as sm_90 or sm_90a)", t);
    }
  }
  for (;;) {
    if (strcmp(P->m->target, "texmode_independent") == 0) P->m->texmode_independent = 1;
    if (P->tok.kind != ',') break;
    advance(P);
    if (text_is(&P->tok, "texmode_independent")) P->m->texmode_independent = 1;
    expect(P, PTX_TK_IDENT, "a target option");
  }
}

static void parse_address_size(parser *P) {
  advance(P);
  ptx_pos pos = P->tok.pos;
  uint64_t v = expect_uint(P, "an address size", 64);
  if (v != 32 && v != 64) fail_at(P, pos, "address size must be 32 or 64, not %llu", (unsigned long long)v);
  P->m->address_size = (int)v;
}

/* Appends the text of the string token (between the quotes, escapes
 * resolved) to buf at *n; buf has room for the token's length. */
static void string_text(const ptx_token *t, char *buf, size_t *n) {
  for (uint32_t i = 1; i + 1 < t->len; i++) {
    if (t->s[i] == '\\' && i + 2 < t->len) i++;
    buf[(*n)++] = t->s[i];
  }
}

/* .file N "path" [, timestamp, size], or clang's .file N "dir" "name",
 * kept as "dir/name" (just "name" when it is absolute). */
static void parse_file(parser *P) {
  advance(P);
  uint32_t idx = (uint32_t)expect_uint(P, "a file number", MAX_FILE_INDEX);
  if (P->tok.kind != PTX_TK_STRING) expected(P, "a file name string");
  ptx_token dir = P->tok;
  advance(P);
  ptx_token name = dir;
  int two = P->tok.kind == PTX_TK_STRING;
  if (two) {
    name = P->tok;
    advance(P);
    if (name.len > 2 && name.s[1] == '/') two = 0; /* an absolute name */
  }
  char *path = alloc(P, (size_t)dir.len + name.len);
  size_t n = 0;
  if (two) {
    string_text(&dir, path, &n);
    if (n && path[n - 1] != '/') path[n++] = '/';
  }
  string_text(&name, path, &n);
  path[n] = 0;
  if (P->tok.kind == ',') {
    advance(P);
    expect_uint(P, "a timestamp", UINT64_MAX);
    expect(P, ',', "',' and a file size");
    expect_uint(P, "a file size", UINT64_MAX);
  }
  ptx_file *f = push(P, &P->files, sizeof *f);
  f->index = idx;
  f->path = path;
}

/* .loc FILE LINE COL [, function_name SYM[+N]] [, inlined_at F L C] */
static void parse_loc(parser *P) {
  advance(P);
  ptx_loc l = {0};
  const char *func = NULL;
  l.file = (uint32_t)expect_uint(P, "a file number", MAX_FILE_INDEX);
  l.line = (uint32_t)expect_uint(P, "a line number", UINT32_MAX);
  l.col = (uint32_t)expect_uint(P, "a column number", UINT32_MAX);
  while (P->tok.kind == ',') {
    advance(P);
    if (text_is(&P->tok, "function_name")) {
      advance(P);
      if (P->tok.kind == PTX_TK_IDENT) func = intern(P, P->tok.s, P->tok.len);
      expect(P, PTX_TK_IDENT, "a label after function_name");
      if (P->tok.kind == '+') {
        advance(P);
        expect(P, PTX_TK_INT, "an offset");
      }
    } else if (text_is(&P->tok, "inlined_at")) {
      advance(P);
      l.inl_file = (uint32_t)expect_uint(P, "a file number", MAX_FILE_INDEX);
      l.inl_line = (uint32_t)expect_uint(P, "a line number", UINT32_MAX);
      l.inl_col = (uint32_t)expect_uint(P, "a column number", UINT32_MAX);
    } else {
      expected(P, "function_name or inlined_at");
    }
  }
  if (l.inl_line) {
    /* a function inlined into an inlined function: nvcc writes its caller's
     * position, a .loc just before with its own inlined_at; follow it to the
     * user's line (shfl.sync inside __shfl_sync inside __shfl_down_sync) */
    ptx_inline *f = push(P, &P->inlines, sizeof *f);
    *f = (ptx_inline){l.file, l.line, func, l.inl_file, l.inl_line, 0};
    l.frame = (uint32_t)P->inlines.n;
    for (unsigned i = 0; i < 16 && i < P->ninl; i++) {
      const ptx_loc *e = &P->inl[(P->ninl - 1 - i) % 16];
      if (e->file == l.inl_file && e->line == l.inl_line && e->col == l.inl_col) {
        l.inl_file = e->inl_file, l.inl_line = e->inl_line, l.inl_col = e->inl_col;
        f->parent = e->frame;
        break;
      }
    }
    P->inl[P->ninl++ % 16] = l;
  }
  P->loc = l;
}

/* .pragma "a" [, "b"]... ; */
static void parse_pragma(parser *P) {
  advance(P);
  for (;;) {
    expect(P, PTX_TK_STRING, "a pragma string");
    if (P->tok.kind != ',') break;
    advance(P);
  }
  expect(P, ';', "';' after .pragma");
}

/* The strings of a .debug_str section: `LABEL:` then `.b8 B, B, ..., 0`
 * (the names .loc's function_name points to). Reads ahead without
 * consuming: the section is then skipped as any other. */
static void debug_strings(parser *P) {
  ptx_lexer lx = P->lx;
  ptx_token t, next;
  char buf[1024];
  size_t n = 0;
  const char *label = NULL;
  if (P->has_ahead) return; /* (never after '{': nothing was peeked) */
  for (int depth = 1; depth > 0;) {
    ptx_lex_next(&lx, &t);
    if (t.kind == PTX_TK_EOF || t.kind == PTX_TK_ERROR) return;
    if (t.kind == '{') depth++;
    if (t.kind == '}') depth--;
    if (t.kind == PTX_TK_IDENT) {
      ptx_lexer save = lx;
      ptx_lex_next(&lx, &next);
      if (next.kind == ':') {
        label = intern(P, t.s, t.len);
        n = 0;
        continue;
      }
      lx = save;
    }
    if (t.kind == PTX_TK_INT && label) {
      if (t.u == 0 || n + 1 >= sizeof buf) {
        debug_str *d = push(P, &P->dstr, sizeof *d);
        d->label = label;
        d->text = intern(P, buf, n);
        label = NULL;
      } else {
        buf[n++] = (char)t.u;
      }
    }
  }
}

/* .section NAME { ... }: debug sections, skipped whole (.debug_str's
 * strings kept). */
static void parse_section(parser *P) {
  advance(P);
  if (P->tok.kind != PTX_TK_DIR && P->tok.kind != PTX_TK_IDENT) expected(P, "a section name");
  int strs = text_is(&P->tok, ".debug_str");
  advance(P);
  if (P->tok.kind != '{') expected(P, "'{' after the section name");
  if (strs) debug_strings(P);
  skip_braces(P, ".section");
}

/* ---- declarations ---------------------------------------------------------- */

static int space_of(const parser *P) {
  static const struct {
    const char *name;
    int space;
  } spaces[] = {
      {"global", PTX_SPACE_GLOBAL},      {"shared", PTX_SPACE_SHARED}, {"const", PTX_SPACE_CONST},
      {"local", PTX_SPACE_LOCAL},        {"param", PTX_SPACE_PARAM},   {"tex", PTX_SPACE_TEX},
      {"shared::cta", PTX_SPACE_SHARED},
  };
  for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
    if (at_dir(P, spaces[i].name)) return spaces[i].space;
  return PTX_SPACE_NONE;
}

static int linkage_of(const parser *P) {
  if (at_dir(P, "visible")) return PTX_LINK_VISIBLE;
  if (at_dir(P, "extern")) return PTX_LINK_EXTERN;
  if (at_dir(P, "weak")) return PTX_LINK_WEAK;
  if (at_dir(P, "common")) return PTX_LINK_COMMON;
  return PTX_LINK_NONE;
}

/* The type named by the current directive token, or PTX_T_NONE. */
static int type_of(const parser *P) {
  if (P->tok.kind != PTX_TK_DIR || P->tok.len > 8) return PTX_T_NONE;
  char name[8];
  memcpy(name, P->tok.s + 1, P->tok.len - 1);
  name[P->tok.len - 1] = 0;
  return ptx_type_from_name(name);
}

static int read_align(parser *P) {
  advance(P);
  ptx_pos pos = P->tok.pos;
  uint64_t a = expect_uint(P, "an alignment", MAX_ALIGN);
  if (a == 0 || (a & (a - 1))) fail_at(P, pos, "alignment %llu is not a power of two", (unsigned long long)a);
  return (int)a;
}

/* Reads the words between the state space and the name: .align N, .vN,
 * .ptr [.space] [.align N], .attribute(...), the type. Stops at the first
 * token that is not a directive; an unknown directive is an error. */
static void parse_attrs(parser *P, decl *d) {
  d->vec = 1;
  int have_type = 0;
  while (P->tok.kind == PTX_TK_DIR) {
    int t = type_of(P);
    if (t != PTX_T_NONE || at_dir(P, "texref") || at_dir(P, "samplerref") || at_dir(P, "surfref")) {
      if (have_type) fail_at(P, P->tok.pos, "a declaration has one type");
      have_type = 1;
      d->type = t;
      d->opaque = t != PTX_T_NONE ? 0 : at_dir(P, "texref") ? 1 : at_dir(P, "samplerref") ? 2 : 3;
      advance(P);
    } else if (at_dir(P, "align")) {
      d->align = read_align(P);
    } else if (at_dir(P, "v2") || at_dir(P, "v4")) {
      d->vec = P->tok.s[2] - '0';
      advance(P);
    } else if (at_dir(P, "ptr")) {
      advance(P);
      for (;;) {
        int sp = space_of(P);
        if (sp != PTX_SPACE_NONE) {
          d->ptr_space = sp;
          advance(P);
        } else if (at_dir(P, "align")) {
          d->ptr_align = read_align(P);
        } else {
          break;
        }
      }
    } else if (at_dir(P, "attribute")) {
      /* .attribute(.managed) is kept (the driver answers managed variables
       * apart); .attribute(.unified(...)) is not */
      advance(P);
      if (P->tok.kind != '(') expected(P, "'(' after .attribute");
      int depth = 0;
      do {
        if (P->tok.kind == '(') depth++;
        if (P->tok.kind == ')') depth--;
        if (P->tok.kind == PTX_TK_EOF || P->tok.kind == ';') expected(P, "')'");
        if (depth == 1 && at_dir(P, "managed")) d->managed = 1;
        advance(P);
      } while (depth > 0);
    } else {
      char buf[64];
      fail_at(P, P->tok.pos, "unexpected %s in a declaration", describe(&P->tok, buf, sizeof buf));
    }
  }
  if (!have_type) expected(P, "a type");
}

/* The shape of an initializer: how many leaves a { } at each depth spans, so
 * that a short inner list is padded (C rules). */
typedef struct init_ctx {
  ptx_var *v;                  /* the variable */
  size_t esz;                  /* bytes of one leaf (one scalar element) */
  uint64_t cap;                /* leaves the variable holds; UINT64_MAX when unsized */
  uint64_t span[MAX_DIMS + 2]; /* leaves under a brace at each depth, 0: unknown */
  int nspan;                   /* entries of span */
  uint64_t idx;                /* next leaf */
} init_ctx;

/* Extends the initializer's bytes with zeros up to `size`. Padding of short
 * { } lists could make a few characters of text ask for gigabytes, so the
 * bytes of all initializers are limited to a multiple of the text's size. */
static void init_extend(parser *P, const init_ctx *ic, uint64_t size, ptx_pos pos) {
  if (size <= P->init.n) return;
  uint64_t more = size - P->init.n;
  if (more > P->init_budget || size > MAX_LIST)
    fail_at(P, pos, "initializer of '%s' is too large", ic->v->name);
  P->init_budget -= more;
  reserve(P, &P->init, (size_t)size, 1);
  memset((uint8_t *)P->init.p + P->init.n, 0, (size_t)more);
  P->init.n = (size_t)size;
}

/* Stores one scalar initializer at leaf ic->idx. */
static void store_number(parser *P, init_ctx *ic, const number *n) {
  int type = ic->v->type;
  size_t esz = ic->esz;
  uint8_t bytes[16] = {0};
  uint64_t v;
  if (type == PTX_T_F16 || type == PTX_T_BF16 || type == PTX_T_F32 || type == PTX_T_F64) {
    int same = (n->kind == PTX_TK_F32 && type == PTX_T_F32) || (n->kind == PTX_TK_F64 && type == PTX_T_F64);
    double d = number_value(n);
    if (same)
      v = number_bits(n); /* keep NaN payloads */
    else if (type == PTX_T_F64)
      memcpy(&v, &d, sizeof v);
    else if (type == PTX_T_F32)
      v = round_to_format(d, 8, 23);
    else if (type == PTX_T_F16)
      v = round_to_format(d, 5, 10);
    else
      v = round_to_format(d, 8, 7);
  } else if (n->kind == PTX_TK_INT) {
    v = number_int(n);
    if (n->neg && esz > 8) memset(bytes + 8, 0xff, esz - 8); /* sign-extend .b128 */
  } else if ((n->kind == PTX_TK_F32 && esz == 4 && type != PTX_T_U32 && type != PTX_T_S32) ||
             (n->kind == PTX_TK_F64 && esz == 8 && type != PTX_T_U64 && type != PTX_T_S64)) {
    v = number_bits(n); /* raw bits into .b32/.b64, .f16x2 */
  } else {
    fail_at(P, n->pos, "a floating-point value cannot initialize a .%s", ptx_type_name(type));
  }
  for (size_t i = 0; i < esz && i < 8; i++) bytes[i] = (uint8_t)(v >> (8 * i));
  uint64_t off = ic->idx * esz;
  init_extend(P, ic, off + esz, n->pos);
  memcpy((uint8_t *)P->init.p + off, bytes, esz);
}

/* Ends a run of byte-mask initializers: the bytes of one address must be
 * complete (4 or 8 of them). */
static void close_mask_run(parser *P, ptx_pos pos) {
  if (!P->mask_run) return;
  P->mask_run = 0;
  const ptx_reloc *r = (const ptx_reloc *)P->relocs.p + P->relocs.n - 1;
  if (r->size != 4 && r->size != 8)
    fail_at(P, pos, "byte-mask initializers give %d of the 4 or 8 bytes of the address of '%s'", r->size,
            r->symbol);
}

/* sym, sym+N, generic(sym), generic(sym)+N as the value of leaf ic->idx.
 * `byte` is -1 for a whole address, or k for the form 0xFF<<8k(expr): byte k
 * of the address, which nvcc writes into packed structs. The bytes 0..7 (or
 * 0..3) of one address at consecutive leaves merge into one ptx_reloc of size
 * 8 (or 4) at the first, which need not be aligned. */
static void parse_address_init(parser *P, init_ctx *ic, int byte, ptx_pos pos) {
  int generic = 0;
  const char *sym;
  if (text_is(&P->tok, "generic") && peek_ahead(P)->kind == '(') {
    generic = 1;
    advance(P);
    advance(P);
    sym = expect_ident(P, "a symbol in generic()");
    expect(P, ')', "')'");
  } else {
    sym = expect_ident(P, "a symbol");
  }
  uint64_t addend = 0;
  while (P->tok.kind == '+' || P->tok.kind == '-') {
    int neg = P->tok.kind == '-';
    advance(P);
    if (P->tok.kind != PTX_TK_INT) expected(P, "an integer offset");
    addend += neg ? 0 - P->tok.u : P->tok.u;
    advance(P);
  }
  uint64_t offset = ic->idx * ic->esz;
  if (byte > 0) {
    ptx_reloc *last = P->relocs.n ? (ptx_reloc *)P->relocs.p + P->relocs.n - 1 : NULL;
    if (!P->mask_run || last->size != byte || last->offset + (uint64_t)byte != offset ||
        strcmp(last->symbol, sym) != 0 || last->addend != (int64_t)addend || last->generic != generic)
      fail_at(P, pos, "byte %d of the address of '%s' does not follow its byte %d", byte, sym, byte - 1);
    last->size++;
  } else {
    close_mask_run(P, pos);
    if (byte < 0 && ic->esz != 4 && ic->esz != 8)
      fail_at(P, pos, "an address needs a 32- or 64-bit element, not .%s", ptx_type_name(ic->v->type));
    ptx_reloc *r = push(P, &P->relocs, sizeof *r);
    r->offset = offset;
    r->symbol = sym;
    r->addend = (int64_t)addend;
    r->size = byte < 0 ? (int)ic->esz : 1;
    r->generic = generic;
    P->mask_run = byte == 0;
  }
  init_extend(P, ic, offset + ic->esz, pos);
}

/* 0xFF<<8k(address): the current token is the '(' after the mask. */
static void parse_mask_init(parser *P, init_ctx *ic, const number *mask) {
  int byte = 0;
  while (byte < 8 && mask->u != UINT64_C(0xFF) << (8 * byte)) byte++;
  if (byte == 8 || mask->neg) fail_at(P, mask->pos, "a byte mask must be 0xFF shifted by whole bytes");
  if (ic->esz != 1)
    fail_at(P, mask->pos, "a byte-mask initializer needs a byte element, not .%s",
            ptx_type_name(ic->v->type));
  advance(P);
  parse_address_init(P, ic, byte, mask->pos);
  expect(P, ')', "')' after the masked address");
}

/* One initializer item at brace depth `depth`: a value or a { } list. */
static void parse_init_item(parser *P, init_ctx *ic, int depth) {
  if (P->tok.kind == '{') {
    if (depth >= MAX_INIT_DEPTH) fail_at(P, P->tok.pos, "initializer nested too deeply");
    ptx_pos open = P->tok.pos;
    advance(P);
    uint64_t start = ic->idx;
    if (P->tok.kind != '}') {
      for (;;) {
        parse_init_item(P, ic, depth + 1);
        if (P->tok.kind != ',') break;
        advance(P);
      }
    }
    expect(P, '}', "',' or '}' in the initializer");
    uint64_t span = depth < ic->nspan ? ic->span[depth] : 0;
    if (span && ic->idx - start > span) fail_at(P, open, "too many initializers in this brace");
    if (span && depth > 0) ic->idx = start + span; /* pad a short inner list */
    if (ic->idx > ic->cap) fail_at(P, open, "too many initializers for '%s'", ic->v->name);
    return;
  }
  if (ic->idx >= ic->cap) fail_at(P, P->tok.pos, "too many initializers for '%s'", ic->v->name);
  if (P->tok.kind == PTX_TK_IDENT) {
    parse_address_init(P, ic, -1, P->tok.pos);
  } else {
    number n = read_number(P, "an initializer value");
    if (n.kind == PTX_TK_INT && P->tok.kind == '(') {
      parse_mask_init(P, ic, &n);
    } else {
      close_mask_run(P, n.pos);
      store_number(P, ic, &n);
    }
  }
  ic->idx++;
}

/* `= init` of variable v declared with dimensions dims[0..ndims). */
static void parse_initializer(parser *P, ptx_var *v, const uint64_t *dims, int ndims) {
  if (v->opaque) {
    /* .samplerref s = { filter_mode = nearest, ... }: not kept */
    if (P->tok.kind == '{')
      skip_braces(P, "initializer");
    else
      advance(P);
    return;
  }
  init_ctx ic = {0};
  ic.v = v;
  ic.esz = (size_t)ptx_type_size(v->type);
  /* an unsized array may take up to 4 GiB from its initializer */
  ic.cap = v->unsized ? MAX_VAR_BYTES / ic.esz : v->nelems * (uint64_t)v->vec;
  /* span[k]: leaves under a brace at depth k (0 is the outer brace) */
  uint64_t s = (uint64_t)v->vec;
  ic.nspan = ndims + (v->vec > 1);
  if (v->vec > 1) ic.span[ndims] = s;
  for (int k = ndims - 1; k >= 0; k--) {
    s = dims[k] ? s * dims[k] : 0; /* fits: the variable is under 4 GiB */
    ic.span[k] = s;
  }
  P->init.n = 0;
  P->relocs.n = 0;
  P->mask_run = 0;
  parse_init_item(P, &ic, 0);
  close_mask_run(P, P->tok.pos);
  int n;
  v->init = take(P, &P->init, 0, 1, &n); /* n <= MAX_LIST */
  v->init_size = (uint64_t)n;
  v->relocs = take(P, &P->relocs, 0, sizeof(ptx_reloc), &v->nrelocs);
  if (v->unsized) {
    /* the first dimension comes from the initializer */
    uint64_t row = (uint64_t)v->vec;
    for (int k = 1; k < ndims; k++) row *= dims[k];
    uint64_t rows = row ? (ic.idx + row - 1) / row : 0;
    if (rows * row * ic.esz > MAX_VAR_BYTES) fail_at(P, v->pos, "array '%s' is larger than 4 GiB", v->name);
    v->nelems = v->vec ? rows * (row / (uint64_t)v->vec) : 0;
    v->unsized = 0;
  }
}

/* NAME [dims] [= init]: one declarator of a declaration of shape d. */
static void parse_declarator(parser *P, const decl *d, vec *out, int allow_init) {
  ptx_pos pos = P->tok.pos;
  const char *name = expect_ident(P, "a name");
  uint64_t dims[MAX_DIMS];
  int ndims = 0, unsized = 0;
  uint64_t n = 1;
  uint64_t esz = (uint64_t)ptx_type_size(d->type) * (uint64_t)d->vec;
  while (P->tok.kind == '[') {
    ptx_pos dpos = P->tok.pos;
    if (ndims == MAX_DIMS) fail_at(P, dpos, "too many array dimensions");
    advance(P);
    uint64_t dim = 0;
    if (P->tok.kind == ']') {
      if (ndims) fail_at(P, dpos, "only the first dimension of '%s' may be empty", name);
      unsized = 1;
    } else {
      dim = expect_uint_expr(P, "an array size", UINT64_MAX);
      if (dim > MAX_VAR_BYTES || (dim && n > MAX_VAR_BYTES / dim) || (esz && dim * n > MAX_VAR_BYTES / esz))
        fail_at(P, dpos, "array '%s' is larger than 4 GiB", name);
      n *= dim;
    }
    expect(P, ']', "']'");
    dims[ndims++] = dim;
  }
  ptx_var *v = push(P, out, sizeof *v);
  v->name = name;
  v->space = d->space;
  v->type = d->opaque ? PTX_T_U64 : d->type; /* an opaque reference holds a handle */
  v->opaque = d->opaque;
  v->vec = d->vec;
  v->align = d->align;
  v->nelems = unsized ? 0 : n;
  v->is_array = ndims > 0;
  v->unsized = unsized;
  v->linkage = d->linkage;
  v->ptr_space = d->ptr_space;
  v->ptr_align = d->ptr_align;
  v->managed = d->managed;
  v->pos = pos;
  if (P->tok.kind == '=') {
    if (!allow_init) fail_at(P, P->tok.pos, "'%s' cannot have an initializer", name);
    advance(P);
    /* the initializer may push to other vecs, but not to `out` */
    parse_initializer(P, v, dims, ndims);
  }
}

/* [linkage] .space attrs NAME[dims][= init] {, NAME...} ;  The current token
 * is the state space. */
static void parse_var_decl(parser *P, vec *out, int linkage) {
  decl d = {0};
  d.linkage = linkage;
  d.space = space_of(P);
  advance(P);
  parse_attrs(P, &d);
  for (;;) {
    parse_declarator(P, &d, out, 1);
    if (P->tok.kind != ',') break;
    advance(P);
  }
  expect(P, ';', "';' after the declaration");
}

/* .param/.reg attrs NAME[dims] in a parameter list. */
static void parse_param(parser *P, vec *out) {
  decl d = {0};
  if (at_dir(P, "param"))
    d.space = PTX_SPACE_PARAM;
  else if (at_dir(P, "reg"))
    d.space = PTX_SPACE_REG;
  else
    expected(P, "'.param'");
  advance(P);
  parse_attrs(P, &d);
  parse_declarator(P, &d, out, 0);
}

static void parse_param_list(parser *P, vec *out) {
  expect(P, '(', "'('");
  if (P->tok.kind == ')') {
    advance(P);
    return;
  }
  for (;;) {
    parse_param(P, out);
    if (P->tok.kind != ',') break;
    advance(P);
  }
  expect(P, ')', "',' or ')' in the parameter list");
}

/* .reg attrs NAME[<N>] {, NAME[<N>]} ; */
static void parse_reg_decl(parser *P) {
  decl d = {0};
  advance(P);
  parse_attrs(P, &d);
  if (d.opaque) fail_at(P, P->tok.pos, "a register needs a fundamental type");
  for (;;) {
    if (P->tok.kind != PTX_TK_IDENT) expected(P, "a register name");
    ptx_pos pos = P->tok.pos;
    const char *s = P->tok.s;
    uint32_t len = P->tok.len;
    const char *name = expect_ident(P, "a register name");
    uint64_t count = 0;
    int empty = 0; /* %r<0> declares nothing */
    if (P->tok.kind == '<') {
      advance(P);
      ptx_pos cpos = P->tok.pos;
      count = expect_uint(P, "a register count", UINT64_MAX);
      if (count > MAX_REG_COUNT)
        fail_at(P, cpos, "register count %llu is too large (the limit is %d)", (unsigned long long)count,
                MAX_REG_COUNT);
      expect(P, '>', "'>'");
      empty = count == 0;
    }
    if (!empty && P->depth > 0) {
      /* declared in an inner scope: a fresh name, visible until the '}' */
      size_t n = strlen(name) + 24;
      char *fresh = alloc(P, n);
      snprintf(fresh, n, "%s$s%u_", name, ++P->serial);
      scoped *sc = push(P, &P->ren, sizeof *sc);
      *sc = (scoped){name, fresh, count, P->depth};
      name = fresh;
    }
    if (!empty) {
      ptx_regdecl *r = push(P, &P->regs, sizeof *r);
      r->name = name;
      r->type = d.type;
      r->vec = d.vec;
      r->count = (int)count;
      r->pos = pos;
      if (s[0] != '%') plain_add(P, name, len, (uint32_t)count);
    }
    if (P->tok.kind != ',') break;
    advance(P);
  }
  expect(P, ';', "';' after the register declaration");
}

/* The name a register reference means here: an inner scope's renamed one
 * when a declaration there hides the outer register. */
static const char *scoped_name(parser *P, const char *name) {
  scoped *r = P->ren.p;
  for (size_t i = P->ren.n; i-- > 0;) {
    size_t ol = strlen(r[i].orig);
    if (!r[i].count) {
      if (!strcmp(r[i].orig, name)) return r[i].renamed;
      /* an element of a vector register (v.x) or a selector (r.b1) */
      if (!strncmp(r[i].orig, name, ol) && name[ol] == '.') {
        size_t n = strlen(r[i].renamed) + strlen(name + ol) + 1;
        char *out = alloc(P, n);
        snprintf(out, n, "%s%s", r[i].renamed, name + ol);
        return out;
      }
      continue;
    }
    if (strncmp(r[i].orig, name, ol) || !name[ol]) continue;
    uint64_t k = 0;
    const char *d = name + ol;
    for (; *d >= '0' && *d <= '9' && k < r[i].count; d++) k = k * 10 + (uint64_t)(*d - '0');
    if (*d || k >= r[i].count || (name[ol] == '0' && name[ol + 1])) continue;
    size_t n = strlen(r[i].renamed) + strlen(name + ol) + 1;
    char *out = alloc(P, n);
    snprintf(out, n, "%s%s", r[i].renamed, name + ol);
    return out;
  }
  return name;
}

/* ---- constant expressions ------------------------------------------------ */

/* PTX allows C-style integer constant expressions wherever an integer
 * constant goes (operands, address offsets, array sizes), and nvcc writes
 * the predefined constant WARP_SZ for warpSize. They are evaluated here, in
 * 64-bit two's complement as the PTX ISA says, so the decoder sees plain
 * integers. */
enum { MAX_EXPR_DEPTH = 64 }; /* nesting of ( ) and unary operators */
#define PTX_WARP_SZ 32        /* the value of WARP_SZ on every NVIDIA GPU */

static int at_warp_sz(parser *P) {
  return P->tok.kind == PTX_TK_IDENT && text_is(&P->tok, "WARP_SZ") && !plain_is_reg(P, P->tok.s, P->tok.len);
}

/* The current token can begin an integer constant expression. */
static int at_expr_start(parser *P) {
  int k = P->tok.kind;
  return k == PTX_TK_INT || k == '(' || k == '-' || k == '+' || k == '~' || k == '!' || at_warp_sz(P);
}

static int64_t cexpr(parser *P, int min_prec, int depth);

/* A binary operator at the current token: its precedence (higher binds
 * tighter; 0 when none) and how many tokens it spans (<<, >=, &&, ...). */
static int binop(parser *P, int *op, int *ntok) {
  int k = P->tok.kind, k2 = 0;
  const ptx_token *n = NULL;
  if (k == '<' || k == '>' || k == '=' || k == '!' || k == '&' || k == '|') {
    n = peek_ahead(P);
    /* the two characters must touch: `a < <b` is no shift */
    if (n->s == P->tok.s + 1) k2 = n->kind;
  }
  *ntok = 1;
  *op = k;
  switch (k) {
  case '*':
  case '/':
  case '%':
    return 10;
  case '+':
  case '-':
    return 9;
  case '<':
  case '>':
    if (k2 == k) {
      *ntok = 2;
      *op = k == '<' ? 'l' : 'r';
      return 8;
    }
    if (k2 == '=') {
      *ntok = 2;
      *op = k == '<' ? 'L' : 'G';
    }
    return 7;
  case '=':
    if (k2 == '=') {
      *ntok = 2;
      *op = 'E';
      return 6;
    }
    return 0;
  case '!':
    if (k2 == '=') {
      *ntok = 2;
      *op = 'N';
      return 6;
    }
    return 0;
  case '&':
    if (k2 == '&') {
      *ntok = 2;
      *op = 'A';
      return 2;
    }
    return 5;
  case '^':
    return 4;
  case '|':
    if (k2 == '|') {
      *ntok = 2;
      *op = 'O';
      return 1;
    }
    return 3;
  default:
    return 0;
  }
}

static int64_t cexpr_unary(parser *P, int depth) {
  ptx_pos pos = P->tok.pos;
  if (depth > MAX_EXPR_DEPTH) fail_at(P, pos, "constant expression nested too deeply");
  int k = P->tok.kind;
  if (k == '-' || k == '+' || k == '~' || k == '!') {
    advance(P);
    uint64_t v = (uint64_t)cexpr_unary(P, depth + 1);
    return (int64_t)(k == '-' ? 0 - v : k == '~' ? ~v : k == '!' ? !v : v);
  }
  if (k == '(') {
    advance(P);
    int64_t v = cexpr(P, 1, depth + 1);
    expect(P, ')', "')' in the constant expression");
    return v;
  }
  if (at_warp_sz(P)) {
    advance(P);
    return PTX_WARP_SZ;
  }
  if (k == PTX_TK_INT) {
    uint64_t v = P->tok.u;
    advance(P);
    return (int64_t)v;
  }
  if (at_number(P)) fail_at(P, pos, "a floating-point constant in an integer expression");
  expected(P, "an integer, WARP_SZ or '(' in the constant expression");
}

/* Operators of precedence >= min_prec, left to right; c ? a : b below
 * them all. */
static int64_t cexpr(parser *P, int min_prec, int depth) {
  int64_t a = cexpr_unary(P, depth);
  for (;;) {
    int op, ntok, prec = binop(P, &op, &ntok);
    if (!prec || prec < min_prec) break;
    ptx_pos pos = P->tok.pos;
    while (ntok--) advance(P);
    int64_t b = cexpr(P, prec + 1, depth + 1);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case '*':
      a = (int64_t)(ua * ub);
      break;
    case '/':
    case '%':
      if (!b) fail_at(P, pos, "division by zero in a constant expression");
      if (a == INT64_MIN && b == -1)
        a = op == '/' ? a : 0;
      else
        a = op == '/' ? a / b : a % b;
      break;
    case '+':
      a = (int64_t)(ua + ub);
      break;
    case '-':
      a = (int64_t)(ua - ub);
      break;
    case 'l':
      a = ub > 63 ? 0 : (int64_t)(ua << ub);
      break;
    case 'r':
      a = ub > 63 ? (a < 0 ? -1 : 0) : a >> ub;
      break; /* arithmetic, as on s64 */
    case '<':
      a = a < b;
      break;
    case '>':
      a = a > b;
      break;
    case 'L':
      a = a <= b;
      break;
    case 'G':
      a = a >= b;
      break;
    case 'E':
      a = a == b;
      break;
    case 'N':
      a = a != b;
      break;
    case '&':
      a = (int64_t)(ua & ub);
      break;
    case '^':
      a = (int64_t)(ua ^ ub);
      break;
    case '|':
      a = (int64_t)(ua | ub);
      break;
    case 'A':
      a = a && b;
      break;
    default:
      a = a || b;
      break;
    }
  }
  if (min_prec <= 1 && P->tok.kind == '?') {
    advance(P);
    int64_t t = cexpr(P, 1, depth + 1);
    expect(P, ':', "':' in the constant expression");
    int64_t f = cexpr(P, 1, depth + 1);
    a = a ? t : f;
  }
  return a;
}

/* A whole integer constant expression. */
static int64_t parse_cexpr(parser *P) { return cexpr(P, 1, 0); }

/* The `+N`, `-N*4`, `+WARP_SZ` terms after a register or symbol in an
 * address or operand: added up as additive terms of one expression. */
static int64_t parse_offset_terms(parser *P) {
  int64_t off = 0;
  while (P->tok.kind == '+' || P->tok.kind == '-') {
    int neg = P->tok.kind == '-';
    advance(P);
    if (!at_expr_start(P)) expected(P, "an integer offset");
    uint64_t v = (uint64_t)cexpr(P, 10, 0); /* one term: binds * / % */
    off = (int64_t)((uint64_t)off + (neg ? 0 - v : v));
  }
  return off;
}

/* ---- operands --------------------------------------------------------------- */

enum { IN_TOP, IN_GROUP, IN_ADDR };

static ptx_operand parse_operand(parser *P, int ctx);

/* (a, b) or {a, b}: the elements go to o->elems. */
static void parse_group(parser *P, ptx_operand *o, int close) {
  advance(P);
  size_t base = P->ops.n;
  if (P->tok.kind != close) {
    for (;;) {
      ptx_operand e = parse_operand(P, IN_GROUP);
      *(ptx_operand *)push(P, &P->ops, sizeof e) = e;
      if (P->tok.kind != ',') break;
      advance(P);
    }
  }
  expect(P, close, close == ')' ? "',' or ')'" : "',' or '}'");
  o->elems = take(P, &P->ops, base, sizeof(ptx_operand), &o->nelems);
}

/* [reg], [reg+N], [reg+-N], [reg-N], [sym+N], [N], and texture forms
 * [tex, {coords}] / [tex, sampler, {coords}] whose items after the first go
 * to elems. */
static void parse_address(parser *P, ptx_operand *o) {
  advance(P);
  o->kind = PTX_OPD_ADDR;
  if (P->tok.kind == PTX_TK_IDENT) {
    o->name = scoped_name(P, intern(P, P->tok.s, P->tok.len));
    advance(P);
    if (P->tok.kind == '+' || P->tok.kind == '-') {
      o->ival = parse_offset_terms(P);
    } else if (P->tok.kind == ',') {
      advance(P);
      size_t base = P->ops.n;
      for (;;) {
        ptx_operand e = parse_operand(P, IN_ADDR);
        *(ptx_operand *)push(P, &P->ops, sizeof e) = e;
        if (P->tok.kind != ',') break;
        advance(P);
      }
      o->elems = take(P, &P->ops, base, sizeof(ptx_operand), &o->nelems);
    }
  } else if (P->tok.kind != '-' && at_number(P) && P->tok.kind != PTX_TK_INT) {
    fail_at(P, P->tok.pos, "an address must be an integer");
  } else if (at_expr_start(P)) {
    if (P->tok.kind == '-' && peek_ahead(P)->kind != PTX_TK_INT && peek_ahead(P)->kind != '(')
      fail_at(P, P->tok.pos, "an address must be an integer");
    o->ival = parse_cexpr(P);
  } else {
    expected(P, "a register, a variable or an integer address");
  }
  expect(P, ']', "'+', '-' or ']' in the address");
}

/* One operand. `ctx` limits nesting: groups only at the top level, and a
 * vector as a texture coordinate inside an address. */
static ptx_operand parse_operand(parser *P, int ctx) {
  ptx_operand o = {0};
  ptx_pos at = P->tok.pos;
  o.pos = at;
  switch (P->tok.kind) {
  case '[':
    if (ctx != IN_TOP) break;
    parse_address(P, &o);
    return o;
  case '{':
    if (ctx == IN_GROUP) break;
    o.kind = PTX_OPD_VEC;
    parse_group(P, &o, '}');
    return o;
  case '(':
    if (ctx != IN_TOP) break;
    if (!P->in_call) {
      /* outside call's argument lists a parenthesis opens an expression */
      o.kind = PTX_OPD_INT;
      o.ival = parse_cexpr(P);
      return o;
    }
    o.kind = PTX_OPD_LIST;
    parse_group(P, &o, ')');
    return o;
  case '!': {
    const ptx_token *n = peek_ahead(P);
    if (n->kind == PTX_TK_INT || n->kind == '(' ||
        (n->kind == PTX_TK_IDENT && n->len == 7 && !memcmp(n->s, "WARP_SZ", 7)))
      goto expression;
    advance(P);
    if (P->tok.kind != PTX_TK_IDENT) expected(P, "a predicate after '!'");
    o = parse_operand(P, ctx);
    if (o.kind != PTX_OPD_REG && o.kind != PTX_OPD_SYM) fail_at(P, o.pos, "'!' applies to a predicate");
    o.neg = 1;
    o.pos = at; /* the operand starts at the '!' */
    return o;
  }
  case '-':
  case '+':
  case '~':
  case PTX_TK_INT:
  expression:
    if (P->tok.kind == '-' && peek_ahead(P)->kind == PTX_TK_IDENT && peek_ahead(P)->s[0] == '%') {
      /* -%r: a negated register (vmad's operands); the '-' stays in the
       * name, so an instruction that negates nothing finds no register */
      advance(P);
      ptx_operand r = parse_operand(P, ctx);
      if (r.kind != PTX_OPD_REG) fail_at(P, at, "'-' applies to a register here");
      size_t n = strlen(r.name);
      char *s = alloc(P, n + 2);
      s[0] = '-';
      memcpy(s + 1, r.name, n + 1);
      r.name = s;
      r.pos = at;
      return r;
    }
    if (P->tok.kind == '-') {
      const ptx_token *n = peek_ahead(P);
      int k = n->kind;
      /* -0f3F800000 is a literal; -x keeps the literal's message */
      if (!(k == PTX_TK_INT || k == '(' || k == '-' || k == '+' || k == '~' || k == '!' ||
            (k == PTX_TK_IDENT && text_is(n, "WARP_SZ"))))
        goto literal;
    }
    if (P->tok.kind == '+' || P->tok.kind == '~' || P->tok.kind == '-' || P->tok.kind == PTX_TK_INT ||
        P->tok.kind == '!') {
      o.kind = PTX_OPD_INT;
      o.ival = parse_cexpr(P);
      return o;
    }
    goto literal;
  case PTX_TK_F32:
  case PTX_TK_F64:
  case PTX_TK_FLOAT:
  literal : {
    number n = read_number(P, "a number after '-'");
    if (n.kind == PTX_TK_INT) {
      o.kind = PTX_OPD_INT;
      o.ival = (int64_t)number_int(&n);
    } else {
      o.kind = n.kind == PTX_TK_F32 ? PTX_OPD_F32 : PTX_OPD_F64;
      o.bits = number_bits(&n);
    }
    return o;
  }
  case PTX_TK_IDENT: {
    const ptx_token *t = &P->tok;
    if (at_warp_sz(P)) {
      o.kind = PTX_OPD_INT;
      o.ival = parse_cexpr(P);
      return o;
    }
    if (t->len == 1 && t->s[0] == '_') {
      o.kind = PTX_OPD_SINK;
    } else {
      o.kind = t->s[0] == '%' || plain_is_reg(P, t->s, t->len) ? PTX_OPD_REG : PTX_OPD_SYM;
      o.name = intern(P, t->s, t->len);
      if (o.kind == PTX_OPD_REG) o.name = scoped_name(P, o.name);
    }
    advance(P);
    if (o.kind == PTX_OPD_SYM && (P->tok.kind == '+' || P->tok.kind == '-') && ctx != IN_ADDR)
      o.ival = parse_offset_terms(P); /* mov.u64 %rd1, var+8: the offset goes to ival */
    if (P->tok.kind == '|' && o.kind != PTX_OPD_SYM) {
      advance(P);
      if (P->tok.kind != PTX_TK_IDENT) expected(P, "a predicate after '|'");
      o.pair = scoped_name(P, intern(P, P->tok.s, P->tok.len));
      advance(P);
    }
    return o;
  }
  case '%':
    fail_at(P, at, "expected a register name after '%%'");
  default:
    break;
  }
  expected(P, "an operand");
}

/* ---- statements --------------------------------------------------------------- */

static ptx_stmt *new_stmt(parser *P, ptx_pos pos) {
  ptx_stmt *s = push(P, &P->body, sizeof *s);
  s->loc = P->loc;
  s->pos = pos;
  return s;
}

/* [@[!]pred] opcode[.mod]... [operands] ; */
static void parse_instruction(parser *P) {
  ptx_pos pos = P->tok.pos;
  const char *guard = NULL;
  int guard_neg = 0;
  if (P->tok.kind == '@') {
    advance(P);
    if (P->tok.kind == '!') {
      guard_neg = 1;
      advance(P);
    }
    if (P->tok.kind != PTX_TK_IDENT || (P->tok.s[0] != '%' && !plain_is_reg(P, P->tok.s, P->tok.len)))
      expected(P, "a predicate register after '@'");
    guard = scoped_name(P, expect_ident(P, "a predicate register after '@'"));
  }
  const ptx_token *t = &P->tok;
  if (t->kind != PTX_TK_IDENT || t->s[0] == '%' || t->s[0] == '$')
    expected(P, guard ? "an instruction after the guard" : "an instruction");
  /* split ld.global.v4.f32 into the opcode and its modifiers */
  int nmods = 0;
  for (uint32_t i = 0; i < t->len; i++) nmods += t->s[i] == '.';
  const char **mods = nmods ? alloc(P, (size_t)nmods * sizeof *mods) : NULL;
  const char *word = t->s, *end = t->s + t->len;
  const char *dot = memchr(word, '.', (size_t)(end - word));
  const char *opcode = intern(P, word, (size_t)((dot ? dot : end) - word));
  for (int i = 0; i < nmods; i++) {
    word = dot + 1;
    dot = memchr(word, '.', (size_t)(end - word));
    mods[i] = intern(P, word, (size_t)((dot ? dot : end) - word));
  }
  advance(P);
  size_t base = P->ops.n;
  P->in_call = !strcmp(opcode, "call");
  if (P->tok.kind != ';') {
    for (;;) {
      ptx_operand o = parse_operand(P, IN_TOP);
      *(ptx_operand *)push(P, &P->ops, sizeof o) = o;
      if (P->tok.kind != ',') break;
      advance(P);
    }
  }
  if (P->tok.kind != ';') expected(P, "',' or ';' after an operand");
  advance(P);
  ptx_stmt *s = new_stmt(P, pos);
  s->guard = guard;
  s->guard_neg = guard_neg;
  s->opcode = opcode;
  s->mods = mods;
  s->nmods = nmods;
  s->ops = take(P, &P->ops, base, sizeof(ptx_operand), &s->nops);
}

/* NAME: [.callprototype ... ; | .branchtargets L, ... ; | .calltargets f, ... ;] */
static void parse_label(parser *P) {
  ptx_pos pos = P->tok.pos;
  const char *name = expect_ident(P, "a label");
  advance(P); /* ':' */
  if (at_dir(P, "callprototype")) {
    skip_statement(P, "the .callprototype");
    return;
  }
  if (at_dir(P, "branchtargets") || at_dir(P, "calltargets")) {
    /* kept as a statement with opcode ".branchtargets" / ".calltargets":
     * operand 0 is the table's name, the others its entries */
    const char *opcode = intern(P, P->tok.s, P->tok.len);
    advance(P);
    size_t base = P->ops.n;
    ptx_operand *o = push(P, &P->ops, sizeof *o);
    o->kind = PTX_OPD_SYM;
    o->name = name;
    o->pos = pos;
    for (;;) {
      o = push(P, &P->ops, sizeof *o);
      o->pos = P->tok.pos;
      o->kind = PTX_OPD_SYM;
      o->name = expect_ident(P, "a label");
      if (P->tok.kind != ',') break;
      advance(P);
    }
    expect(P, ';', "',' or ';'");
    int nops;
    ptx_operand *ops = take(P, &P->ops, base, sizeof(ptx_operand), &nops);
    ptx_stmt *st = new_stmt(P, pos);
    st->opcode = opcode;
    st->ops = ops;
    st->nops = nops;
    return;
  }
  if (P->depth > 0) {
    scoped_label *l = push(P, &P->lbl, sizeof *l);
    *l = (scoped_label){name, P->body.n, P->depth};
  }
  new_stmt(P, pos)->label = name;
}

static int cmp_label(const void *a, const void *b) {
  return strcmp(((const scoped_label *)a)->orig, ((const scoped_label *)b)->orig);
}

/* The inner scope at depth P->depth, whose statements start at body[from],
 * closes: its labels get unique names, and so do the label operands in it
 * that still mean them (an inner scope's own labels were renamed, with the
 * operands meaning them, when it closed). */
static void close_label_scope(parser *P, size_t from) {
  scoped_label *l = P->lbl.p;
  size_t first = P->lbl.n;
  while (first > 0 && l[first - 1].depth >= P->depth) first--;
  size_t n = P->lbl.n - first;
  if (!n) return;
  scoped_label *own = l + first;
  qsort(own, n, sizeof *own, cmp_label);
  const char **fresh = alloc(P, n * sizeof *fresh);
  ptx_stmt *body = P->body.p;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && !strcmp(own[i].orig, own[i - 1].orig))
      fail_at(P, body[own[i].stmt].pos, "label '%s' is declared twice in one scope", own[i].orig);
    size_t len = strlen(own[i].orig) + 24;
    char *f = alloc(P, len);
    snprintf(f, len, "%s$l%u_", own[i].orig, ++P->serial);
    fresh[i] = f;
    body[own[i].stmt].label = f;
  }
  for (size_t s = from; s < P->body.n; s++)
    for (int k = 0; k < body[s].nops; k++) {
      ptx_operand *o = &body[s].ops[k];
      if (o->kind != PTX_OPD_SYM || !o->name) continue;
      scoped_label key = {o->name, 0, 0}, *hit = bsearch(&key, own, n, sizeof *own, cmp_label);
      if (hit) o->name = fresh[hit - own];
    }
  P->lbl.n = first;
}

/* { body }: statements, declarations and nested scopes, flattened. */
static void parse_body(parser *P) {
  int depth = 0;
  size_t start[MAX_SCOPE_DEPTH + 1]; /* first statement of each open scope */
  do {
    switch (P->tok.kind) {
    case '{':
      if (++depth > MAX_SCOPE_DEPTH) fail_at(P, P->tok.pos, "scopes nested too deeply");
      P->depth = depth - 1;
      start[depth] = P->body.n;
      advance(P);
      break;
    case '}':
      if (P->depth > 0) close_label_scope(P, start[depth]);
      depth--;
      P->depth = depth - 1;
      /* the scope's registers go out of sight */
      while (P->ren.n && ((scoped *)P->ren.p)[P->ren.n - 1].depth > P->depth) P->ren.n--;
      advance(P);
      break;
    case '@':
      parse_instruction(P);
      break;
    case PTX_TK_IDENT:
      if (peek_ahead(P)->kind == ':')
        parse_label(P);
      else
        parse_instruction(P);
      break;
    case PTX_TK_DIR: {
      int linkage = linkage_of(P);
      if (linkage) advance(P);
      if (space_of(P)) {
        parse_var_decl(P, &P->fvars, linkage);
      } else if (linkage) {
        expected(P, "a variable declaration after the linkage");
      } else if (at_dir(P, "reg")) {
        parse_reg_decl(P);
      } else if (at_dir(P, "loc")) {
        parse_loc(P);
      } else if (at_dir(P, "pragma")) {
        parse_pragma(P);
      } else if (at_dir(P, "file")) {
        parse_file(P);
      } else {
        fail_at(P, P->tok.pos, "unexpected directive '%.*s' in a function body", (int)P->tok.len, P->tok.s);
      }
      break;
    }
    case PTX_TK_EOF:
      expected(P, "'}' to end the function body");
    default:
      expected(P, "an instruction, a label or a directive");
    }
  } while (depth > 0);
}

/* ---- functions ------------------------------------------------------------------- */

/* Reads up to three comma-separated dimensions (.maxntid 256, 1, 1); the
 * ones left out are 1. */
static void read_dims(parser *P, uint32_t out[3]) {
  int n = (int)P->tok.len;
  const char *dname = P->tok.s;
  advance(P);
  out[0] = out[1] = out[2] = 1;
  for (int i = 0; i < 3; i++) {
    ptx_pos pos = P->tok.pos;
    out[i] = (uint32_t)expect_uint_expr(P, "a number", UINT32_MAX);
    /* as ptxas: a dimension of 0 is an error, not "no limit" */
    if (!out[i]) fail_at(P, pos, "%.*s needs a positive dimension, not 0", n, dname);
    if (P->tok.kind != ',') break;
    advance(P);
  }
}

static void function_directives(parser *P, ptx_func *f) {
  while (P->tok.kind == PTX_TK_DIR) {
    if (at_dir(P, "maxntid"))
      read_dims(P, f->maxntid);
    else if (at_dir(P, "reqntid"))
      read_dims(P, f->reqntid);
    else if (at_dir(P, "reqnctapercluster"))
      read_dims(P, f->reqncluster);
    else if (at_dir(P, "minnctapersm") || at_dir(P, "maxnctapersm")) {
      int min = at_dir(P, "minnctapersm");
      advance(P);
      uint32_t v = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
      if (min) f->minnctapersm = v;
    } else if (at_dir(P, "maxnreg")) {
      advance(P);
      ptx_pos pos = P->tok.pos;
      f->maxnreg = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
      if (!f->maxnreg) fail_at(P, pos, ".maxnreg needs a positive register count, not 0");
    } else if (at_dir(P, "maxclusterrank")) {
      advance(P);
      f->maxclusterrank = (uint32_t)expect_uint(P, "a number", UINT32_MAX);
    } else if (at_dir(P, "abi_preserve") || at_dir(P, "abi_preserve_control")) {
      advance(P);
      expect_uint(P, "a number", UINT32_MAX);
    } else if (at_dir(P, "explicitcluster")) {
      f->explicit_cluster = 1;
      advance(P);
    } else if (at_dir(P, "blocksareclusters")) {
      advance(P);
    } else if (at_dir(P, "noreturn")) {
      f->noreturn = 1;
      advance(P);
    } else if (at_dir(P, "pragma")) {
      parse_pragma(P);
    } else {
      fail_at(P, P->tok.pos, "unexpected directive '%.*s' before the function body", (int)P->tok.len,
              P->tok.s);
    }
  }
}

/* .entry NAME [(params)] [directives] {body} | ;
 * .func [(rets)] NAME [(params)] [directives] {body} | ;
 * The current token is .entry or .func. */
static void parse_function(parser *P, int linkage) {
  ptx_func f = {0};
  f.is_entry = at_dir(P, "entry");
  f.linkage = linkage;
  advance(P);
  P->params.n = P->rets.n = P->regs.n = P->fvars.n = P->body.n = P->ops.n = P->lbl.n = 0;
  plain_clear(P);
  P->loc = (ptx_loc){0};
  if (!f.is_entry && P->tok.kind == '(') parse_param_list(P, &P->rets);
  f.pos = P->tok.pos;
  f.name = expect_ident(P, "a function name");
  if (P->tok.kind == '(') parse_param_list(P, &P->params);
  function_directives(P, &f);
  if (P->tok.kind == '{') {
    f.has_body = 1;
    parse_body(P);
  } else if (P->tok.kind == ';') {
    advance(P);
  } else {
    expected(P, "'{' or ';' after the function header");
  }
  f.params = take(P, &P->params, 0, sizeof(ptx_var), &f.nparams);
  f.rets = take(P, &P->rets, 0, sizeof(ptx_var), &f.nrets);
  f.regs = take(P, &P->regs, 0, sizeof(ptx_regdecl), &f.nregs);
  f.vars = take(P, &P->fvars, 0, sizeof(ptx_var), &f.nvars);
  f.body = take(P, &P->body, 0, sizeof(ptx_stmt), &f.nbody);
  *(ptx_func *)push(P, &P->funcs, sizeof f) = f;
}

/* .alias NAME, TARGET; resolved by resolve_aliases. */
static void parse_alias(parser *P) {
  advance(P);
  alias a;
  a.pos = P->tok.pos;
  a.name = expect_ident(P, "a function name");
  expect(P, ',', "','");
  a.tpos = P->tok.pos;
  a.target = expect_ident(P, "a function name");
  expect(P, ';', "';' after .alias");
  *(alias *)push(P, &P->aliases, sizeof a) = a;
}

static int cmp_func_name(const void *a, const void *b) {
  const ptx_func *const *x = a, *const *y = b;
  return strcmp((*x)->name, (*y)->name);
}

/* The functions called `name` in the name-sorted array: the first index;
 * *count gets how many. */
static size_t find_funcs(ptx_func **sorted, size_t n, const char *name, size_t *count) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(sorted[mid]->name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t end = lo;
  while (end < n && strcmp(sorted[end]->name, name) == 0) end++;
  *count = end - lo;
  return lo;
}

/* Sets alias_of on every function named by an .alias, once all functions
 * are known (sorting keeps many aliases from costing n * m). */
static void resolve_aliases(parser *P) {
  ptx_module *m = P->m;
  if (!P->aliases.n) return;
  size_t n = (size_t)m->nfuncs, count;
  ptx_func **sorted = alloc(P, (n ? n : 1) * sizeof *sorted);
  for (size_t i = 0; i < n; i++) sorted[i] = &m->funcs[i];
  qsort(sorted, n, sizeof *sorted, cmp_func_name);
  const alias *as = P->aliases.p;
  for (size_t i = 0; i < P->aliases.n; i++) {
    size_t first = find_funcs(sorted, n, as[i].name, &count), targets;
    if (!count) fail_at(P, as[i].pos, ".alias of undeclared function '%s'", as[i].name);
    find_funcs(sorted, n, as[i].target, &targets);
    if (!targets) fail_at(P, as[i].tpos, ".alias to undeclared function '%s'", as[i].target);
    for (size_t k = first; k < first + count; k++) sorted[k]->alias_of = as[i].target;
  }
}

static void parse_module(parser *P) {
  advance(P);
  while (P->tok.kind != PTX_TK_EOF) {
    if (P->tok.kind != PTX_TK_DIR) expected(P, "a directive");
    int linkage = linkage_of(P);
    if (linkage) {
      advance(P);
      if (linkage_of(P)) fail_at(P, P->tok.pos, "a declaration has one linkage");
    }
    if (at_dir(P, "entry") || at_dir(P, "func"))
      parse_function(P, linkage);
    else if (space_of(P))
      parse_var_decl(P, &P->mvars, linkage);
    else if (linkage)
      expected(P, "'.entry', '.func' or a variable after the linkage");
    else if (at_dir(P, "version"))
      parse_version(P);
    else if (at_dir(P, "target"))
      parse_target(P);
    else if (at_dir(P, "address_size"))
      parse_address_size(P);
    else if (at_dir(P, "file"))
      parse_file(P);
    else if (at_dir(P, "loc"))
      parse_loc(P);
    else if (at_dir(P, "section"))
      parse_section(P);
    else if (at_dir(P, "pragma"))
      parse_pragma(P);
    else if (at_dir(P, "alias"))
      parse_alias(P);
    else if (at_dir(P, "branchtargets") || at_dir(P, "calltargets") || at_dir(P, "callprototype"))
      fail_at(P, P->tok.pos, "'%.*s' needs a label inside a function", (int)P->tok.len, P->tok.s);
    else
      fail_at(P, P->tok.pos, "unknown directive '%.*s'", (int)P->tok.len, P->tok.s);
  }
  ptx_module *m = P->m;
  m->vars = take(P, &P->mvars, 0, sizeof(ptx_var), &m->nvars);
  m->funcs = take(P, &P->funcs, 0, sizeof(ptx_func), &m->nfuncs);
  m->files = take(P, &P->files, 0, sizeof(ptx_file), &m->nfiles);
  /* function_name labels -> the names .debug_str holds */
  for (size_t i = 0; i < P->inlines.n; i++) {
    ptx_inline *f = (ptx_inline *)P->inlines.p + i;
    const char *name = NULL;
    for (size_t k = 0; f->func && k < P->dstr.n && !name; k++)
      if (!strcmp(((debug_str *)P->dstr.p)[k].label, f->func)) name = ((debug_str *)P->dstr.p)[k].text;
    f->func = name;
  }
  m->inl = take(P, &P->inlines, 0, sizeof(ptx_inline), &m->ninl);
  resolve_aliases(P);
}

/* ---- entry points ------------------------------------------------------------------ */

static void free_scratch(parser *P) {
  vec *vs[] = {&P->mvars, &P->funcs, &P->files,  &P->params,  &P->rets, &P->regs, &P->fvars,   &P->body,
               &P->ops,   &P->init,  &P->relocs, &P->aliases, &P->ren,  &P->lbl,  &P->inlines, &P->dstr};
  for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) free(vs[i]->p);
  free(P->plain);
}

int ptx_parse(const char *text, size_t len, const char *filename, ptx_module **out, char *err,
              size_t errsize) {
  if (out) *out = NULL;
  if (err && errsize) err[0] = 0;
  if (!filename) filename = "<ptx>";
  if (!out || (!text && len)) {
    if (err && errsize) snprintf(err, errsize, "%s: invalid arguments", filename);
    return -1;
  }
  if (len > MAX_TEXT_BYTES) {
    if (err && errsize) snprintf(err, errsize, "%s:1:1: input larger than 2 GiB", filename);
    return -1;
  }
  parser *P = calloc(1, sizeof *P);
  ptx_arena *arena = ptx_arena_new();
  ptx_module *m = arena ? ptx_arena_alloc(arena, sizeof *m) : NULL;
  char *name = m ? ptx_arena_strndup(arena, filename, strlen(filename)) : NULL;
  if (!P || !name) {
    if (err && errsize) snprintf(err, errsize, "%s: out of memory", filename);
    free(P);
    ptx_arena_free(arena);
    return -1;
  }
  m->filename = name;
  m->address_size = 64;
  m->arena = arena;
  P->arena = arena;
  P->m = m;
  P->fname = filename;
  P->err = err;
  P->errsize = errsize;
  P->init_budget = 8 * (uint64_t)len + 65536;
  ptx_lex_init(&P->lx, text, len);
  if (setjmp(P->jb)) {
    free_scratch(P);
    free(P);
    ptx_arena_free(arena);
    return -1;
  }
  parse_module(P);
  free_scratch(P);
  free(P);
  *out = m;
  return 0;
}

void ptx_free(ptx_module *m) {
  if (m) ptx_arena_free(m->arena);
}
