/* lex.h: the PTX lexer. It turns text (not NUL-terminated) into tokens with
 * their line:col, one token at a time; it never reads past the end and reports
 * malformed input (unterminated comment or string, bad number) as an error
 * token carrying a message. */
#ifndef SMEMU_PTX_LEX_H
#define SMEMU_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

/* Token kinds. Punctuation , ; : ( ) [ ] { } < > + - ! @ | = and the
 * operators * / & ^ ~ ? of constant expressions is its own character, as is
 * a '%' that does not start a register name; the other kinds start at 256. */
enum ptx_tok_kind {
  PTX_TK_EOF = 0,
  PTX_TK_IDENT = 256, /* a name, with any .suffixes: ld.global.v4.f32, %tid.x, $L__BB0_2, _ */
  PTX_TK_DIR,         /* a dot word: .reg, .b32, .shared::cta (text includes the dot) */
  PTX_TK_INT,         /* integer literal; value in u */
  PTX_TK_F32,         /* 0fXXXXXXXX; bits in u */
  PTX_TK_F64,         /* 0dXXXXXXXXXXXXXXXX; bits in u */
  PTX_TK_FLOAT,       /* decimal floating literal (1.5, 2e-3); bits of the double in u */
  PTX_TK_STRING,      /* "text"; s/len cover the quotes */
  PTX_TK_ERROR        /* lexical error; the message is in the lexer's msg */
};

typedef struct ptx_token {
  int kind;      /* enum ptx_tok_kind or a punctuation character */
  const char *s; /* first byte of the token in the text */
  uint32_t len;  /* bytes of the token */
  uint64_t u;    /* INT value or F32/F64/FLOAT bits */
  ptx_pos pos;   /* where it starts */
} ptx_token;

typedef struct ptx_lexer {
  const char *p;          /* next byte to read */
  const char *end;        /* one past the last byte */
  const char *line_start; /* first byte of the current line */
  uint32_t line;          /* current line, 1-based */
  int failed;             /* set by an error: later calls fail the same way */
  ptx_pos err_pos;        /* where the error is */
  char msg[96];           /* message of the error */
} ptx_lexer;

/* Prepares to read `len` bytes at `src` (NULL is fine when len is 0). */
void ptx_lex_init(ptx_lexer *lx, const char *src, size_t len);
/* Reads the next token into *t and returns its kind. After PTX_TK_EOF or
 * PTX_TK_ERROR, further calls return the same kind again. */
int ptx_lex_next(ptx_lexer *lx, ptx_token *t);

#endif
