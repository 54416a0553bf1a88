/* types.c: the fundamental PTX types: their names as written after the dot in
 * declarations and instruction modifiers, and their sizes in bytes. One table,
 * indexed by enum ptx_type. */
#include "ptx/ptx.h"

#include <string.h>

static const struct {
  const char *name; /* spelling without the dot */
  int size;         /* bytes of one element */
} types[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"?", 0},      [PTX_T_B8] = {"b8", 1},       [PTX_T_B16] = {"b16", 2},
    [PTX_T_B32] = {"b32", 4},     [PTX_T_B64] = {"b64", 8},     [PTX_T_B128] = {"b128", 16},
    [PTX_T_U8] = {"u8", 1},       [PTX_T_U16] = {"u16", 2},     [PTX_T_U32] = {"u32", 4},
    [PTX_T_U64] = {"u64", 8},     [PTX_T_S8] = {"s8", 1},       [PTX_T_S16] = {"s16", 2},
    [PTX_T_S32] = {"s32", 4},     [PTX_T_S64] = {"s64", 8},     [PTX_T_F16] = {"f16", 2},
    [PTX_T_F16X2] = {"f16x2", 4}, [PTX_T_BF16] = {"bf16", 2},   [PTX_T_BF16X2] = {"bf16x2", 4},
    [PTX_T_F32] = {"f32", 4},     [PTX_T_F64] = {"f64", 8},     [PTX_T_PRED] = {"pred", 1},
    [PTX_T_U16X2] = {"u16x2", 4}, [PTX_T_S16X2] = {"s16x2", 4},
};

int ptx_type_size(int type) { return type > PTX_T_NONE && type < PTX_T_COUNT ? types[type].size : 0; }

const char *ptx_type_name(int type) {
  return type > PTX_T_NONE && type < PTX_T_COUNT ? types[type].name : "?";
}

int ptx_type_from_name(const char *s) {
  if (!s) return PTX_T_NONE;
  for (int t = PTX_T_NONE + 1; t < PTX_T_COUNT; t++)
    if (strcmp(s, types[t].name) == 0) return t;
  return PTX_T_NONE;
}
