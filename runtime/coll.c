/*
 * coll.c — collectives built on a backend's point-to-point operations, for
 * backends without native ones (the threads backend) and as the reference
 * the native ones are tested against.
 *
 * The ring algorithms split a buffer into one block per rank (sizes differ
 * by at most one element when the count does not divide) and move each block
 * in chunks of at most c->chunk_bytes.  Every rank knows every block's size,
 * so sender and receiver always agree on how many chunks travel.  The ring
 * schedule is exported (coll_ring.h) with the reduction as a callback, so
 * the device rings of ring_dev.c are this code too.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_ring.h"
#include "comm.h"
#include "util.h"

static int mod(int a, int n) { return ((a % n) + n) % n; }

/*
 * y[0..n) += x[0..n) for one element type, each sum also stored at z[i]
 * when COPY (a constant, so the loop has no test for it); x and z are read
 * and written with memcpy (see comm_sum_into_copy).  z is x itself or
 * shares no byte with x or y.
 */
#define SUM_INTO(T, y, x, z, n, COPY)                                         \
    do {                                                                      \
        T *a_ = (y);                                                          \
        const unsigned char *x_ = (x);                                        \
        unsigned char *z_ = (z);                                              \
        size_t i_ = 0;                                                        \
        /* Blocks of a fixed 64 bytes, so the compiler vectorizes even at -O2. */ \
        for (; i_ + 64 / sizeof(T) <= (n); i_ += 64 / sizeof(T)) {            \
            T v_[64 / sizeof(T)];                                             \
            memcpy(v_, x_ + i_ * sizeof(T), sizeof v_);                       \
            for (size_t k_ = 0; k_ < 64 / sizeof(T); k_++)                    \
                a_[i_ + k_] += v_[k_];                                        \
            if (COPY)                                                         \
                memcpy(z_ + i_ * sizeof(T), a_ + i_, sizeof v_);              \
        }                                                                     \
        for (; i_ < (n); i_++) {                                              \
            T v_;                                                             \
            memcpy(&v_, x_ + i_ * sizeof(T), sizeof v_);                      \
            a_[i_] += v_;                                                     \
            if (COPY)                                                         \
                memcpy(z_ + i_ * sizeof(T), a_ + i_, sizeof v_);              \
        }                                                                     \
    } while (0)

/*
 * x may be another rank's buffer at any byte offset (a chunk boundary of a
 * block of a caller's array), so its elements are read with memcpy:
 * unaligned loads, never a misaligned dereference; z likewise.
 */
void comm_sum_into_copy(enum dtype t, void *y, const void *x, void *z, size_t n)
{
    if (t == DTYPE_F64)
        SUM_INTO(double, y, x, z, n, 1);
    else
        SUM_INTO(float, y, x, z, n, 1);
}

void comm_sum_into(enum dtype t, void *y, const void *x, size_t n)
{
    if (t == DTYPE_F64)
        SUM_INTO(double, y, x, NULL, n, 0);
    else
        SUM_INTO(float, y, x, NULL, n, 0);
}

/* Chunks a block of `bytes` travels in. */
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

/*
 * Send sbytes at sbuf to dst while receiving rbytes into rbuf from src, chunk
 * by chunk.  A side with nothing to move sends or receives nothing.
 */
static int exchange(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                    void *rbuf, size_t rbytes, int src)
{
    size_t ns = nchunks(c, sbytes), nr = nchunks(c, rbytes);
    size_t n = ns > nr ? ns : nr;
    size_t step = c->chunk_bytes ? c->chunk_bytes : 0;
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

int comm_generic_barrier(struct comm *c)
{
    /* Dissemination: after round k every rank has heard, indirectly, from 2^k others. */
    char token = 0, got;
    for (int k = 1; k < c->size; k *= 2) {
        int dst = mod(c->rank + k, c->size), src = mod(c->rank - k, c->size);
        if (c->ops->sendrecv(c, &token, 0, dst, &got, 0, src, COMM_TAG_INTERNAL) < 0)
            return -1;
    }
    return 0;
}

size_t *coll_offsets(const size_t *counts, int size)
{
    size_t *off = xmalloc(((size_t)size + 1) * sizeof *off);
    off[0] = 0;
    for (int r = 0; r < size; r++)
        off[r + 1] = off[r] + counts[r];
    return off;
}

size_t *coll_share_offsets(size_t count, int size)
{
    size_t *counts = xmalloc((size_t)size * sizeof *counts);
    for (int r = 0; r < size; r++)
        counts[r] = comm_share(count, size, r);
    size_t *off = coll_offsets(counts, size);
    free(counts);
    return off;
}

/*
 * The step of a reduction: chunk_bytes rounded down to whole elements (at
 * least one), so every chunk received can be added as it arrives; the whole
 * block when chunks are unlimited.
 */
static size_t reduce_step(const struct comm *c, size_t es, size_t block_bytes)
{
    if (c->chunk_bytes == 0)
        return block_bytes;
    size_t step = c->chunk_bytes / es * es;
    return step ? step : es;
}

/*
 * Ring reduce-scatter: after size-1 steps rank r holds the full sum of block
 * r.  Each chunk is added as soon as it arrives, so scratch holds one chunk
 * (reduce_step bytes), not a block: a block-sized scratch of tens of
 * megabytes is fresh memory on every call, and its page faults cost more
 * than the reduction.
 */
int coll_ring_reduce_scatter(struct comm *c, char *buf, const size_t *off, enum dtype t,
                             char *scratch, coll_add_fn add, void *ctx)
{
    int n = c->size, r = c->rank;
    size_t es = dtype_size(t);
    int right = mod(r + 1, n), left = mod(r - 1, n);
    for (int s = 0; s < n - 1; s++) {
        int sb = mod(r - s - 1, n), rb = mod(r - s - 2, n);
        size_t sbytes = (off[sb + 1] - off[sb]) * es, rbytes = (off[rb + 1] - off[rb]) * es;
        size_t step = reduce_step(c, es, sbytes > rbytes ? sbytes : rbytes);
        const char *sp = buf + off[sb] * es;
        char *rp = buf + off[rb] * es;
        for (size_t at = 0; at < sbytes || at < rbytes; at += step) {
            size_t sl = at < sbytes ? (sbytes - at < step ? sbytes - at : step) : 0;
            size_t rl = at < rbytes ? (rbytes - at < step ? rbytes - at : step) : 0;
            int rc;
            if (sl && rl && c->ops->sendrecv_add) {
                /* The backend adds the chunk into place itself: no scratch copy. */
                if (c->ops->sendrecv_add(c, sp + at, sl, right, rp + at, rl, left,
                                         COMM_TAG_INTERNAL, t) < 0)
                    return -1;
                continue;
            }
            if (sl && rl)
                rc = c->ops->sendrecv(c, sp + at, sl, right, scratch, rl, left, COMM_TAG_INTERNAL);
            else if (sl)
                rc = c->ops->send(c, sp + at, sl, right, COMM_TAG_INTERNAL);
            else
                rc = c->ops->recv(c, scratch, rl, left, COMM_TAG_INTERNAL);
            /* Nothing received, nothing to add (a device kernel cannot launch on 0 elements). */
            if (rc < 0 || (rl && add(ctx, t, rp + at, scratch, rl / es) < 0))
                return -1;
        }
    }
    return 0;
}

int coll_ring_all_gather(struct comm *c, char *buf, const size_t *off, enum dtype t)
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

/* One step of the largest block. */
size_t coll_scratch_bytes(const struct comm *c, const size_t *off, enum dtype t)
{
    size_t m = 0, es = dtype_size(t);
    for (int r = 0; r < c->size; r++)
        if (off[r + 1] - off[r] > m)
            m = off[r + 1] - off[r];
    size_t step = reduce_step(c, es, m * es);
    return m * es < step ? m * es : step;
}

/* The host reduction, as a coll_add_fn. */
static int host_add(void *ctx, enum dtype t, void *y, const void *x, size_t n)
{
    (void)ctx;
    comm_sum_into(t, y, x, n);
    return 0;
}

int comm_generic_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    if (c->size == 1 || count == 0)
        return 0;
    size_t *off = coll_share_offsets(count, c->size);
    char *scratch = xmalloc(coll_scratch_bytes(c, off, t) + 1);
    int rc = coll_ring_reduce_scatter(c, buf, off, t, scratch, host_add, NULL);
    if (rc == 0)
        rc = coll_ring_all_gather(c, buf, off, t);
    free(scratch);
    free(off);
    return rc;
}

int comm_generic_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                            enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    char *mine = (char *)rbuf + off[c->rank] * es;
    if (mine != sbuf && counts[c->rank] > 0)
        memmove(mine, sbuf, counts[c->rank] * es);
    int rc = coll_ring_all_gather(c, rbuf, off, t);
    free(off);
    return rc;
}

int comm_generic_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                                enum dtype t)
{
    size_t es = dtype_size(t);
    size_t *off = coll_offsets(counts, c->size);
    size_t total = off[c->size];
    /* The reduction works on a copy: sbuf is the caller's and stays as it was. */
    char *work = xmalloc(total * es + 1);
    if (total)
        memcpy(work, sbuf, total * es);
    char *scratch = xmalloc(coll_scratch_bytes(c, off, t) + 1);
    int rc = coll_ring_reduce_scatter(c, work, off, t, scratch, host_add, NULL);
    if (rc == 0 && counts[c->rank] > 0)
        memcpy(rbuf, work + off[c->rank] * es, counts[c->rank] * es);
    free(scratch);
    free(work);
    free(off);
    return rc;
}

int comm_generic_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    /* A chain from the root, chunk by chunk, so later ranks start before the root has sent everything. */
    int n = c->size, pos = mod(c->rank - root, n);
    int next = mod(c->rank + 1, n), prev = mod(c->rank - 1, n);
    size_t bytes = count * dtype_size(t), nc = nchunks(c, bytes);
    size_t step = c->chunk_bytes;
    for (size_t j = 0; j < nc; j++) {
        char *p = (char *)buf + j * step;
        size_t len = chunk_len(c, bytes, j);
        if (pos > 0 && c->ops->recv(c, p, len, prev, COMM_TAG_INTERNAL) < 0)
            return -1;
        if (pos < n - 1 && c->ops->send(c, p, len, next, COMM_TAG_INTERNAL) < 0)
            return -1;
    }
    return 0;
}
