/* log.c: the log the log API reads (cudart/log.c, cudaLogs* and cuLogs*).
 * CUDA's driver keeps its recent messages in a buffer of at most 25600
 * bytes, newest last, older ones dropped when it is full; smemu keeps the
 * messages it prints (rt_msg) the same way, numbered so that an iterator
 * is the number of the next message. Registered callbacks see each message
 * as it is added. The log has its own lock, taken with trylock: a message
 * printed while the log is busy (a callback that prints) is not logged
 * rather than deadlocking. */
#include "rt.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define LOG_BYTES 25600
#define LOG_CALLBACKS 16

typedef struct log_entry {
  unsigned seq;
  int level;
  size_t len;
  char *text;
} log_entry;

typedef struct log_callback {
  cudaLogsCallback_t fn;
  void *data;
  int used;
} log_callback;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static log_entry *entries; /* oldest first */
static size_t nentries, cap, bytes;
static unsigned next_seq;
static log_callback callbacks[LOG_CALLBACKS];

void rt_log_add(int level, const char *text, size_t len) {
  if (pthread_mutex_trylock(&log_lock)) return;
  char *copy = malloc(len + 1);
  if (copy && nentries == cap) {
    size_t ncap = cap ? cap * 2 : 64;
    log_entry *e = realloc(entries, ncap * sizeof *e);
    if (e) entries = e, cap = ncap;
  }
  if (copy && nentries < cap && len < LOG_BYTES) {
    memcpy(copy, text, len);
    copy[len] = 0;
    while (nentries && bytes + len + 1 > LOG_BYTES) {
      bytes -= entries[0].len + 1;
      free(entries[0].text);
      memmove(entries, entries + 1, --nentries * sizeof *entries);
    }
    entries[nentries++] = (log_entry){next_seq++, level, len, copy};
    bytes += len + 1;
    for (int i = 0; i < LOG_CALLBACKS; i++)
      if (callbacks[i].used) callbacks[i].fn(callbacks[i].data, level, copy, len);
  } else
    free(copy);
  pthread_mutex_unlock(&log_lock);
}

cudaError_t rt_log_register(cudaLogsCallback_t fn, void *data, cudaLogsCallbackHandle *out) {
  if (!fn || !out) return cudaErrorInvalidValue;
  cudaError_t e = cudaErrorMemoryAllocation;
  pthread_mutex_lock(&log_lock);
  for (int i = 0; i < LOG_CALLBACKS; i++)
    if (!callbacks[i].used) {
      callbacks[i] = (log_callback){fn, data, 1};
      *out = (cudaLogsCallbackHandle)&callbacks[i];
      e = cudaSuccess;
      break;
    }
  pthread_mutex_unlock(&log_lock);
  return e;
}

cudaError_t rt_log_unregister(cudaLogsCallbackHandle h) {
  cudaError_t e = cudaErrorInvalidValue;
  pthread_mutex_lock(&log_lock);
  for (int i = 0; i < LOG_CALLBACKS; i++)
    if ((cudaLogsCallbackHandle)&callbacks[i] == h && callbacks[i].used) {
      callbacks[i].used = 0;
      e = cudaSuccess;
    }
  pthread_mutex_unlock(&log_lock);
  return e;
}

unsigned rt_log_current(void) {
  pthread_mutex_lock(&log_lock);
  unsigned s = next_seq;
  pthread_mutex_unlock(&log_lock);
  return s;
}

/* The messages from *iter on (all of them when iter is NULL), each ending
 * in a newline, into buf (n bytes with the terminating NUL). When they do
 * not all fit, a line saying so comes first and then as many of the newest
 * as fit; messages dropped from the log before they were read are said
 * too. Returns the bytes written without the NUL, or (size_t)-1 when not
 * even one message fits; *iter moves past what was there. */
size_t rt_log_dump(unsigned *iter, char *buf, size_t n) {
  static const char trunc[] = "[smemu] older log messages were dropped\n";
  static const char partial[] = "[smemu] the buffer holds only the newest log messages\n";
  pthread_mutex_lock(&log_lock);
  size_t first = 0;
  int dropped = 0;
  if (iter) {
    unsigned oldest = nentries ? entries[0].seq : next_seq;
    if (*iter < oldest) dropped = 1;
    while (first < nentries && entries[first].seq < *iter) first++;
  }
  size_t need = 0;
  for (size_t i = first; i < nentries; i++) need += entries[i].len + 1;
  size_t out = 0, start = first;
  const char *head = dropped ? trunc : NULL;
  if (first == nentries) {
    if (n) buf[0] = 0;
  } else {
    if (need + (head ? strlen(head) : 0) + 1 > n) {
      head = partial;
      size_t room = n > strlen(head) + 1 ? n - strlen(head) - 1 : 0, used = 0;
      start = nentries;
      while (start > first && used + entries[start - 1].len + 1 <= room) used += entries[--start].len + 1;
    }
    if (start == nentries)
      out = (size_t)-1;
    else {
      if (head) memcpy(buf, head, strlen(head)), out = strlen(head);
      for (size_t i = start; i < nentries; i++) {
        memcpy(buf + out, entries[i].text, entries[i].len);
        out += entries[i].len;
        buf[out++] = '\n';
      }
      buf[out] = 0;
    }
  }
  if (iter && out != (size_t)-1) *iter = next_seq;
  pthread_mutex_unlock(&log_lock);
  return out;
}
