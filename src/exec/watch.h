/* watch.h: a launch's watcher thread (watch.c): the wall-clock limit
 * (smemu_options.timeout_seconds) and the progress callback. */
#ifndef SMEMU_WATCH_H
#define SMEMU_WATCH_H
#include "exec/exec.h"

typedef struct watch {
  launch *L;
  pthread_t th;
  pthread_mutex_t mu; /* guards stop */
  pthread_cond_t cv;  /* signalled by watch_stop */
  int stop;           /* the launch has ended */
  int started;        /* a thread runs */
  double t0;          /* launch start, monotonic seconds */
} watch;

/* Start watching L when it has a time limit or a progress callback. */
void watch_start(watch *w, launch *L);
/* The launch has ended: stop the thread (the callback hears done). */
void watch_stop(watch *w);

#endif
