/* lex.c: the PTX lexer (see lex.h). Whitespace and comments are skipped;
 * names may carry dotted suffixes (opcodes with modifiers, %tid.x) and `::`
 * parts (.shared::cta); numbers follow the PTX spelling of literals. */
#include "ptx/lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest decimal floating literal accepted (characters). */
enum { MAX_FLOAT_TEXT = 128 };

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_ident(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
static int hex_val(int c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void ptx_lex_init(ptx_lexer *lx, const char *src, size_t len) {
  memset(lx, 0, sizeof *lx);
  if (!src) src = "", len = 0;
  lx->p = src;
  lx->end = src + len;
  lx->line_start = src;
  lx->line = 1;
}

static ptx_pos pos_of(const ptx_lexer *lx, const char *at) {
  size_t col = (size_t)(at - lx->line_start) + 1;
  return (ptx_pos){lx->line, col > UINT32_MAX ? UINT32_MAX : (uint32_t)col};
}

/* Records an error at `at` and returns PTX_TK_ERROR. */
static int fail(ptx_lexer *lx, ptx_token *t, const char *at, const char *msg) {
  lx->failed = 1;
  lx->err_pos = pos_of(lx, at);
  snprintf(lx->msg, sizeof lx->msg, "%s", msg);
  t->kind = PTX_TK_ERROR;
  t->s = at;
  t->len = 0;
  t->pos = lx->err_pos;
  return PTX_TK_ERROR;
}

static int peek(const ptx_lexer *lx, const char *p, size_t k) {
  return (size_t)(lx->end - p) > k ? (unsigned char)p[k] : -1;
}

/* Skips spaces and comments; returns 0, or -1 for an unterminated comment
 * (lx->p then points at the comment). */
static int skip_space(ptx_lexer *lx) {
  const char *p = lx->p, *end = lx->end;
  while (p < end) {
    char c = *p;
    if (c == '\n') {
      p++;
      lx->line++;
      lx->line_start = p;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
    } else if (c == '/' && end - p >= 2 && p[1] == '/') {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      p = nl ? nl : end;
    } else if (c == '/' && end - p >= 2 && p[1] == '*') {
      const char *q = p + 2, *start_line = lx->line_start;
      uint32_t start = lx->line;
      for (;;) {
        if (end - q < 2) {
          /* report the comment's start */
          lx->line = start;
          lx->line_start = start_line;
          lx->p = p;
          return -1;
        }
        if (q[0] == '*' && q[1] == '/') break;
        if (q[0] == '\n') {
          lx->line++;
          lx->line_start = q + 1;
        }
        q++;
      }
      p = q + 2;
    } else {
      break;
    }
  }
  lx->p = p;
  return 0;
}

/* Consumes identifier characters and `::name` parts from p. */
static const char *scan_word(const ptx_lexer *lx, const char *p) {
  for (;;) {
    while (p < lx->end && is_ident((unsigned char)*p)) p++;
    if (peek(lx, p, 0) == ':' && peek(lx, p, 1) == ':' && is_ident(peek(lx, p, 2)))
      p += 2;
    else
      return p;
  }
}

/* Reads a fixed count of hex digits (0f / 0d literals). */
static int lex_hex_float(ptx_lexer *lx, ptx_token *t, const char *start, int ndigits, int kind) {
  const char *p = start + 2;
  uint64_t v = 0;
  for (int i = 0; i < ndigits; i++) {
    int h = peek(lx, p, 0) < 0 ? -1 : hex_val((unsigned char)*p);
    if (h < 0)
      return fail(lx, t, start,
                  ndigits == 8 ? "malformed 0f literal: it needs 8 hex digits"
                               : "malformed 0d literal: it needs 16 hex digits");
    v = v << 4 | (uint64_t)h;
    p++;
  }
  if (is_ident(peek(lx, p, 0)) || peek(lx, p, 0) == '.')
    return fail(lx, t, start, "malformed floating-point literal");
  t->kind = kind;
  t->u = v;
  lx->p = p;
  return kind;
}

/* An integer in `base` starting at p (after any prefix); fails on overflow
 * or on a digit outside the base. */
static int lex_int(ptx_lexer *lx, ptx_token *t, const char *start, const char *p, int base) {
  uint64_t v = 0;
  const char *digits = p;
  while (p < lx->end) {
    int d = hex_val((unsigned char)*p);
    if (d < 0 || d >= base) break;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      return fail(lx, t, start, "integer literal does not fit in 64 bits");
    v = v * (uint64_t)base + (uint64_t)d;
    p++;
  }
  if (p == digits) return fail(lx, t, start, "malformed integer literal");
  if (peek(lx, p, 0) == 'U' || peek(lx, p, 0) == 'u') p++;
  if (is_ident(peek(lx, p, 0)) || peek(lx, p, 0) == '.')
    return fail(lx, t, start, "malformed integer literal");
  t->kind = PTX_TK_INT;
  t->u = v;
  lx->p = p;
  return PTX_TK_INT;
}

/* A decimal literal: an integer, or a floating literal when a '.' or an
 * exponent follows the digits. */
static int lex_decimal(ptx_lexer *lx, ptx_token *t, const char *start) {
  const char *p = start;
  while (p < lx->end && is_digit((unsigned char)*p)) p++;
  int c = peek(lx, p, 0);
  int is_float = 0;
  if (c == '.') {
    is_float = 1;
    p++;
    while (p < lx->end && is_digit((unsigned char)*p)) p++;
    c = peek(lx, p, 0);
  }
  if (c == 'e' || c == 'E') {
    const char *q = p + 1;
    if (peek(lx, q, 0) == '+' || peek(lx, q, 0) == '-') q++;
    if (is_digit(peek(lx, q, 0))) {
      is_float = 1;
      p = q;
      while (p < lx->end && is_digit((unsigned char)*p)) p++;
    }
  }
  if (!is_float) {
    if (*start == '0' && p - start > 1) return lex_int(lx, t, start, start + 1, 8);
    return lex_int(lx, t, start, start, 10);
  }
  if (is_ident(peek(lx, p, 0)) || peek(lx, p, 0) == '.')
    return fail(lx, t, start, "malformed floating-point literal");
  if (p - start >= MAX_FLOAT_TEXT) return fail(lx, t, start, "floating-point literal too long");
  char buf[MAX_FLOAT_TEXT];
  memcpy(buf, start, (size_t)(p - start));
  buf[p - start] = 0;
  double d = strtod(buf, NULL);
  memcpy(&t->u, &d, sizeof d);
  t->kind = PTX_TK_FLOAT;
  lx->p = p;
  return PTX_TK_FLOAT;
}

static int lex_number(ptx_lexer *lx, ptx_token *t) {
  const char *p = lx->p;
  if (*p == '0') {
    switch (peek(lx, p, 1)) {
    case 'f':
    case 'F':
      return lex_hex_float(lx, t, p, 8, PTX_TK_F32);
    case 'd':
    case 'D':
      return lex_hex_float(lx, t, p, 16, PTX_TK_F64);
    case 'x':
    case 'X':
      return lex_int(lx, t, p, p + 2, 16);
    case 'b':
    case 'B':
      return lex_int(lx, t, p, p + 2, 2);
    default:
      break;
    }
  }
  return lex_decimal(lx, t, p);
}

static int lex_string(ptx_lexer *lx, ptx_token *t) {
  const char *start = lx->p, *p = start + 1;
  while (p < lx->end && *p != '"') {
    if (*p == '\n') break;
    if (*p == '\\' && p + 1 < lx->end && p[1] != '\n') p++;
    p++;
  }
  if (p >= lx->end || *p != '"') return fail(lx, t, start, "unterminated string");
  lx->p = p + 1;
  t->kind = PTX_TK_STRING;
  return PTX_TK_STRING;
}

int ptx_lex_next(ptx_lexer *lx, ptx_token *t) {
  t->u = 0;
  if (lx->failed) {
    t->kind = PTX_TK_ERROR;
    t->s = lx->p;
    t->len = 0;
    t->pos = lx->err_pos;
    return PTX_TK_ERROR;
  }
  if (skip_space(lx) < 0) return fail(lx, t, lx->p, "unterminated comment");
  const char *p = lx->p;
  t->s = p;
  t->pos = pos_of(lx, p);
  t->len = 0;
  if (p >= lx->end) {
    t->kind = PTX_TK_EOF;
    return PTX_TK_EOF;
  }
  int c = (unsigned char)*p;
  int kind;
  if (c == '%' && !is_ident(peek(lx, p, 1))) {
    /* the remainder operator of a constant expression: `(a % b)` */
    lx->p = p + 1;
    kind = c;
  } else if (is_alpha(c) || c == '_' || c == '$' || c == '%') {
    const char *q = scan_word(lx, p + 1);
    /* dotted suffixes: opcode modifiers, %tid.x */
    while (peek(lx, q, 0) == '.' && is_ident(peek(lx, q, 1))) q = scan_word(lx, q + 1);
    lx->p = q;
    kind = PTX_TK_IDENT;
  } else if (c == '.') {
    if (!is_ident(peek(lx, p, 1))) return fail(lx, t, p, "stray '.'");
    lx->p = scan_word(lx, p + 1);
    kind = PTX_TK_DIR;
  } else if (is_digit(c)) {
    kind = lex_number(lx, t);
  } else if (c == '"') {
    kind = lex_string(lx, t);
  } else if (c != 0 && strchr(",;:()[]{}<>+-!@|=*/&^~?", c)) {
    lx->p = p + 1;
    kind = c;
  } else {
    char msg[48];
    if (c >= 0x21 && c < 0x7f)
      snprintf(msg, sizeof msg, "unexpected character '%c'", c);
    else
      snprintf(msg, sizeof msg, "unexpected byte 0x%02x", (unsigned)c);
    return fail(lx, t, p, msg);
  }
  if (kind == PTX_TK_ERROR) return kind;
  size_t n = (size_t)(lx->p - p);
  t->len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
  t->kind = kind;
  return kind;
}
