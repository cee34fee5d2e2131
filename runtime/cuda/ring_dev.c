/*
 * ring_dev.c — ring collectives over device memory (comm_cuda.h), for the
 * cuda-shared communicator: the ring schedule of coll.c (coll_ring.h), with
 * the reduction done by the device's axpy and the scratch chunk and the
 * working copy allocated on the device.  The transfers are the comm's own
 * send/recv/sendrecv, which count the bytes.
 */
#include <stdlib.h>

#include "coll_ring.h"
#include "comm_cuda.h"
#include "util.h"

/*
 * The device reduction, as a coll_add_fn: y += 1.0 * x, queued on the
 * device's stream after the receive that filled x and before the next
 * transfer from that stream, so the scratch chunk is never overwritten early.
 */
static int dev_add(void *ctx, enum dtype t, void *y, const void *x, size_t n)
{
    struct dev *dev = ctx;
    return dev->ops->axpy(dev, t, n, 1.0, x, y);
}

int ring_dev_allreduce(struct comm *c, struct dev *dev, void *buf, size_t count, enum dtype t)
{
    if (c->size == 1 || count == 0)
        return 0;
    size_t *off = coll_share_offsets(count, c->size);
    char *scratch = dev->ops->alloc(dev, coll_scratch_bytes(c, off, t) + 1);
    int rc = scratch ? coll_ring_reduce_scatter(c, buf, off, t, scratch, dev_add, dev) : -1;
    if (rc == 0)
        rc = coll_ring_all_gather(c, buf, off, t);
    if (scratch)
        dev->ops->free(dev, scratch);
    free(off);
    return rc;
}

int ring_dev_allgatherv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                        const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    char *mine = (char *)rbuf + off[c->rank] * es;
    int rc = 0;
    if (mine != sbuf && counts[c->rank] > 0)
        rc = dev->ops->copy(dev, mine, sbuf, counts[c->rank] * es, DEV_D2D);
    if (rc == 0)
        rc = coll_ring_all_gather(c, rbuf, off, t);
    free(off);
    return rc;
}

int ring_dev_reducescatterv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                            const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    size_t total = off[c->size];
    /* The reduction works on a copy: sbuf is the caller's and stays as it was. */
    char *work = dev->ops->alloc(dev, total * es + 1);
    char *scratch = dev->ops->alloc(dev, coll_scratch_bytes(c, off, t) + 1);
    int rc = work && scratch ? 0 : -1;
    if (rc == 0 && total)
        rc = dev->ops->copy(dev, work, sbuf, total * es, DEV_D2D);
    if (rc == 0)
        rc = coll_ring_reduce_scatter(c, work, off, t, scratch, dev_add, dev);
    if (rc == 0 && counts[c->rank] > 0)
        rc = dev->ops->copy(dev, rbuf, work + off[c->rank] * es, counts[c->rank] * es, DEV_D2D);
    if (rc == 0)
        rc = dev->ops->sync(dev);
    if (scratch)
        dev->ops->free(dev, scratch);
    if (work)
        dev->ops->free(dev, work);
    free(off);
    return rc;
}

int ring_dev_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    /* A chain of sends and receives, nothing to add: coll.c's serves device memory as is. */
    return comm_generic_broadcast(c, buf, count, t, root);
}
