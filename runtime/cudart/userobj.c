/* userobj.c: user objects (cudaUserObjectCreate / Retain / Release and the
 * driver's cuUserObject*): a pointer, its destructor and a reference
 * count. The destructor runs when the count reaches zero, on the thread
 * that released the last reference (CUDA runs it on an internal thread;
 * either way it may make no CUDA call). Graphs hold references through
 * cudaGraphRetainUserObject (graph.c); driver/extras.c has the driver's
 * names. A handle is checked against the live
 * objects, so a stale or forged one is an invalid value, not a crash. */
#include "rt.h"
#include <stdlib.h>

enum { USER_OBJECT_NO_DESTRUCTOR_SYNC = 1 };

typedef struct user_object {
  void *ptr;
  cudaHostFn_t destroy;
  unsigned long long refs;
  struct user_object *next;
} user_object;

static user_object *objects;

static user_object *find(const void *h) {
  for (user_object *o = objects; o; o = o->next)
    if (o == h) return o;
  return NULL;
}

cudaError_t rt_userobj_create(cudaUserObject_t *out, void *ptr, cudaHostFn_t destroy, unsigned refs,
                              unsigned flags) {
  if (!out || !destroy || !refs || refs > 0x7fffffffu || flags != USER_OBJECT_NO_DESTRUCTOR_SYNC)
    return cudaErrorInvalidValue;
  user_object *o = calloc(1, sizeof *o);
  if (!o) return cudaErrorMemoryAllocation;
  o->ptr = ptr;
  o->destroy = destroy;
  o->refs = refs;
  o->next = objects;
  objects = o;
  *out = (cudaUserObject_t)o;
  return cudaSuccess;
}

cudaError_t rt_userobj_retain(cudaUserObject_t h, unsigned count) {
  user_object *o = find(h);
  if (!o || !count || count > 0x7fffffffu) return cudaErrorInvalidValue;
  o->refs += count;
  return cudaSuccess;
}

cudaError_t rt_userobj_release(cudaUserObject_t h, unsigned count) {
  user_object *o = find(h);
  /* releasing more than is held is undefined in CUDA: refused here */
  if (!o || !count || count > 0x7fffffffu || count > o->refs) return cudaErrorInvalidValue;
  o->refs -= count;
  if (o->refs) return cudaSuccess;
  for (user_object **p = &objects; *p; p = &(*p)->next)
    if (*p == o) {
      *p = o->next;
      break;
    }
  cudaHostFn_t fn = o->destroy;
  void *ptr = o->ptr;
  free(o);
  fn(ptr);
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                           unsigned int initialRefcount, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return rt_end(rt_userobj_create(object_out, ptr, destroy, initialRefcount, flags));
}

RT_EXPORT cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return rt_end(rt_userobj_retain(object, count));
}

RT_EXPORT cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return rt_end(rt_userobj_release(object, count));
}
