/* watch.c: the watcher thread of a launch. Every 100 ms it checks the
 * wall-clock limit, stopping the launch with SMEMU_ERR_LIMIT when it has
 * passed (the workers see launch.abort after their current round), and
 * after the first 2 s it tells the progress callback where the launch
 * stands, about 4 times a second. */
#include "exec/watch.h"

#include <stdio.h>
#include <time.h>

static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tell(watch *w, double t, int done) {
  launch *L = w->L;
  smemu_progress p = {
      L->prog->name, atomic_load(&L->blocks_done), L->nblocks, atomic_load(&L->live_thread), t - w->t0, done};
  L->progress(&p, L->progress_user);
}

static void time_out(watch *w) {
  launch *L = w->L;
  pthread_mutex_lock(&L->lock);
  if (!L->status) {
    snprintf(L->msg, sizeof L->msg,
             "kernel %s: the launch ran longer than its time limit of %g s (--timeout): %llu of %llu blocks "
             "done, %llu warp instructions; an endless loop?",
             L->prog->name, L->timeout, (unsigned long long)atomic_load(&L->blocks_done),
             (unsigned long long)L->nblocks, (unsigned long long)atomic_load(&L->live_warp));
    L->status = SMEMU_ERR_LIMIT;
    atomic_store(&L->abort, 1);
  }
  pthread_mutex_unlock(&L->lock);
}

static void *watch_main(void *arg) {
  watch *w = arg;
  launch *L = w->L;
  double shown = 0;
  int timed_out = 0;
  pthread_mutex_lock(&w->mu);
  while (!w->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 100000000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    if (w->stop) break;
    double t = mono();
    if (L->timeout > 0 && t - w->t0 > L->timeout && !timed_out) {
      timed_out = 1;
      time_out(w);
    }
    if (L->progress && t - w->t0 >= 2.0 && t - shown >= 0.25) {
      shown = t;
      tell(w, t, 0);
    }
  }
  pthread_mutex_unlock(&w->mu);
  if (shown) tell(w, mono(), 1);
  return NULL;
}

void watch_start(watch *w, launch *L) {
  memset(w, 0, sizeof *w);
  w->L = L;
  w->t0 = mono();
  if (!(L->timeout > 0) && !L->progress) return;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&w->mu, NULL);
  w->started = pthread_create(&w->th, NULL, watch_main, w) == 0;
  if (!w->started) {
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
  }
}

void watch_stop(watch *w) {
  if (!w->started) return;
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->th, NULL);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
}
