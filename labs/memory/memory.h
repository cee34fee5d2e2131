/*
 * memory.h — what the memory lab's files share: the accounting
 * (mem_model.h) and rank 0's report (memory_report.c), which the lesson
 * (memory.c) calls.
 */
#ifndef MEM_MEMORY_H
#define MEM_MEMORY_H

#include "lab.h"
#include "mem_model.h"
#include "memory_params.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

/*
 * Rank 0: report model m (the run's parameters P) and the live step on its
 * scaled-down model s; all holds three doubles per rank (allocator peak,
 * predicted peak, parameters allocated); live_rc is rank 0's live step's
 * result, which it returns.
 */
int memory_report(struct lab_ctx *c, const struct memory_params *P, const struct mem_model *m,
                  const struct mem_model *s, const double *all, int live_rc);

#endif
