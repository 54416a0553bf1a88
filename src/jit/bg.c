/* bg.c: compiling a kernel in the background (exec/tier.h), while the
 * launches of the kernel go on interpreted. The compile runs in a child
 * process (jit_compile_child), which leaves the object in the disk cache;
 * when it has finished, jit_bg_finish links the object as a later run
 * would. A process, not a thread: a program may return from main while a
 * compile runs, and the exit handlers then destroy LLVM's function-local
 * statics that a compiling thread is using (they are registered during
 * that very compile, after any handler that could wait for it). A process
 * that exits kills the compiles still running. Without a disk cache there
 * is no background compile (the launch compiles). Both tiers give the same
 * results, so which launch first finds the code changes only the time. */
#include "jit/jit.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

struct jit_bg {
  pid_t pid;
  int done; /* the child has been reaped (or was reaped by someone else) */
  const program *P;
  int hooked;
  double t0, seconds;
};

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The compiles not yet reaped (their handles), killed at exit. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static jit_bg *running[64];
static int nrunning, exit_kills;

/* Reaps b's child if it has ended (wait: until it has); under running_lock.
 * Each child is waited for by its handle alone, so that its pid, free
 * again once reaped, is never waited for a second time. */
static void reap_locked(jit_bg *b, int wait) {
  if (b->done) return;
  pid_t r;
  struct rusage ru;
  while ((r = wait4(b->pid, NULL, wait ? 0 : WNOHANG, &ru)) < 0 && errno == EINTR) {
  }
  /* (-1: the program reaped it, waiting for any child) */
  if (r == b->pid || r < 0) {
    b->done = 1;
    /* the compile's CPU seconds (else the time since it started) */
    b->seconds = r == b->pid ? (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                                   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6
                             : wall() - b->t0;
    for (int i = 0; i < nrunning; i++)
      if (running[i] == b) running[i] = running[--nrunning];
  }
}

static void kill_running(void) {
  pthread_mutex_lock(&running_lock);
  while (nrunning) {
    jit_bg *b = running[0];
    kill(b->pid, SIGKILL);
    reap_locked(b, 1);
  }
  pthread_mutex_unlock(&running_lock);
}

/* One compile at a time in the background: more would take the cores from
 * the workers (kernels that turn hot meanwhile wait their turn). */
int jit_bg_busy(void) {
  pthread_mutex_lock(&running_lock);
  for (int i = nrunning - 1; i >= 0; i--) reap_locked(running[i], 0);
  int busy = nrunning >= 1;
  pthread_mutex_unlock(&running_lock);
  return busy;
}

jit_bg *jit_compile_bg(const program *P, int hooked) {
  if (!jit_disk_cache()) return NULL;
  pthread_mutex_lock(&running_lock);
  if (!exit_kills) exit_kills = atexit(kill_running) == 0 ? 1 : -1;
  int room = exit_kills == 1 && nrunning < (int)(sizeof running / sizeof *running);
  pthread_mutex_unlock(&running_lock);
  jit_bg *b = room ? calloc(1, sizeof *b) : NULL;
  if (!b) return NULL;
  b->P = P;
  b->hooked = hooked;
  b->t0 = wall();
  /* (running_lock is not held across the fork: the child takes nothing) */
  long pid = jit_compile_child(P, hooked);
  if (pid <= 0) {
    free(b);
    return NULL;
  }
  b->pid = (pid_t)pid;
  pthread_mutex_lock(&running_lock);
  running[nrunning++] = b;
  pthread_mutex_unlock(&running_lock);
  return b;
}

static void reap(jit_bg *b, int wait) {
  pthread_mutex_lock(&running_lock);
  reap_locked(b, wait);
  pthread_mutex_unlock(&running_lock);
}

int jit_bg_ready(const jit_bg *b) {
  reap((jit_bg *)b, 0);
  pthread_mutex_lock(&running_lock);
  int done = b->done;
  pthread_mutex_unlock(&running_lock);
  return done;
}

jit_code *jit_bg_finish(jit_bg *b, double *seconds, char *why, size_t n) {
  reap(b, 1);
  /* the child's object from the disk cache (or, where it left none, a
   * compile here) */
  double t = wall();
  jit_code *J = jit_compile(b->P, b->hooked, why, n);
  if (seconds) *seconds = b->seconds + wall() - t;
  free(b);
  return J;
}

void jit_bg_cancel(jit_bg *b) {
  pthread_mutex_lock(&running_lock);
  if (!b->done) kill(b->pid, SIGKILL);
  reap_locked(b, 1);
  pthread_mutex_unlock(&running_lock);
  free(b);
}
