/*
 * ring_dev.c — ring collectives over device memory (ring_dev.h): coll.c's
 * ring schedule with the device's axpy as the reduction.  The transfers are
 * the comm's own send/recv/sendrecv, which count the bytes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "coll_ring.h"
#include "ring_dev.h"
#include "util.h"

/* A device block kept between collectives. */
struct kept {
    void *p;                /* NULL until first needed */
    size_t cap;             /* bytes p holds */
};

struct ring_dev {
    struct dev *dev;        /* borrowed */
    struct kept scratch;    /* the chunk a reduce-scatter step receives into */
    struct kept work;       /* reduce-scatterv's copy of the caller's buffer */
};

struct ring_dev *ring_dev_new(struct dev *dev)
{
    struct ring_dev *rd = xcalloc(1, sizeof *rd);
    rd->dev = dev;
    return rd;
}

void ring_dev_free(struct ring_dev *rd)
{
    if (!rd)
        return;
    if (rd->scratch.p)
        rd->dev->ops->free(rd->dev, rd->scratch.p);
    if (rd->work.p)
        rd->dev->ops->free(rd->dev, rd->work.p);
    free(rd);
}

/*
 * k's block, holding at least bytes: kept, or replaced by a larger one (at
 * least half as large again, so a slowly growing size regrows rarely).
 * NULL after printing why.
 */
static void *kept_get(struct ring_dev *rd, struct kept *k, size_t bytes, const char *what)
{
    if (k->p && k->cap >= bytes)
        return k->p;
    size_t want = bytes > k->cap + k->cap / 2 ? bytes : k->cap + k->cap / 2;
    if (want == 0)
        want = 1;           /* a distinct pointer even when nothing is moved */
    struct dev *dev = rd->dev;
    if (k->p)
        dev->ops->free(dev, k->p);
    k->p = dev->ops->alloc(dev, want);
    k->cap = k->p ? want : 0;
    if (!k->p)
        fprintf(stderr, "labrun: error: rank %d: %s device cannot allocate %zu bytes for a ring's %s\n",
                dev->rank, dev->ops->name, want, what);
    return k->p;
}

/*
 * The device reduction, as a coll_add_fn: y += 1.0 * x, queued on the
 * device's stream after the receive that filled x and before the next
 * transfer from that stream, so the scratch chunk is never overwritten early.
 */
static int dev_add(void *ctx, enum dtype t, void *y, const void *x, size_t n)
{
    return dev_axpy(ctx, t, n, 1.0, x, y);
}

int ring_dev_allreduce(struct comm *c, struct ring_dev *rd, void *buf, size_t count, enum dtype t)
{
    if (c->size == 1 || count == 0)
        return 0;
    size_t *off = coll_share_offsets(count, c->size);
    char *scratch = kept_get(rd, &rd->scratch, coll_scratch_bytes(c, off, t), "scratch");
    int rc = scratch ? coll_ring_reduce_scatter(c, buf, off, t, scratch, dev_add, rd->dev) : -1;
    if (rc == 0)
        rc = coll_ring_all_gather(c, buf, off, t);
    free(off);
    return rc;
}

int ring_dev_allgatherv(struct comm *c, struct ring_dev *rd, const void *sbuf, void *rbuf,
                        const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    char *mine = (char *)rbuf + off[c->rank] * es;
    int rc = 0;
    if (mine != sbuf)
        rc = dev_copy(rd->dev, mine, sbuf, counts[c->rank] * es, DEV_D2D);
    if (rc == 0)
        rc = coll_ring_all_gather(c, rbuf, off, t);
    free(off);
    return rc;
}

int ring_dev_reducescatterv(struct comm *c, struct ring_dev *rd, const void *sbuf, void *rbuf,
                            const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    size_t total = off[c->size];
    /* The reduction works on a copy: sbuf is the caller's and stays as it was. */
    char *work = kept_get(rd, &rd->work, total * es, "working copy");
    char *scratch = work ? kept_get(rd, &rd->scratch, coll_scratch_bytes(c, off, t), "scratch") : NULL;
    int rc = scratch ? dev_copy(rd->dev, work, sbuf, total * es, DEV_D2D) : -1;
    if (rc == 0)
        rc = coll_ring_reduce_scatter(c, work, off, t, scratch, dev_add, rd->dev);
    if (rc == 0)
        rc = dev_copy(rd->dev, rbuf, work + off[c->rank] * es, counts[c->rank] * es, DEV_D2D);
    /* The last copy is only queued: the result is in rbuf when this returns. */
    if (rc == 0)
        rc = dev_sync(rd->dev);
    free(off);
    return rc;
}

int ring_dev_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    /* A chain of sends and receives, nothing to add: coll.c's serves device memory as is. */
    return comm_generic_broadcast(c, buf, count, t, root);
}
