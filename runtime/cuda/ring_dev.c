/*
 * ring_dev.c — ring collectives over device memory (comm_cuda.h), for the
 * cuda-shared communicator: the algorithms of coll.c with the reduction done
 * by the device's axpy and the scratch block allocated on the device.  The
 * transfers are the comm's own send/recv/sendrecv, which count the bytes.
 */
#include <stdlib.h>

#include "comm_cuda.h"
#include "util.h"

static int mod(int a, int n) { return ((a % n) + n) % n; }

static size_t nchunks(const struct comm *c, size_t bytes)
{
    if (bytes == 0)
        return 0;
    if (c->chunk_bytes == 0)
        return 1;
    return (bytes + c->chunk_bytes - 1) / c->chunk_bytes;
}

static size_t chunk_len(const struct comm *c, size_t bytes, size_t j)
{
    if (c->chunk_bytes == 0)
        return bytes;
    size_t off = j * c->chunk_bytes;
    return bytes - off < c->chunk_bytes ? bytes - off : c->chunk_bytes;
}

/* Send sbytes to dst while receiving rbytes from src, chunk by chunk. */
static int exchange(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                    void *rbuf, size_t rbytes, int src)
{
    size_t ns = nchunks(c, sbytes), nr = nchunks(c, rbytes);
    size_t n = ns > nr ? ns : nr, step = c->chunk_bytes;
    for (size_t j = 0; j < n; j++) {
        const char *s = (const char *)sbuf + j * step;
        char *r = (char *)rbuf + j * step;
        int rc;
        if (j < ns && j < nr)
            rc = c->ops->sendrecv(c, s, chunk_len(c, sbytes, j), dst,
                                  r, chunk_len(c, rbytes, j), src, COMM_TAG_INTERNAL);
        else if (j < ns)
            rc = c->ops->send(c, s, chunk_len(c, sbytes, j), dst, COMM_TAG_INTERNAL);
        else
            rc = c->ops->recv(c, r, chunk_len(c, rbytes, j), src, COMM_TAG_INTERNAL);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static size_t *offsets_of(const size_t *counts, int size)
{
    size_t *off = xmalloc(((size_t)size + 1) * sizeof *off);
    off[0] = 0;
    for (int r = 0; r < size; r++)
        off[r + 1] = off[r] + counts[r];
    return off;
}

static size_t largest_block(const size_t *off, int n)
{
    size_t m = 0;
    for (int r = 0; r < n; r++)
        if (off[r + 1] - off[r] > m)
            m = off[r + 1] - off[r];
    return m;
}

/* After size-1 steps rank r holds the sum of block r; scratch holds the largest block. */
static int ring_reduce_scatter(struct comm *c, struct dev *dev, char *buf, const size_t *off,
                               enum dtype t, char *scratch)
{
    int n = c->size, r = c->rank;
    size_t es = dtype_size(t);
    int right = mod(r + 1, n), left = mod(r - 1, n);
    for (int s = 0; s < n - 1; s++) {
        int sb = mod(r - s - 1, n), rb = mod(r - s - 2, n);
        size_t scount = off[sb + 1] - off[sb], rcount = off[rb + 1] - off[rb];
        if (exchange(c, buf + off[sb] * es, scount * es, right, scratch, rcount * es, left) < 0)
            return -1;
        if (dev->ops->axpy(dev, t, rcount, 1.0, scratch, buf + off[rb] * es) < 0)
            return -1;
    }
    return 0;
}

static int ring_all_gather(struct comm *c, char *buf, const size_t *off, enum dtype t)
{
    int n = c->size, r = c->rank;
    size_t es = dtype_size(t);
    int right = mod(r + 1, n), left = mod(r - 1, n);
    for (int s = 0; s < n - 1; s++) {
        int sb = mod(r - s, n), rb = mod(r - s - 1, n);
        size_t scount = off[sb + 1] - off[sb], rcount = off[rb + 1] - off[rb];
        if (exchange(c, buf + off[sb] * es, scount * es, right,
                     buf + off[rb] * es, rcount * es, left) < 0)
            return -1;
    }
    return 0;
}

int ring_dev_allreduce(struct comm *c, struct dev *dev, void *buf, size_t count, enum dtype t)
{
    if (c->size == 1 || count == 0)
        return 0;
    size_t *counts = xmalloc((size_t)c->size * sizeof *counts);
    for (int r = 0; r < c->size; r++)
        counts[r] = comm_share(count, c->size, r);
    size_t *off = offsets_of(counts, c->size);
    char *scratch = dev->ops->alloc(dev, largest_block(off, c->size) * dtype_size(t) + 1);
    int rc = scratch ? ring_reduce_scatter(c, dev, buf, off, t, scratch) : -1;
    if (rc == 0)
        rc = ring_all_gather(c, buf, off, t);
    if (scratch)
        dev->ops->free(dev, scratch);
    free(off);
    free(counts);
    return rc;
}

int ring_dev_allgatherv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                        const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = offsets_of(counts, c->size);
    char *mine = (char *)rbuf + off[c->rank] * es;
    int rc = 0;
    if (mine != sbuf && counts[c->rank] > 0)
        rc = dev->ops->copy(dev, mine, sbuf, counts[c->rank] * es, DEV_D2D);
    if (rc == 0)
        rc = ring_all_gather(c, rbuf, off, t);
    free(off);
    return rc;
}

int ring_dev_reducescatterv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                            const size_t *counts, enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = offsets_of(counts, c->size);
    size_t total = off[c->size];
    /* The reduction works on a copy: sbuf is the caller's and stays as it was. */
    char *work = dev->ops->alloc(dev, total * es + 1);
    char *scratch = dev->ops->alloc(dev, largest_block(off, c->size) * es + 1);
    int rc = work && scratch ? 0 : -1;
    if (rc == 0 && total)
        rc = dev->ops->copy(dev, work, sbuf, total * es, DEV_D2D);
    if (rc == 0)
        rc = ring_reduce_scatter(c, dev, work, off, t, scratch);
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
    /* A chain from the root, chunk by chunk (the sends never wait for their receivers). */
    int n = c->size, pos = mod(c->rank - root, n);
    int next = mod(c->rank + 1, n), prev = mod(c->rank - 1, n);
    size_t bytes = count * dtype_size(t), nc = nchunks(c, bytes);
    for (size_t j = 0; j < nc; j++) {
        char *p = (char *)buf + j * c->chunk_bytes;
        size_t len = chunk_len(c, bytes, j);
        if (pos > 0 && c->ops->recv(c, p, len, prev, COMM_TAG_INTERNAL) < 0)
            return -1;
        if (pos < n - 1 && c->ops->send(c, p, len, next, COMM_TAG_INTERNAL) < 0)
            return -1;
    }
    return 0;
}
