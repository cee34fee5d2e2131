/*
 * allreduce.c — the allreduce lab (seed questions 5 and 8): an all-reduce
 * size sweep in the manner of nccl-tests' all_reduce_perf, each size first
 * checked on exactly representable inputs and then timed; beside it the same
 * sizes on a modelled link, and one tensor-parallel layer's all-reduce time
 * next to its GEMM time on each link preset.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"

/* The sweep: minbytes, then times stepfactor while <= maxbytes (0 steps to one element). */
static size_t sweep_sizes(const struct allreduce_params *p, size_t elt, size_t *sizes)
{
    size_t lo = (size_t)p->minbytes, hi = (size_t)p->maxbytes, f = (size_t)p->stepfactor, n = 0;
    for (size_t s = lo; s <= hi && n < MAX_SIZES; s = s ? s * f : elt)
        sizes[n++] = s / elt * elt;
    return n;
}

// snippet: exact-inputs
/*
 * Rank r holds (r + 1) + (i mod 8) at element i, so the sum over n ranks is
 * n(n+1)/2 + n (i mod 8): small integers, exact in fp32 and fp64 whatever
 * order the ring adds them in.  Any difference is a wrong element.
 */
static double input_at(int rank, size_t i) { return (double)(rank + 1) + (double)(i % 8); }
static double sum_at(int n, size_t i) { return n * (n + 1) / 2.0 + n * (double)(i % 8); }
// end snippet

/* Check one size: fill, all-reduce once, compare every element. */
static int check_size(struct lab_ctx *c, enum dtype t, void *buf, void *host, size_t count,
                      double *wrong, double *err)
{
    size_t e = dtype_size(t);
    for (size_t i = 0; i < count; i++)
        dtype_set(t, host, i, input_at(c->rank, i));
    if (dev_copy(c->dev, buf, host, count * e, DEV_H2D) != 0 ||
        comm_allreduce(c->comm, buf, count, t) != 0 ||
        dev_copy(c->dev, host, buf, count * e, DEV_D2H) != 0 || dev_sync(c->dev) != 0)
        return -1;
    *wrong = 0;
    *err = 0;
    for (size_t i = 0; i < count; i++) {
        double d = fabs(dtype_get(t, host, i) - sum_at(c->nranks, i));
        if (d != 0)
            *wrong += 1;
        *err = fmax(*err, d);
    }
    return 0;
}

// snippet: timed-loop
/* Time one size: warm-up, then iters all-reduces between barriers; seconds per all-reduce. */
static int time_size(struct lab_ctx *c, enum dtype t, void *buf, size_t count, long warmup,
                     long iters, double *seconds)
{
    if (dev_fill(c->dev, t, buf, count, 0.0) != 0)   /* zeros: the timed sums stay finite */
        return -1;
    for (long w = 0; w < warmup; w++)
        if (comm_allreduce(c->comm, buf, count, t) != 0)
            return -1;
    if (dev_sync(c->dev) != 0 || comm_barrier(c->comm) != 0)
        return -1;
    double t0 = timer_wall();
    for (long k = 0; k < iters; k++)
        if (comm_allreduce(c->comm, buf, count, t) != 0)
            return -1;
    if (dev_sync(c->dev) != 0)
        return -1;
    *seconds = (timer_wall() - t0) / (double)iters;
    return 0;
}
// end snippet

static int allreduce_ranks(const struct lab_params *p) { return (int)allreduce_params_read(p).ranks; }

static int allreduce_run(struct lab_ctx *c)
{
    struct allreduce_params P = allreduce_params_read(c->params);
    enum dtype t = DTYPE_F32;
    if (dtype_parse(P.dtype, &t) != 0)
        t = DTYPE_F32;
    size_t e = dtype_size(t);
    size_t sizes[MAX_SIZES];
    size_t ns = sweep_sizes(&P, e, sizes);
    long iters = P.iters, warmup = P.warmup_iters;
    size_t maxcount = 1;
    for (size_t i = 0; i < ns; i++)
        if (sizes[i] / e > maxcount)
            maxcount = sizes[i] / e;

    double *mine = calloc(ns * RES_N + 1, sizeof *mine);
    double *all = calloc((ns * RES_N + 1) * (size_t)c->nranks, sizeof *all);
    void *host = malloc(maxcount * e);
    void *buf = dev_alloc(c->dev, maxcount * e, "buffer");
    int rc = mine && all && host && buf ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < ns; i++) {
        size_t count = sizes[i] / e;
        double *r = mine + i * RES_N;
        rc = check_size(c, t, buf, host, count, &r[RES_WRONG], &r[RES_ERR]);
        if (rc == 0)
            rc = time_size(c, t, buf, count, warmup, iters, &r[RES_TIME]);
        if (c->rank == 0)
            lab_progress(c, (double)(i + 1) / (double)ns, "all-reduce sweep");
    }
    dev_free(c->dev, buf);
    free(host);
    if (rc == 0)
        rc = lab_gather(c, mine, (ns * RES_N + 1) * sizeof *mine, all);
    if (rc != 0 || c->rank != 0) {
        free(mine);
        free(all);
        return rc;
    }

    allreduce_report(c, &P, t, sizes, ns, all);
    free(mine);
    free(all);
    return 0;
}

/*
 * Sizes each in range that make no sweep (a usage error, not a run that
 * passes having measured nothing): the sweep goes from minbytes up to
 * maxbytes, and times whole elements.
 */
static const char *allreduce_invalid(const struct lab_params *p)
{
    static char why[256];
    struct allreduce_params P = allreduce_params_read(p);
    long e = strcmp(P.dtype, "fp64") == 0 ? 8 : 4;
    if (P.minbytes > P.maxbytes)
        snprintf(why, sizeof why, "--minbytes %ld is more than --maxbytes %ld: the sweep would time nothing; "
                 "allowed: minbytes <= maxbytes", P.minbytes, P.maxbytes);
    else if (P.maxbytes < e)
        snprintf(why, sizeof why, "--maxbytes %ld is less than one %s element (%ld bytes): the sweep would time "
                 "nothing; allowed: maxbytes >= %ld", P.maxbytes, P.dtype, e, e);
    else
        return NULL;
    return why;
}

/*
 * Memory a run needs, every rank together, from above: each rank's buffer and
 * its host copy at the largest size, the communicator's staging of as much
 * again, and the per-size figures each rank keeps for every rank.
 */
static double allreduce_bytes(const struct lab_params *p)
{
    struct allreduce_params P = allreduce_params_read(p);
    double n = (double)P.ranks, big = P.maxbytes > 8 ? (double)P.maxbytes : 8;
    double figures = (MAX_SIZES * RES_N + 1) * 8.0 * (n + 1);
    return n * (4 * big + figures + (1 << 20));
}

const struct lab_impl lab_allreduce = {
    .name = "allreduce",
    .ranks = allreduce_ranks,
    .run = allreduce_run,
    .invalid = allreduce_invalid,
    .bytes = allreduce_bytes,
    .limits = &lab_allreduce_limits,
};
