/* coop.c: the gate of a cooperative launch. Such a launch runs every block
 * on its own worker thread (the blocks must all be resident for grid.sync()
 * to complete), far more threads than cores; the gate lets `slots` of them
 * run at a time and hands the turn on in arrival order after every round
 * of a block, so a block spinning at a grid barrier waits one turn while
 * the blocks it waits for run. */
#include "exec/coop.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

typedef struct waiter {
  sem_t go;
  struct waiter *next;
} waiter;

struct coop_gate {
  pthread_mutex_t lock;
  int slots, running;
  waiter *head, *tail; /* threads waiting for a turn, first come first */
};

/* each worker thread waits on its own semaphore */
static _Thread_local waiter me;
static _Thread_local int me_ready;

coop_gate *coop_gate_new(int slots) {
  coop_gate *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  pthread_mutex_init(&g->lock, NULL);
  g->slots = slots < 1 ? 1 : slots;
  return g;
}

void coop_gate_free(coop_gate *g) {
  if (!g) return;
  pthread_mutex_destroy(&g->lock);
  free(g);
}

void coop_enter(coop_gate *g) {
  if (!me_ready) {
    sem_init(&me.go, 0, 0);
    me_ready = 1;
  }
  pthread_mutex_lock(&g->lock);
  if (g->running < g->slots) {
    g->running++;
    pthread_mutex_unlock(&g->lock);
    return;
  }
  me.next = NULL;
  if (g->tail)
    g->tail->next = &me;
  else
    g->head = &me;
  g->tail = &me;
  pthread_mutex_unlock(&g->lock);
  /* woken with the turn of the thread that left */
  while (sem_wait(&me.go) != 0) {
  }
}

void coop_leave(coop_gate *g) {
  pthread_mutex_lock(&g->lock);
  waiter *w = g->head;
  if (w) {
    g->head = w->next;
    if (!g->head) g->tail = NULL;
  } else {
    g->running--;
  }
  pthread_mutex_unlock(&g->lock);
  if (w) sem_post(&w->go);
}

void coop_yield(coop_gate *g) {
  pthread_mutex_lock(&g->lock);
  int waiting = g->head != NULL;
  pthread_mutex_unlock(&g->lock);
  if (!waiting) return;
  coop_leave(g);
  coop_enter(g);
}
