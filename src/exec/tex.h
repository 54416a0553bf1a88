/* tex.h: texture sampling and surface access on the descriptors of
 * smemu.h's texture and surface objects (texobj.c holds the table, tex.c the
 * tex/tld4/txq/suld/sust/suq/istypep family that uses these). */
#ifndef SMEMU_TEX_H
#define SMEMU_TEX_H

#include "smemu.h"
#include <stdint.h>

/* Geometries of tex and the surface instructions (insn.mode). */
enum { TG_1D, TG_2D, TG_3D, TG_A1D, TG_A2D, TG_CUBE, TG_ACUBE };

/* One lookup: coordinates (float, or integer for integer-coordinate
 * forms), the layer of layered geometries, the level of detail, and for
 * tld4 the component gathered (-1: a plain sample). */
typedef struct tex_query {
  int geom;       /* TG_* */
  int int_coords; /* the coordinates are .s32 texel indices */
  float f[3];     /* float coordinates */
  int32_t i[3];   /* integer coordinates */
  int32_t layer;  /* layer (or cube array element) */
  float lod;      /* level of detail (tex.level, or from tex.grad) */
  int gather;     /* tld4 component 0-3, or -1 */
} tex_query;

/* Sample d as tex does; out gets four 32-bit results, floats as their bits
 * when float_out (the texture reads as floats), integers otherwise. */
void tex_sample(const smemu_tex_desc *d, const tex_query *q, uint32_t out[4], int *float_out);

/* The level of detail of tex.grad: from the gradients of the coordinates
 * in texels of level 0. */
float tex_grad_lod(const smemu_tex_desc *d, int geom, const float dx[3], const float dy[3]);

#endif
