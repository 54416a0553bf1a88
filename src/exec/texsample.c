/* texsample.c: what a texture unit returns for one lookup (tex.h), as the
 * H200 gives it (tests/hw/textures records every rule used here):
 * - texels convert to float as unorm v / (2^n - 1), snorm max(v / (2^(n-1)
 *   - 1), -1), half exactly; channels the format lacks read 0, and a fetch
 *   outside linear memory reads (0, 0, 0, 0);
 * - normalized coordinates scale by the size; the address mode maps each
 *   texel index (wrap, clamp, mirror) or gives the border colour;
 * - linear filtering weighs the texels around u - 0.5 with the fraction
 *   rounded to 8 bits (1.8 fixed point: a = floor(256 f + 0.5) / 256),
 *   not with an IEEE lerp. */
#include "exec/tex.h"
#include "model/fpsem.h"
#include <math.h>
#include <string.h>

/* One texel's four channels: floats, or raw integers for integer reads. */
typedef struct texel {
  float f[4];
  uint32_t u[4];
  int32_t n[4]; /* a normalized integer texel's channels in 16-bit fixed point */
} texel;

static int float_read(const smemu_tex_desc *d) { return d->kind == SMEMU_TEX_FLOAT || d->read_norm; }

/* Channel c of the texel at p. */
static void decode(const smemu_tex_desc *d, const uint8_t *p, texel *t) {
  memset(t, 0, sizeof *t);
  for (int c = 0; c < d->nch; c++) {
    uint32_t raw = 0;
    memcpy(&raw, p + c * (d->bits / 8), (size_t)d->bits / 8);
    if (d->kind == SMEMU_TEX_FLOAT) {
      t->f[c] = d->bits == 16 ? fp_f16_to_f32((uint16_t)raw) : fp_from_bits32(raw);
      t->u[c] = fp_bits32(t->f[c]);
      continue;
    }
    int32_t s = d->bits == 8 ? (int8_t)raw : d->bits == 16 ? (int16_t)raw : (int32_t)raw;
    t->u[c] = d->kind == SMEMU_TEX_SIGNED ? (uint32_t)s : raw;
    if (!d->read_norm) continue;
    t->n[c] = d->bits == 8 && d->kind == SMEMU_TEX_UNSIGNED ? (int32_t)raw * 257 : s;
    if (d->kind == SMEMU_TEX_UNSIGNED) {
      t->f[c] = (float)raw / (float)((1u << d->bits) - 1);
    } else {
      float v = (float)s / (float)((1u << (d->bits - 1)) - 1);
      t->f[c] = v < -1.f ? -1.f : v;
    }
    t->u[c] = fp_bits32(t->f[c]);
  }
}

/* The texel index i of a dimension of n texels after the address mode;
 * -1 for the border. */
static int64_t address(int mode, int64_t i, int64_t n) {
  switch (mode) {
  case SMEMU_ADDR_WRAP:
    return ((i % n) + n) % n;
  case SMEMU_ADDR_MIRROR: {
    int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  case SMEMU_ADDR_BORDER:
    return i < 0 || i >= n ? -1 : i;
  default:
    return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/* The border colour, stored in the texel format first: a normalized
 * format keeps round-half-down(c * max) / max of it (0.5 reads 127/255 from
 * an 8-bit texture, 0.25 reads 64/255: tests/hw/textures). */
static void border(const smemu_tex_desc *d, texel *t) {
  for (int c = 0; c < 4; c++) {
    float v = d->border[c];
    if (d->read_norm) {
      int uns = d->kind == SMEMU_TEX_UNSIGNED;
      double max = uns ? (double)((1u << d->bits) - 1) : (double)((1u << (d->bits - 1)) - 1);
      double x = v != v ? 0 : v < (uns ? 0 : -1) ? (uns ? 0 : -1) : v > 1 ? 1 : v;
      double q = ceil(x * max - 0.5) + 0.0; /* (never -0) */
      v = (float)(q / max);
      t->n[c] = (int32_t)q * (uns && d->bits == 8 ? 257 : 1);
    }
    t->f[c] = v;
    t->u[c] = float_read(d) ? fp_bits32(v) : (uint32_t)(int32_t)v;
  }
}

/* The texel (x, y, z) of level l, layer `layer`, after the address modes. */
static void texel_at(const smemu_tex_desc *d, const smemu_tex_level *l, int dims, int64_t x, int64_t y,
                     int64_t z, int64_t layer, int unnorm, texel *t) {
  int64_t n[3] = {l->width, l->height, l->depth}, c[3] = {x, y, z};
  for (int k = 0; k < dims; k++) {
    int mode = d->addr[k];
    /* wrap and mirror need normalized coordinates; otherwise they clamp */
    if (unnorm && (mode == SMEMU_ADDR_WRAP || mode == SMEMU_ADDR_MIRROR)) mode = SMEMU_ADDR_CLAMP;
    c[k] = address(mode, c[k], n[k]);
    if (c[k] < 0) {
      border(d, t);
      return;
    }
  }
  const uint8_t *p = l->base + (size_t)layer * l->slice + (size_t)c[1] * l->pitch +
                     (size_t)c[0] * (size_t)(d->nch * d->bits / 8);
  if (d->dims == 3) p += (size_t)c[2] * l->slice;
  decode(d, p, t);
}

/* The 1.8 fixed-point weight (0 to 256) of a fraction in [0, 1). */
static uint32_t weight(float f) {
  float w = floorf(f * 256.f + 0.5f);
  return w >= 0 && w <= 256 ? (uint32_t)w : 0; /* (NaN: 0) */
}

/* floor(x) as a texel index; NaN reads texel 0 and the infinities stay far
 * outside any image (the conversion of such floats is undefined in C). */
static int64_t ifloor(float x) {
  if (x != x) return 0;
  if (x > 1e15f) return (int64_t)1e15;
  if (x < -1e15f) return -(int64_t)1e15;
  return (int64_t)floorf(x);
}

/* Cube map face and face coordinates in [0, 1] of a direction. */
static int cube_face(const float v[3], float *s, float *t) {
  float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]);
  float ma, sc, tc;
  int face;
  /* ties go to z, then y (the H200 samples face +z for (1, 1, 1) and for
   * (0, 0, 0), face +y for (-1, 1, 0.5)) */
  if (az >= ax && az >= ay) {
    face = v[2] >= 0 ? 4 : 5;
    ma = az, sc = v[2] >= 0 ? v[0] : -v[0], tc = -v[1];
  } else if (ay >= ax) {
    face = v[1] >= 0 ? 2 : 3;
    ma = ay, sc = v[0], tc = v[1] >= 0 ? v[2] : -v[2];
  } else {
    face = v[0] >= 0 ? 0 : 1;
    ma = ax, sc = v[0] >= 0 ? -v[2] : v[2], tc = -v[1];
  }
  *s = ma > 0 ? (sc / ma + 1.f) * 0.5f : 0.5f;
  *t = ma > 0 ? (tc / ma + 1.f) * 0.5f : 0.5f;
  return face;
}

/* Sample level l. */
static void sample_level(const smemu_tex_desc *d, int li, const tex_query *q, texel *out) {
  const smemu_tex_level *l = &d->level[li];
  int64_t layer = 0;
  float u[3] = {0, 0, 0};
  int norm = d->norm_coords, dims = d->dims;
  if (d->layered || d->cube) {
    int64_t nl = d->cube ? (int64_t)d->layers / 6 : (int64_t)d->layers;
    layer = q->layer < 0 ? 0 : q->layer >= nl ? nl - 1 : q->layer;
    if (d->cube) layer *= 6;
  }
  if (q->geom == TG_CUBE || q->geom == TG_ACUBE) {
    float s, t;
    layer += cube_face(q->f, &s, &t);
    u[0] = s * (float)l->width, u[1] = t * (float)l->height;
    norm = 1;
    dims = 2;
  } else {
    float n[3] = {(float)l->width, (float)l->height, (float)l->depth};
    for (int k = 0; k < dims; k++) u[k] = norm ? q->f[k] * n[k] : q->f[k];
    /* a 1D array is an image of one row sampled at y = 0: linear filtering
     * weighs row -1 (the address mode's) and row 0 half each, which shows
     * with a border (the H200's "mode1d_*_linear_border") */
    if (dims == 1) dims = 2;
  }
  int unnorm = !norm;
  if (!d->filter || !float_read(d)) {
    int64_t c[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) c[k] = ifloor(u[k]);
    texel_at(d, l, dims, c[0], c[1], c[2], layer, unnorm, out);
    return;
  }
  int64_t i0[3] = {0, 0, 0};
  uint32_t a[3] = {0, 0, 0};
  for (int k = 0; k < dims; k++) {
    float x = u[k] - 0.5f, fl = floorf(x);
    i0[k] = ifloor(x);
    a[k] = weight(x - fl);
  }
  /* Corner weights in 1/256: the product P(S) of the 1.8 weights of the
   * dimensions in S, rounded to 1/256 after each multiplication, for the
   * corner whose high dimensions are all of S; the other corners take the
   * differences (inclusion-exclusion), so the weights sum to 1 exactly.
   * In 2D: w11 = round(a b), w10 = a - w11, w01 = b - w11, w00 = 1 - a -
   * b + w11, as the H200's bilinear sweep shows (tests/hw/textures). */
  int corners = 1 << dims;
  int32_t prod[8];
  for (int m = 0; m < corners; m++) {
    uint32_t p = 256;
    for (int k = 0; k < dims; k++)
      if (m >> k & 1) p = (p * a[k] + 128) >> 8;
    prod[m] = (int32_t)p;
  }
  double acc[4] = {0, 0, 0, 0};
  /* normalized 8- and 16-bit integers filter as 16-bit fixed point: an
   * 8-bit unsigned texel widens to v * 257, and the weighted sum rounds to
   * a 16-bit value before it becomes a float (the H200's uchar4 sweeps read
   * n / 65535) */
  int fixed16 = d->read_norm && d->bits <= 16 && (d->kind == SMEMU_TEX_UNSIGNED || d->bits == 16);
  int64_t iacc[4] = {0, 0, 0, 0};
  for (int m = 0; m < corners; m++) {
    int32_t wq = 0;
    for (int s2 = 0; s2 < corners; s2++)
      if ((s2 & m) == m) wq += (__builtin_popcount((unsigned)(s2 ^ m)) & 1) ? -prod[s2] : prod[s2];
    int64_t c[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) c[k] = i0[k] + (m >> k & 1);
    if (!wq) continue;
    texel t;
    texel_at(d, l, dims, c[0], c[1], c[2], layer, unnorm, &t);
    for (int ch = 0; ch < 4; ch++) {
      acc[ch] += (double)wq / 256.0 * t.f[ch];
      if (fixed16) iacc[ch] += (int64_t)wq * (int64_t)t.n[ch];
    }
  }
  for (int ch = 0; ch < 4; ch++) {
    out->f[ch] = (float)acc[ch];
    if (fixed16) {
      int64_t s = iacc[ch], r = s >= 0 ? (s + 128) >> 8 : -((-s + 128) >> 8); /* halves away from 0 */
      out->f[ch] = (float)r / (d->kind == SMEMU_TEX_UNSIGNED ? 65535.f : 32767.f);
      if (out->f[ch] < -1.f) out->f[ch] = -1.f;
    }
    /* half textures filter at half precision (the H200's "half2_linear") */
    if (d->kind == SMEMU_TEX_FLOAT && d->bits == 16)
      out->f[ch] = fp_f16_to_f32(fp_f32_to_f16(out->f[ch], FP_RN));
  }
  for (int ch = 0; ch < 4; ch++) out->u[ch] = fp_bits32(out->f[ch]);
}

/* tld4: component `comp` of the 2x2 texels linear filtering would weigh,
 * in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
static void gather(const smemu_tex_desc *d, const tex_query *q, texel *out) {
  const smemu_tex_level *l = &d->level[0];
  float u[2];
  for (int k = 0; k < 2; k++) {
    float n = (float)(k ? l->height : l->width);
    u[k] = d->norm_coords ? q->f[k] * n : q->f[k];
  }
  int64_t i = ifloor(u[0] - 0.5f), j = ifloor(u[1] - 0.5f), layer = 0;
  if (d->layered)
    layer = q->layer < 0 ? 0 : q->layer >= (int64_t)d->layers ? (int64_t)d->layers - 1 : q->layer;
  static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
  for (int k = 0; k < 4; k++) {
    texel t;
    texel_at(d, l, 2, i + dx[k], j + dy[k], 0, layer, !d->norm_coords, &t);
    out->f[k] = t.f[q->gather];
    out->u[k] = t.u[q->gather];
  }
}

float tex_grad_lod(const smemu_tex_desc *d, int geom, const float dx[3], const float dy[3]) {
  int dims = geom == TG_1D || geom == TG_A1D ? 1 : geom == TG_3D ? 3 : 2;
  const smemu_tex_level *l = &d->level[0];
  float n[3] = {(float)l->width, (float)l->height, (float)l->depth};
  float sx = 0, sy = 0;
  for (int k = 0; k < dims; k++) {
    sx += dx[k] * n[k] * dx[k] * n[k];
    sy += dy[k] * n[k] * dy[k] * n[k];
  }
  float m = sx > sy ? sx : sy;
  return m > 0 ? 0.5f * log2f(m) : -INFINITY;
}

void tex_sample(const smemu_tex_desc *d, const tex_query *q, uint32_t out[4], int *float_out) {
  texel t;
  *float_out = float_read(d);
  if (d->linear) {
    /* linear memory: integer texel indices, zero outside */
    int64_t i = q->int_coords ? q->i[0] : ifloor(q->f[0]);
    int64_t n = d->level[0].width;
    if (i < 0 || i >= n)
      memset(&t, 0, sizeof t);
    else
      decode(d, d->level[0].base + (size_t)i * (size_t)(d->nch * d->bits / 8), &t);
  } else if (q->gather >= 0) {
    gather(d, q, &t);
  } else if (q->int_coords) {
    /* integer coordinates: texel indices with the address mode, no filter */
    int64_t layer = 0;
    if (d->layered)
      layer = q->layer < 0 ? 0 : q->layer >= (int64_t)d->layers ? (int64_t)d->layers - 1 : q->layer;
    texel_at(d, &d->level[0], d->dims, q->i[0], q->i[1], q->i[2], layer, 0, &t);
  } else if (d->nlevels > 1) {
    float lod = q->lod + d->lod_bias;
    if (lod < d->min_lod) lod = d->min_lod;
    if (lod > d->max_lod) lod = d->max_lod;
    if (lod < 0 || lod != lod) lod = 0;
    float top = (float)(d->nlevels - 1);
    if (lod > top) lod = top;
    if (!d->mip_filter) {
      sample_level(d, (int)floorf(lod + 0.5f), q, &t);
    } else {
      int l0 = (int)floorf(lod);
      float a = (float)weight(lod - (float)l0) / 256.f;
      sample_level(d, l0, q, &t);
      if (a > 0 && l0 + 1 < d->nlevels) {
        texel t1;
        sample_level(d, l0 + 1, q, &t1);
        for (int c = 0; c < 4; c++) {
          t.f[c] = (1.f - a) * t.f[c] + a * t1.f[c];
          t.u[c] = fp_bits32(t.f[c]);
        }
      }
    }
  } else {
    sample_level(d, 0, q, &t);
  }
  for (int c = 0; c < 4; c++) out[c] = t.u[c];
}
