/* coop.h: the gate that shares the cores among the worker threads of a
 * cooperative launch (coop.c). A worker enters before its block runs,
 * yields after every round and leaves when it stops. */
#ifndef SMEMU_EXEC_COOP_H
#define SMEMU_EXEC_COOP_H

typedef struct coop_gate coop_gate;

coop_gate *coop_gate_new(int slots);
void coop_gate_free(coop_gate *g);
void coop_enter(coop_gate *g);
void coop_leave(coop_gate *g);
void coop_yield(coop_gate *g);

#endif
