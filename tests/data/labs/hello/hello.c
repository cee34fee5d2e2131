/*
 * hello.c — the example lab of doc/labrun.md ("Writing a lab"): every rank
 * holds a vector, one all-reduce sums them on the device, and rank 0 checks
 * the result against the sum computed serially from the same data.
 */
#include <math.h>
#include <stdlib.h>

#include "hello_params.h"   /* generated from lab.qz: struct hello_params, enum hello_metric */

/* Element i of rank r's vector: the same wherever it is computed. */
static double value(int r, size_t i) { return lab_value_at((unsigned)r, (unsigned)i, 0); }

static int hello_ranks(const struct lab_params *p) { return (int)hello_params_read(p).ranks; }

static int hello_run(struct lab_ctx *c)
{
    struct hello_params P = hello_params_read(c->params);
    size_t n = (size_t)P.count, bytes = n * sizeof(double);
    double *host = malloc(bytes);
    void *buf = dev_alloc(c->dev, bytes, "vector");
    int rc = host && buf ? 0 : -1;
    // snippet: allreduce
    /* This rank's vector to its device, summed over every rank in place, and back. */
    for (size_t i = 0; rc == 0 && i < n; i++)
        host[i] = value(c->rank, i);
    if (rc == 0)
        rc = dev_copy(c->dev, buf, host, bytes, DEV_H2D);
    if (rc == 0)
        rc = comm_allreduce(c->comm, buf, n, DTYPE_F64);
    if (rc == 0)
        rc = dev_copy(c->dev, host, buf, bytes, DEV_D2H);
    if (rc == 0)
        rc = dev_sync(c->dev);
    // end snippet
    if (rc == 0 && c->rank == 0) {
        /* The reference: the same sum, serially, in rank order. */
        double err = 0;
        for (size_t i = 0; i < n; i++) {
            double want = 0;
            for (int r = 0; r < c->nranks; r++)
                want += value(r, i);
            err = fmax(err, fabs(host[i] - want));
        }
        hello_metric(c, HELLO_M_MAX_ABS_ERROR, err, LAB_MEASURED);
        hello_metric(c, HELLO_M_BYTES_SENT, (double)c->comm->stats.sent[COMM_ALLREDUCE], LAB_EXACT);
        /* Values lie in [-1, 1): a sum in another order differs by rounding only. */
        lab_check(c, "all-reduce equals the serial sum", err <= 1e-12,
                  "max |all-reduced - serial| = %.2g over %zu elements of %d ranks (bound 1e-12)",
                  err, n, c->nranks);
    }
    dev_free(c->dev, buf);
    free(host);
    return rc;
}

/* Memory a run needs, every rank together: each rank's vector, on the host and the device, and the sums. */
static double hello_bytes(const struct lab_params *p)
{
    struct hello_params P = hello_params_read(p);
    return (double)P.ranks * (2 * 8 * (double)P.count + (1 << 20));
}

const struct lab_impl lab_hello = {
    .name = "hello",
    .ranks = hello_ranks,
    .run = hello_run,
    .bytes = hello_bytes,
    .limits = &lab_hello_limits,
};
