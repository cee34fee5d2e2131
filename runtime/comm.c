/*
 * comm.c — the communicator wrappers labs call: count calls, bytes and time
 * per operation, then hand over to the backend's table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "timer.h"
#include "util.h"

/* tag: comm-ops */
static const char *const op_names[COMM_NOPS] = {
    [COMM_SEND] = "send",
    [COMM_RECV] = "recv",
    [COMM_BARRIER] = "barrier",
    [COMM_ALLREDUCE] = "allreduce",
    [COMM_ALLGATHER] = "allgather",
    [COMM_REDUCESCATTER] = "reducescatter",
    [COMM_BROADCAST] = "broadcast",
};

const char *comm_op_name(enum comm_op op)
{
    return op >= 0 && op < COMM_NOPS ? op_names[op] : "?";
}

struct comm *comm_new(const struct comm_ops *ops, int rank, int size, void *impl)
{
    struct comm *c = xcalloc(1, sizeof *c);
    c->ops = ops;
    c->rank = rank;
    c->size = size;
    c->chunk_bytes = COMM_DEFAULT_CHUNK;
    c->impl = impl;
    return c;
}

void comm_free(struct comm *c)
{
    if (!c)
        return;
    if (c->ops && c->ops->free)
        c->ops->free(c);
    free(c);
}

void comm_stats_reset(struct comm *c)
{
    memset(&c->stats, 0, sizeof c->stats);
}

size_t comm_share(size_t n, int size, int r)
{
    size_t q = n / (size_t)size, extra = n % (size_t)size;
    return q + ((size_t)r < extra ? 1 : 0);
}

size_t comm_share_offset(size_t n, int size, int r)
{
    size_t q = n / (size_t)size, extra = n % (size_t)size;
    size_t rr = (size_t)r;
    return rr * q + (rr < extra ? rr : extra);
}

/* Open and close the accounting of one operation: its wall time only.  A
   thread-CPU clock read is a system call (no vDSO), which would cost as much as
   a small collective itself. */
struct op_clock {
    enum comm_op prev;
    double wall0;
};

static void op_begin(struct comm *c, enum comm_op op, struct op_clock *k, const char *file, int line)
{
    k->prev = c->cur;
    c->site = (struct comm_site){ file, line };
    c->cur = op;
    c->stats.calls[op]++;
    k->wall0 = timer_wall();
}

static int op_end(struct comm *c, enum comm_op op, struct op_clock *k, int rc)
{
    c->stats.wall[op] += timer_wall() - k->wall0;
    c->cur = k->prev;
    return rc;
}

static int check_peer(const struct comm *c, int peer, const char *what)
{
    if (peer < 0 || peer >= c->size) {
        fprintf(stderr, "labrun: error: %s: rank %d out of range 0..%d\n", what, peer, c->size - 1);
        return -1;
    }
    return 0;
}

int comm_send_at(struct comm *c, const void *buf, size_t bytes, int dst, int tag, const char *file, int line)
{
    if (check_peer(c, dst, "send") < 0)
        return -1;
    struct op_clock k;
    op_begin(c, COMM_SEND, &k, file, line);
    return op_end(c, COMM_SEND, &k, c->ops->send(c, buf, bytes, dst, tag));
}

int comm_recv_at(struct comm *c, void *buf, size_t bytes, int src, int tag, const char *file, int line)
{
    if (check_peer(c, src, "recv") < 0)
        return -1;
    struct op_clock k;
    op_begin(c, COMM_RECV, &k, file, line);
    return op_end(c, COMM_RECV, &k, c->ops->recv(c, buf, bytes, src, tag));
}

int comm_barrier_at(struct comm *c, const char *file, int line)
{
    struct op_clock k;
    op_begin(c, COMM_BARRIER, &k, file, line);
    return op_end(c, COMM_BARRIER, &k, c->ops->barrier(c));
}

int comm_allreduce_at(struct comm *c, void *buf, size_t count, enum dtype t, const char *file, int line)
{
    struct op_clock k;
    op_begin(c, COMM_ALLREDUCE, &k, file, line);
    return op_end(c, COMM_ALLREDUCE, &k, c->ops->allreduce(c, buf, count, t));
}

int comm_allgatherv_at(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts, enum dtype t,
                       const char *file, int line)
{
    struct op_clock k;
    op_begin(c, COMM_ALLGATHER, &k, file, line);
    return op_end(c, COMM_ALLGATHER, &k, c->ops->allgatherv(c, sbuf, rbuf, counts, t));
}

int comm_reducescatterv_at(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                           enum dtype t, const char *file, int line)
{
    struct op_clock k;
    op_begin(c, COMM_REDUCESCATTER, &k, file, line);
    return op_end(c, COMM_REDUCESCATTER, &k, c->ops->reducescatterv(c, sbuf, rbuf, counts, t));
}

/* Equal blocks: the v-form with every count the same. */
static size_t *equal_counts(int size, size_t count)
{
    size_t *counts = xmalloc((size_t)size * sizeof *counts);
    for (int r = 0; r < size; r++)
        counts[r] = count;
    return counts;
}

int comm_allgather_at(struct comm *c, const void *sbuf, void *rbuf, size_t count, enum dtype t,
                      const char *file, int line)
{
    size_t *counts = equal_counts(c->size, count);
    int rc = comm_allgatherv_at(c, sbuf, rbuf, counts, t, file, line);
    free(counts);
    return rc;
}

int comm_reducescatter_at(struct comm *c, const void *sbuf, void *rbuf, size_t count, enum dtype t,
                          const char *file, int line)
{
    size_t *counts = equal_counts(c->size, count);
    int rc = comm_reducescatterv_at(c, sbuf, rbuf, counts, t, file, line);
    free(counts);
    return rc;
}

int comm_broadcast_at(struct comm *c, void *buf, size_t count, enum dtype t, int root,
                      const char *file, int line)
{
    if (check_peer(c, root, "broadcast") < 0)
        return -1;
    struct op_clock k;
    op_begin(c, COMM_BROADCAST, &k, file, line);
    return op_end(c, COMM_BROADCAST, &k, c->ops->broadcast(c, buf, count, t, root));
}
