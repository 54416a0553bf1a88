/* link.c: the device link step of separate compilation (see link.h). The
 * rules are nvlink's: one strong (.visible) definition per name; a .weak
 * definition yields to a strong one and otherwise the first weak one wins;
 * .common variables merge into the largest; every .extern use needs a
 * definition somewhere, of the same shape. */
#include "ptx/link.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptx/arena.h"

/* One defined symbol of the link. */
typedef struct ldef {
  const char *name;
  int mod;           /* index of the defining module */
  const ptx_func *f; /* the definition when a function */
  const ptx_var *v;  /* the definition when a variable */
  int strong;        /* 1 for .visible (and .entry) definitions */
} ldef;

/* A private symbol renamed because another module uses its name. */
typedef struct lrename {
  int mod;
  const char *from, *to;
} lrename;

typedef struct lctx {
  ptx_module *const *mods;
  int n;
  ldef *defs;
  int ndefs;
  lrename *ren;
  int nren;
  ptx_arena *a;
  char *err;
  size_t errsize;
} lctx;

static int lerr(lctx *L, const char *fmt, ...) {
  if (L->err && L->errsize) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->err, L->errsize, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static const char *mname(const lctx *L, int i) {
  return L->mods[i]->filename ? L->mods[i]->filename : "<module>";
}

static ldef *find_def(lctx *L, const char *name) {
  for (int i = 0; i < L->ndefs; i++)
    if (!strcmp(L->defs[i].name, name)) return &L->defs[i];
  return NULL;
}

static uint64_t var_size(const ptx_var *v) {
  return (uint64_t)ptx_type_size(v->type) * (uint64_t)(v->vec ? v->vec : 1) * v->nelems;
}

/* Enters one definition; the strong/weak/common rules decide which stays. */
static int add_def(lctx *L, int mod, const char *name, const ptx_func *f, const ptx_var *v, int linkage) {
  int strong = linkage == PTX_LINK_VISIBLE;
  ldef *d = find_def(L, name);
  if (!d) {
    d = &L->defs[L->ndefs++];
    *d = (ldef){name, mod, f, v, strong};
    return 0;
  }
  if (d->strong && strong)
    return lerr(L, "nvlink error: Multiple definition of '%s' in '%s', first defined in '%s'", name,
                mname(L, mod), mname(L, d->mod));
  if ((d->f != NULL) != (f != NULL))
    return lerr(L, "nvlink error: '%s' is a %s in '%s' and a %s in '%s'", name,
                d->f ? "function" : "variable", mname(L, d->mod), f ? "function" : "variable", mname(L, mod));
  /* a common variable grows to the largest of its definitions */
  int common = v && linkage == PTX_LINK_COMMON && d->v && d->v->linkage == PTX_LINK_COMMON;
  if (strong || (common && var_size(v) > var_size(d->v))) *d = (ldef){name, mod, f, v, strong};
  return 0;
}

static int is_def_linkage(int linkage) {
  return linkage == PTX_LINK_VISIBLE || linkage == PTX_LINK_WEAK || linkage == PTX_LINK_COMMON;
}

static int collect_defs(lctx *L) {
  for (int m = 0; m < L->n; m++) {
    const ptx_module *M = L->mods[m];
    for (int i = 0; i < M->nfuncs; i++) {
      const ptx_func *f = &M->funcs[i];
      int lk = f->is_entry && f->linkage == PTX_LINK_NONE ? PTX_LINK_VISIBLE : f->linkage;
      if (f->has_body && is_def_linkage(lk) && add_def(L, m, f->name, f, NULL, lk) < 0) return -1;
    }
    for (int i = 0; i < M->nvars; i++) {
      const ptx_var *v = &M->vars[i];
      if (is_def_linkage(v->linkage) && add_def(L, m, v->name, NULL, v, v->linkage) < 0) return -1;
    }
  }
  return 0;
}

static int same_params(const ptx_var *a, int na, const ptx_var *b, int nb) {
  if (na != nb) return 0;
  for (int i = 0; i < na; i++)
    if (var_size(&a[i]) != var_size(&b[i])) return 0;
  return 1;
}

/* Checks a declaration (a function without body or an .extern variable)
 * against the definition of its name. */
static int check_decl(lctx *L, int mod, const char *name, const ptx_func *f, const ptx_var *v,
                      ptx_link_provided provided, void *user) {
  const ldef *d = find_def(L, name);
  if (!d) {
    if (f && provided && provided(name, user)) return 0;
    return lerr(L, "nvlink error: Undefined reference to '%s' in '%s'", name, mname(L, mod));
  }
  int ok;
  if (f)
    ok = d->f && same_params(f->params, f->nparams, d->f->params, d->f->nparams) &&
         same_params(f->rets, f->nrets, d->f->rets, d->f->nrets);
  else
    ok = d->v && (v->unsized || var_size(v) == var_size(d->v)) && v->space == d->v->space;
  if (!ok)
    return lerr(L, "nvlink error: The declaration of '%s' in '%s' does not match its definition in '%s'",
                name, mname(L, mod), mname(L, d->mod));
  return 0;
}

static int check_decls(lctx *L, ptx_link_provided provided, void *user) {
  for (int m = 0; m < L->n; m++) {
    const ptx_module *M = L->mods[m];
    for (int i = 0; i < M->nfuncs; i++) {
      const ptx_func *f = &M->funcs[i];
      if (!f->has_body && f->linkage != PTX_LINK_NONE &&
          check_decl(L, m, f->name, f, NULL, provided, user) < 0)
        return -1;
    }
    for (int i = 0; i < M->nvars; i++) {
      const ptx_var *v = &M->vars[i];
      /* an unsized .extern .shared array is the dynamic shared window,
         which no unit defines */
      if (v->linkage == PTX_LINK_EXTERN && !(v->space == PTX_SPACE_SHARED && v->unsized) &&
          check_decl(L, m, v->name, NULL, v, provided, user) < 0)
        return -1;
    }
  }
  return 0;
}

/* Whether a module other than `mod` names `name` at module scope. */
static int used_elsewhere(const lctx *L, int mod, const char *name) {
  for (int m = 0; m < L->n; m++) {
    if (m == mod) continue;
    const ptx_module *M = L->mods[m];
    for (int i = 0; i < M->nfuncs; i++)
      if (!strcmp(M->funcs[i].name, name)) return 1;
    for (int i = 0; i < M->nvars; i++)
      if (!strcmp(M->vars[i].name, name)) return 1;
  }
  return 0;
}

static int add_rename(lctx *L, int mod, const char *name) {
  if (!used_elsewhere(L, mod, name)) return 0;
  char buf[32];
  int k = snprintf(buf, sizeof buf, "$m%d", mod);
  size_t len = strlen(name);
  char *to = ptx_arena_alloc(L->a, len + (size_t)k + 1);
  if (!to) return lerr(L, "out of memory");
  memcpy(to, name, len);
  memcpy(to + len, buf, (size_t)k + 1);
  L->ren[L->nren++] = (lrename){mod, name, to};
  return 0;
}

static int collect_renames(lctx *L) {
  for (int m = 0; m < L->n; m++) {
    const ptx_module *M = L->mods[m];
    for (int i = 0; i < M->nfuncs; i++) {
      const ptx_func *f = &M->funcs[i];
      /* the first private body of a name; its prototypes share the name */
      if (f->linkage == PTX_LINK_NONE && !f->is_entry && f->has_body && add_rename(L, m, f->name) < 0)
        return -1;
    }
    for (int i = 0; i < M->nvars; i++)
      if (M->vars[i].linkage == PTX_LINK_NONE && add_rename(L, m, M->vars[i].name) < 0) return -1;
  }
  return 0;
}

static const char *renamed(const lctx *L, int mod, const char *name) {
  if (!name) return name;
  for (int i = 0; i < L->nren; i++)
    if (L->ren[i].mod == mod && !strcmp(L->ren[i].from, name)) return L->ren[i].to;
  return name;
}

static int mod_renames(const lctx *L, int mod) {
  for (int i = 0; i < L->nren; i++)
    if (L->ren[i].mod == mod) return 1;
  return 0;
}

static ptx_operand *copy_ops(lctx *L, int mod, const ptx_operand *ops, int n) {
  if (n <= 0) return NULL;
  ptx_operand *o = ptx_arena_alloc(L->a, sizeof *o * (size_t)n);
  if (!o) return NULL;
  for (int i = 0; i < n; i++) {
    o[i] = ops[i];
    if (o[i].kind == PTX_OPD_SYM || o[i].kind == PTX_OPD_ADDR) o[i].name = renamed(L, mod, o[i].name);
    if (o[i].nelems && !(o[i].elems = copy_ops(L, mod, ops[i].elems, ops[i].nelems))) return NULL;
  }
  return o;
}

/* A copy of a function with .loc file numbers moved by `fbase` and the
 * module's renames applied. */
static int copy_func(lctx *L, int mod, uint32_t fbase, const ptx_func *f, ptx_func *out) {
  *out = *f;
  out->name = renamed(L, mod, f->name);
  out->alias_of = renamed(L, mod, f->alias_of);
  if (!f->nbody) return 0;
  ptx_stmt *b = ptx_arena_alloc(L->a, sizeof *b * (size_t)f->nbody);
  if (!b) return lerr(L, "out of memory");
  int ren = mod_renames(L, mod);
  for (int s = 0; s < f->nbody; s++) {
    b[s] = f->body[s];
    if (b[s].loc.line) b[s].loc.file += fbase;
    if (b[s].loc.inl_line) b[s].loc.inl_file += fbase;
    if (ren && b[s].nops && !(b[s].ops = copy_ops(L, mod, f->body[s].ops, f->body[s].nops)))
      return lerr(L, "out of memory");
  }
  out->body = b;
  return 0;
}

static int copy_var(lctx *L, int mod, const ptx_var *v, ptx_var *out) {
  *out = *v;
  out->name = renamed(L, mod, v->name);
  if (!v->nrelocs || !mod_renames(L, mod)) return 0;
  ptx_reloc *r = ptx_arena_alloc(L->a, sizeof *r * (size_t)v->nrelocs);
  if (!r) return lerr(L, "out of memory");
  for (int i = 0; i < v->nrelocs; i++) {
    r[i] = v->relocs[i];
    r[i].symbol = renamed(L, mod, r[i].symbol);
  }
  out->relocs = r;
  return 0;
}

/* Whether the linked module keeps this module-scope symbol: private ones and
 * the chosen definitions; a declaration only when nothing defines the name,
 * and then once. */
static int keep_sym(lctx *L, int mod, const char *name, int linkage, int is_def, ptx_module *out) {
  if (linkage == PTX_LINK_NONE && is_def) return 1;
  const ldef *d = find_def(L, name);
  if (d) {
    if (!is_def || d->mod != mod) return 0;
    return 1;
  }
  if (is_def) return 1;
  for (int i = 0; i < out->nfuncs; i++)
    if (!strcmp(out->funcs[i].name, name)) return 0;
  for (int i = 0; i < out->nvars; i++)
    if (!strcmp(out->vars[i].name, name)) return 0;
  return 1;
}

static int build(lctx *L, ptx_module *out) {
  int nf = 0, nv = 0, nfile = 0;
  for (int m = 0; m < L->n; m++)
    nf += L->mods[m]->nfuncs, nv += L->mods[m]->nvars, nfile += L->mods[m]->nfiles;
  out->funcs = ptx_arena_alloc(L->a, sizeof(ptx_func) * (size_t)(nf ? nf : 1));
  out->vars = ptx_arena_alloc(L->a, sizeof(ptx_var) * (size_t)(nv ? nv : 1));
  out->files = ptx_arena_alloc(L->a, sizeof(ptx_file) * (size_t)(nfile ? nfile : 1));
  if (!out->funcs || !out->vars || !out->files) return lerr(L, "out of memory");
  uint32_t fbase = 0;
  for (int m = 0; m < L->n; m++) {
    const ptx_module *M = L->mods[m];
    uint32_t fmax = 0;
    for (int i = 0; i < M->nfiles; i++) {
      out->files[out->nfiles] = M->files[i];
      out->files[out->nfiles++].index += fbase;
      if (M->files[i].index > fmax) fmax = M->files[i].index;
    }
    for (int i = 0; i < M->nvars; i++) {
      const ptx_var *v = &M->vars[i];
      if (!keep_sym(L, m, v->name, v->linkage, v->linkage != PTX_LINK_EXTERN, out)) continue;
      if (copy_var(L, m, v, &out->vars[out->nvars++]) < 0) return -1;
    }
    for (int i = 0; i < M->nfuncs; i++) {
      const ptx_func *f = &M->funcs[i];
      /* a private prototype stays beside its body (the parser keeps both) */
      int lk = f->is_entry && f->linkage == PTX_LINK_NONE ? PTX_LINK_VISIBLE : f->linkage;
      if (lk != PTX_LINK_NONE && !keep_sym(L, m, f->name, lk, f->has_body, out)) continue;
      if (copy_func(L, m, fbase, f, &out->funcs[out->nfuncs++]) < 0) return -1;
    }
    fbase += fmax + 1;
  }
  return 0;
}

int ptx_link(ptx_module *const *mods, int n, ptx_link_provided provided, void *user, ptx_module **out,
             char *err, size_t errsize) {
  if (out) *out = NULL;
  if (err && errsize) err[0] = 0;
  lctx L = {.mods = mods, .n = n, .err = err, .errsize = errsize};
  if (!mods || n <= 0 || !out) return lerr(&L, "nvlink error: no modules to link");
  int nsym = 0;
  for (int m = 0; m < n; m++) {
    if (!mods[m]) return lerr(&L, "nvlink error: module %d is missing", m);
    nsym += mods[m]->nfuncs + mods[m]->nvars;
  }
  L.a = ptx_arena_new();
  ptx_module *o = L.a ? ptx_arena_alloc(L.a, sizeof *o) : NULL;
  L.defs = L.a ? ptx_arena_alloc(L.a, sizeof(ldef) * (size_t)(nsym ? nsym : 1)) : NULL;
  L.ren = L.a ? ptx_arena_alloc(L.a, sizeof(lrename) * (size_t)(nsym ? nsym : 1)) : NULL;
  if (!o || !L.defs || !L.ren) {
    ptx_arena_free(L.a);
    return lerr(&L, "out of memory");
  }
  const ptx_module *f = mods[0];
  *o = (ptx_module){.filename = f->filename,
                    .version_major = f->version_major,
                    .version_minor = f->version_minor,
                    .target = f->target,
                    .texmode_independent = f->texmode_independent,
                    .address_size = f->address_size,
                    .arena = L.a};
  if (collect_defs(&L) < 0 || check_decls(&L, provided, user) < 0 || collect_renames(&L) < 0 ||
      build(&L, o) < 0) {
    ptx_arena_free(L.a);
    return -1;
  }
  *out = o;
  return 0;
}
