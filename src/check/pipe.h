/* pipe.h: the async pipeline statistics (SMEMU_ANALYZE_PIPELINE, `--report
 * pipeline`) of one launch (analysis.pipe), merged from the workers' and
 * written by smemu_write_pipeline_report (pipe.c keeps them). */
#ifndef SMEMU_PIPE_H
#define SMEMU_PIPE_H
#include <stdint.h>

#define PIPE_BARS 64
#define PIPE_NKINDS 5 /* copy kinds (hooks.h: PIPE_KINDS) */
typedef struct pipe_bar {
  uint32_t addr;     /* shared offset of the mbarrier */
  uint32_t expected; /* arrival count of its last init */
  uint64_t inits, phases, copies, bytes, waits, spins;
  uint32_t live_copies; /* copies landed in its current phase (per block) */
  uint64_t live_bytes;
} pipe_bar;
typedef struct pipe_stats {
  uint64_t copies[PIPE_NKINDS], bytes[PIPE_NKINDS];
  uint64_t commits, group_waits, fences;
  uint32_t max_copies;                          /* most loads landed in phases not completed yet, one block */
  uint64_t max_bytes;                           /* their bytes */
  uint32_t max_groups;                          /* most bulk groups committed and not waited for, one block */
  uint32_t cur_copies, cur_groups, uncommitted; /* per block, live */
  uint64_t cur_bytes;
  uint32_t nbars, more_bars; /* barriers kept, and those beyond PIPE_BARS */
  pipe_bar bars[PIPE_BARS];
} pipe_stats;

#endif
