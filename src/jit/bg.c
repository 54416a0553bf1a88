/* bg.c: compiling a kernel in the background (exec/tier.h): a thread per
 * compile, which runs jit_compile while the launches of the kernel go on
 * interpreted. Both tiers give the same results, so which launch first
 * finds the code changes only the time. */
#include "jit/jit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct jit_bg {
  pthread_t th;
  const program *P;
  int hooked;
  _Atomic int done;
  jit_code *J;
  double seconds;
  char why[256];
};

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The compiles running: the process's exit waits for them, before LLVM's
 * own exit handlers (registered when LLVM was loaded, so they run after
 * this one) tear down what a compile uses. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t running_cv = PTHREAD_COND_INITIALIZER;
static int running;

static void wait_running(void) {
  pthread_mutex_lock(&running_lock);
  while (running) pthread_cond_wait(&running_cv, &running_lock);
  pthread_mutex_unlock(&running_lock);
}

static void *compile_main(void *arg) {
  jit_bg *b = arg;
  double t0 = wall();
  b->J = jit_compile(b->P, b->hooked, b->why, sizeof b->why);
  b->seconds = wall() - t0;
  atomic_store(&b->done, 1);
  pthread_mutex_lock(&running_lock);
  running--;
  pthread_cond_broadcast(&running_cv);
  pthread_mutex_unlock(&running_lock);
  return NULL;
}

jit_bg *jit_compile_bg(const program *P, int hooked) {
  static int exit_waits;
  char why[256];
  /* LLVM loaded first, so that the exit handler below runs before its */
  if (jit_start(why, sizeof why) < 0) return NULL;
  pthread_mutex_lock(&running_lock);
  if (!exit_waits) exit_waits = atexit(wait_running) == 0 ? 1 : -1;
  int ok = exit_waits == 1;
  pthread_mutex_unlock(&running_lock);
  jit_bg *b = ok ? calloc(1, sizeof *b) : NULL;
  if (!b) return NULL;
  b->P = P;
  b->hooked = hooked;
  pthread_mutex_lock(&running_lock);
  running++;
  pthread_mutex_unlock(&running_lock);
  if (pthread_create(&b->th, NULL, compile_main, b)) {
    pthread_mutex_lock(&running_lock);
    running--;
    pthread_mutex_unlock(&running_lock);
    free(b);
    return NULL;
  }
  return b;
}

int jit_bg_ready(const jit_bg *b) { return atomic_load(&((jit_bg *)b)->done); }

jit_code *jit_bg_finish(jit_bg *b, double *seconds, char *why, size_t n) {
  pthread_join(b->th, NULL);
  jit_code *J = b->J;
  if (seconds) *seconds = b->seconds;
  if (!J) snprintf(why, n, "%s", b->why);
  free(b);
  return J;
}
