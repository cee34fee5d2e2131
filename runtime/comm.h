/*
 * comm.h — communicators: how ranks exchange data.
 *
 * A struct comm is one rank's handle on a group of `size` ranks.  A rank reads
 * another rank's data only through it.  Every backend ("threads", "mpi",
 * "nccl", ...) fills a struct comm_ops; labs call the comm_* wrappers below,
 * which count bytes and time per operation, so a lab is written once.
 *
 * Buffers live where the rank's device puts memory (dev.h): host memory for
 * the cpu device, device memory for cuda.  The generic collectives
 * (comm_generic_*) work on host memory over the backend's point-to-point
 * operations; a backend with native collectives (MPI, NCCL) points its table
 * at those instead.
 *
 * Every rank of a group must call the same collectives in the same order with
 * matching sizes (as in MPI and NCCL).  Functions return 0, or -1 after
 * printing why to stderr.
 */
#ifndef RT_COMM_H
#define RT_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

/* The operations a comm counts separately.  Keep comm_op_name() in sync (tag: comm-ops). */
enum comm_op {
    COMM_SEND,
    COMM_RECV,
    COMM_BARRIER,
    COMM_ALLREDUCE,
    COMM_ALLGATHER,
    COMM_REDUCESCATTER,
    COMM_BROADCAST,
    COMM_NOPS
};

/* "send", "recv", "barrier", "allreduce", "allgather", "reducescatter", "broadcast". */
const char *comm_op_name(enum comm_op op);

/* What one rank did per operation kind (bytes are payload bytes on the wire). */
struct comm_stats {
    uint64_t calls[COMM_NOPS];      /* calls of each wrapper */
    uint64_t sent[COMM_NOPS];       /* bytes this rank sent while doing that operation */
    uint64_t recvd[COMM_NOPS];      /* bytes this rank received while doing it */
    double wall[COMM_NOPS];         /* wall seconds inside the operation */
};

struct comm;

/*
 * A backend's table.  send/recv/sendrecv are required; the collectives may be
 * the comm_generic_* functions.  Tags >= 0 belong to labs; the runtime uses
 * COMM_TAG_INTERNAL for its own traffic.
 */
struct comm_ops {
    const char *name;               /* "threads", "mpi", "nccl" */
    /* Point-to-point.  send may return before the receiver has the data. */
    int (*send)(struct comm *c, const void *buf, size_t bytes, int dst, int tag);
    /* Receive exactly `bytes` from src with tag (messages from one source with one tag arrive in order). */
    int (*recv)(struct comm *c, void *buf, size_t bytes, int src, int tag);
    /* Send to dst and receive from src at once (never deadlocks in a ring). */
    int (*sendrecv)(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                    void *rbuf, size_t rbytes, int src, int tag);
    /*
     * Optional (NULL: sendrecv into scratch, then comm_sum_into).  As
     * sendrecv, but the received elements of type t are added into rbuf
     * instead of copied over it: a reduce-scatter step without the scratch
     * copy, for a backend that can read the sender's data in place.
     */
    int (*sendrecv_add)(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                        void *rbuf, size_t rbytes, int src, int tag, enum dtype t);
    int (*barrier)(struct comm *c);
    /* In place: buf[i] = sum over ranks of buf[i]. */
    int (*allreduce)(struct comm *c, void *buf, size_t count, enum dtype t);
    /*
     * Rank r contributes counts[r] elements (sbuf); rbuf receives every
     * rank's block, rank 0's first, back to back (sum of counts elements).
     */
    int (*allgatherv)(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                      enum dtype t);
    /*
     * sbuf holds sum(counts) elements; rank r receives in rbuf the sum over
     * ranks of the block r (counts[r] elements at offset counts[0]+..+counts[r-1]).
     */
    int (*reducescatterv)(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                          enum dtype t);
    /* root's buf to every rank. */
    int (*broadcast)(struct comm *c, void *buf, size_t count, enum dtype t, int root);
    /* Release the backend state of this rank's handle (impl).  May be NULL. */
    void (*free)(struct comm *c);
};

/* Where in a lab's source a communication call was made (for error messages). */
struct comm_site {
    const char *file;               /* __FILE__ of the call; NULL when unknown */
    int line;
};

/* One rank's handle.  Created by a backend; freed with comm_free. */
struct comm {
    const struct comm_ops *ops;     /* the backend's table; borrowed */
    int rank;                       /* this rank, 0..size-1 */
    int size;                       /* ranks in the group */
    size_t chunk_bytes;             /* ring collectives move at most this much per message (0: no limit) */
    struct comm_stats stats;        /* this rank's counters */
    enum comm_op cur;               /* the operation in progress: where transfers are counted */
    struct comm_site site;          /* the lab's call in progress (set by the comm_* wrappers) */
    void *impl;                     /* backend state; owned by the backend */
};

/* Tag the runtime's own messages use; labs use tags >= 0. */
#define COMM_TAG_INTERNAL (-1)

/* Default chunk for ring collectives (bytes). */
#define COMM_DEFAULT_CHUNK ((size_t)1 << 20)

/* ---- What labs call (count bytes and time, then call the backend) -------- */

/*
 * Each wrapper is a macro over its *_at function, so that the backend knows
 * the lab's call site (c->site) and can name it in an error: a receive that
 * met a send of another size, a rank waiting past --timeout.
 */
int comm_send_at(struct comm *c, const void *buf, size_t bytes, int dst, int tag, const char *file, int line);
int comm_recv_at(struct comm *c, void *buf, size_t bytes, int src, int tag, const char *file, int line);
int comm_barrier_at(struct comm *c, const char *file, int line);
int comm_allreduce_at(struct comm *c, void *buf, size_t count, enum dtype t, const char *file, int line);
int comm_allgatherv_at(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts, enum dtype t,
                       const char *file, int line);
int comm_reducescatterv_at(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                           enum dtype t, const char *file, int line);
int comm_broadcast_at(struct comm *c, void *buf, size_t count, enum dtype t, int root,
                      const char *file, int line);
/* Every rank contributes `count` elements; rbuf gets size*count. */
int comm_allgather_at(struct comm *c, const void *sbuf, void *rbuf, size_t count, enum dtype t,
                      const char *file, int line);
/* sbuf holds size*count elements; rbuf gets the reduced block `rank`. */
int comm_reducescatter_at(struct comm *c, const void *sbuf, void *rbuf, size_t count, enum dtype t,
                          const char *file, int line);

#define comm_send(c, buf, bytes, dst, tag) comm_send_at(c, buf, bytes, dst, tag, __FILE__, __LINE__)
#define comm_recv(c, buf, bytes, src, tag) comm_recv_at(c, buf, bytes, src, tag, __FILE__, __LINE__)
#define comm_barrier(c) comm_barrier_at(c, __FILE__, __LINE__)
#define comm_allreduce(c, buf, count, t) comm_allreduce_at(c, buf, count, t, __FILE__, __LINE__)
#define comm_allgather(c, sbuf, rbuf, count, t) comm_allgather_at(c, sbuf, rbuf, count, t, __FILE__, __LINE__)
#define comm_allgatherv(c, sbuf, rbuf, counts, t) comm_allgatherv_at(c, sbuf, rbuf, counts, t, __FILE__, __LINE__)
#define comm_reducescatter(c, sbuf, rbuf, count, t) \
    comm_reducescatter_at(c, sbuf, rbuf, count, t, __FILE__, __LINE__)
#define comm_reducescatterv(c, sbuf, rbuf, counts, t) \
    comm_reducescatterv_at(c, sbuf, rbuf, counts, t, __FILE__, __LINE__)
#define comm_broadcast(c, buf, count, t, root) comm_broadcast_at(c, buf, count, t, root, __FILE__, __LINE__)

/* Frees the handle (and its backend state through ops->free).  NULL is a no-op. */
void comm_free(struct comm *c);

/* Zero the counters (a lab measures one step after a warm-up). */
void comm_stats_reset(struct comm *c);

/*
 * Split n elements over size ranks as evenly as possible: the first n % size
 * ranks get one more.  counts[r] and the offset of rank r's block.
 */
size_t comm_share(size_t n, int size, int r);
size_t comm_share_offset(size_t n, int size, int r);

/* ---- For backends -------------------------------------------------------- */

/* A new handle for rank of size with ops; impl is the backend's (kept). */
struct comm *comm_new(const struct comm_ops *ops, int rank, int size, void *impl);

/* Count a transfer under the operation in progress (c->cur). */
static inline void comm_count(struct comm *c, uint64_t sent, uint64_t recvd)
{
    c->stats.sent[c->cur] += sent;
    c->stats.recvd[c->cur] += recvd;
}

/* y[0..n) += x[0..n), elements of type t (host memory). */
void comm_sum_into(enum dtype t, void *y, const void *x, size_t n);

/* The same, each sum also stored at z[i]; z is x or shares no byte with x or y. */
void comm_sum_into_copy(enum dtype t, void *y, const void *x, void *z, size_t n);

/*
 * Collectives over c->ops->sendrecv on host memory: ring all-reduce
 * (reduce-scatter then all-gather, each of the size blocks moved in chunks of
 * at most c->chunk_bytes), ring all-gather, ring reduce-scatter, chain
 * broadcast, dissemination barrier.
 */
int comm_generic_barrier(struct comm *c);
int comm_generic_allreduce(struct comm *c, void *buf, size_t count, enum dtype t);
int comm_generic_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                            enum dtype t);
int comm_generic_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                                enum dtype t);
int comm_generic_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root);

/* ---- The threads backend (comm_threads.c) -------------------------------- */

/* The shared mailboxes of n ranks that are threads of this process. */
struct comm_threads_world;
struct comm_threads_world *comm_threads_world_new(int n);
/* Frees the world; every rank's comm must be freed first. */
void comm_threads_world_free(struct comm_threads_world *w);
/* A rank failed: wake every rank waiting in a receive, which then fails too. */
void comm_threads_abort(struct comm_threads_world *w);
/* Rank r's handle (call once per rank, from any thread). */
struct comm *comm_threads_rank(struct comm_threads_world *w, int r);

#endif
