/* fatal.c: a program's findings are not lost when it dies. Exiting
 * without synchronising is covered by state.c's destructor (it runs the
 * queued launches and writes the reports). Here: on a fatal signal (a
 * crash, abort(), SIGTERM, SIGINT, SIGHUP, SIGQUIT) the handler writes the
 * reports (text and JSON) and then lets the signal take its default
 * course, so the program still dies of it. After a crash or abort the
 * queued launches are run first, as the GPU would have run them; host
 * callbacks are dropped (the program's own code is not safe to call now);
 * on a termination request nothing more is run.
 *
 * Writing reports is not async-signal-safe. The handler is designed so
 * that it cannot make things worse: it runs once (a second signal takes
 * the default action), it only proceeds when it can take the runtime's
 * lock within 5 s (another thread may be mid-launch), after a crash inside
 * the runtime itself it does nothing (its state may be broken), on a
 * termination request during a launch (^C) it writes the reports of the
 * launches before, and an alarm ends the process if the flush itself hangs
 * (on a lock the crashed code held, say). */
#include "rt.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FLUSH_SECONDS 60 /* the alarm after a crash: queued launches may take a while */
#define STOP_SECONDS 5   /* after a termination request: reports only */

static const int fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL, SIGABRT,
                                    SIGTRAP, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
static volatile sig_atomic_t flushing;

/* Drop queued host callbacks, keeping launches and events in order. */
static void drop_host_work(void) {
  rt_op **pp = &rt.qhead, *last = NULL;
  while (*pp) {
    rt_op *op = *pp;
    if (op->kind == OP_HOSTFN || op->kind == OP_CALLBACK) {
      *pp = op->next;
      free(op->params);
      free(op);
      rt.qlen--;
    } else {
      last = op;
      pp = &op->next;
    }
  }
  rt.qtail = last;
}

static void flush(int crash) {
  if (!rt.inited) return;
  /* glibc's mutex records its owner: a signal raised inside the runtime
   * (a crash in smemu itself) must not run anything more */
  int inside = rt.lock.__data.__owner == (int)syscall(SYS_gettid);
  if (inside && crash) return;
  if (!inside) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += 5;
    if (pthread_mutex_timedlock(&rt.lock, &t) != 0) return;
  }
  if (crash && !inside && !rt.sticky && !rt.draining) {
    drop_host_work();
    rt_drain();
  }
  fflush(stdout);
  rt_report_finish();
  if (!inside) pthread_mutex_unlock(&rt.lock);
}

static void on_signal(int sig) {
  if (!flushing) {
    int crash = sig != SIGTERM && sig != SIGINT && sig != SIGHUP && sig != SIGQUIT;
    flushing = 1;
    signal(SIGALRM, SIG_DFL);
    alarm(crash ? FLUSH_SECONDS : STOP_SECONDS);
    flush(crash);
  }
  signal(sig, SIG_DFL);
  raise(sig); /* delivered when the handler returns: the default action */
}

/* Installed when the library loads, before the program's main; a handler
 * the program installs later replaces ours, and one it inherited ignoring
 * a signal is kept. */
__attribute__((constructor)) static void install(void) {
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
    struct sigaction old, sa;
    if (sigaction(fatal_signals[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(fatal_signals[i], &sa, NULL);
  }
}
