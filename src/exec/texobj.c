/* texobj.c: the process-wide table of texture and surface objects
 * (smemu.h). The runtime registers a descriptor and hands the program the
 * handle; the tex/suld/sust/txq/suq handlers (tex.c) look handles up while
 * kernels run on worker threads, so the table is under a lock and a lookup
 * copies the descriptor out. Handles are small integers from 1, never
 * reused, so a stale handle can never name a newer object. */
#include "exec/tex.h"
#include "smemu.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static smemu_tex_desc **slots; /* slot i holds handle i + 1, NULL when free */
static uint32_t nslots, nused; /* slots allocated, handed out */

/* The checks a descriptor must pass before a handler may trust it. */
static int valid(const smemu_tex_desc *d) {
  if (d->dims < 1 || d->dims > 3 || d->nch < 1 || d->nch > 4 || d->nlevels < 1 ||
      d->nlevels > SMEMU_TEX_MAX_LEVELS)
    return 0;
  if (d->bits != 8 && d->bits != 16 && d->bits != 32) return 0;
  if (d->kind < SMEMU_TEX_SIGNED || d->kind > SMEMU_TEX_FLOAT || (d->kind == SMEMU_TEX_FLOAT && d->bits == 8))
    return 0;
  if ((d->layered || d->cube) && !d->layers) return 0;
  for (int i = 0; i < 3; i++)
    if (d->addr[i] < SMEMU_ADDR_WRAP || d->addr[i] > SMEMU_ADDR_BORDER) return 0;
  for (int i = 0; i < d->nlevels; i++) {
    const smemu_tex_level *l = &d->level[i];
    /* (linear memory may be empty: every fetch reads 0) */
    if (!l->base || (!l->width && !d->linear) || !l->height || !l->depth) return 0;
  }
  return 1;
}

uint64_t smemu_tex_register(const smemu_tex_desc *d) {
  if (!d || !valid(d)) return 0;
  smemu_tex_desc *c = malloc(sizeof *c);
  if (!c) return 0;
  *c = *d;
  pthread_mutex_lock(&lock);
  uint32_t i = nused;
  if (i == nslots) {
    uint32_t cap = nslots ? nslots * 2 : 64;
    smemu_tex_desc **s = realloc(slots, cap * sizeof *s);
    if (!s) {
      pthread_mutex_unlock(&lock);
      free(c);
      return 0;
    }
    memset(s + nslots, 0, (cap - nslots) * sizeof *s);
    slots = s;
    nslots = cap;
  }
  slots[i] = c;
  nused++;
  pthread_mutex_unlock(&lock);
  return (uint64_t)i + 1;
}

int smemu_tex_unregister(uint64_t h) {
  smemu_tex_desc *c = NULL;
  pthread_mutex_lock(&lock);
  if (h && h <= nslots) {
    c = slots[h - 1];
    slots[h - 1] = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(c);
  return c ? 0 : -1;
}

int smemu_tex_lookup(uint64_t h, smemu_tex_desc *out) {
  int r = -1;
  pthread_mutex_lock(&lock);
  if (h && h <= nslots && slots[h - 1]) {
    *out = *slots[h - 1];
    r = 0;
  }
  pthread_mutex_unlock(&lock);
  return r;
}
