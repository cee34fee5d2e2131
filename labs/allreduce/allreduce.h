/*
 * allreduce.h — what the allreduce lab's files share: the record each rank
 * gathers to rank 0, the models (ar_model.h) and rank 0's report
 * (allreduce_report.c), which the lesson (allreduce.c) calls.
 */
#ifndef AR_ALLREDUCE_H
#define AR_ALLREDUCE_H

#include <stddef.h>

#include "allreduce_params.h"
#include "ar_model.h"
#include "lab.h"

#define MAX_SIZES 64

/* Per size, what one rank measured (RES_N doubles a size, then one more per rank). */
enum { RES_TIME, RES_WRONG, RES_ERR, RES_N };

/* Rank 0: the report of ns sizes of type t; all holds every rank's ns * RES_N + 1 doubles. */
void allreduce_report(struct lab_ctx *c, const struct allreduce_params *P, enum dtype t, const size_t *sizes,
                      size_t ns, const double *all);

#endif
