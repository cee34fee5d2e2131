/*
 * comm_mpi.c — the "mpi" communicator (comm_mpi.h): point-to-point and
 * collectives of host memory through MPI.
 *
 * Tags: MPI tags are non-negative, so a lab's tag t travels as t + 1 and the
 * runtime's COMM_TAG_INTERNAL (-1) as 0.  Counts above INT_MAX elements are
 * refused rather than split: no lab moves that much in one call.
 *
 * A send never waits for its receiver, as in the threads backend: it copies
 * the payload and starts an MPI_Isend of the copy (MPI_Send may wait for the
 * matching receive once a message passes the eager limit, and labs written
 * against the threads backend send to the next stage before receiving).
 * Finished sends are reaped at every later call and all of them at the end.
 *
 * Bytes are counted as coll.c's ring would move them (ringcount.h): the MPI
 * library picks its own algorithm, whose traffic is not visible from here.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "callcheck.h"
#include "comm_mpi.h"
#include "ringcount.h"
#include "util.h"


/* callcheck's fail hook under MPI: the other ranks may be waiting for this one. */
static void abort_job(void)
{
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    /* MPI_Abort does not return; if it did, exit's MPI_Finalize would wait for the others. */
    _exit(1);
}

static void finalize_at_exit(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void mpi_up(void)
{
    int up = 0;
    MPI_Initialized(&up);
    if (up)
        return;
    int provided = 0;
    MPI_CHECK(MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided));
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    (void)callcheck_set_fail_hook(abort_job);
    atexit(finalize_at_exit);
}

int mpi_world_rank(void)
{
    int r = 0;
    mpi_up();
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &r));
    return r;
}

int mpi_world_size(void)
{
    int n = 0;
    mpi_up();
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    return n;
}

/* A send in flight: its request and the copy it reads. */
struct pending {
    MPI_Request req;
    void *copy;
};

/* A rank's handle state. */
struct mpi_rank {
    MPI_Comm comm;              /* duplicate of MPI_COMM_WORLD */
    struct pending *sends;      /* in flight, unordered */
    size_t nsends, capsends;
};

static struct mpi_rank *mr(const struct comm *c) { return c->impl; }
static MPI_Comm mc(const struct comm *c) { return mr(c)->comm; }

/* Free the copies of sends that have completed (all of them, waiting, when wait is set). */
static void reap(struct mpi_rank *k, bool wait)
{
    size_t j = 0;
    for (size_t i = 0; i < k->nsends; i++) {
        int done = 0;
        if (wait) {
            MPI_CHECK(MPI_Wait(&k->sends[i].req, MPI_STATUS_IGNORE));
            done = 1;
        } else {
            MPI_CHECK(MPI_Test(&k->sends[i].req, &done, MPI_STATUS_IGNORE));
        }
        if (done)
            free(k->sends[i].copy);
        else
            k->sends[j++] = k->sends[i];
    }
    k->nsends = j;
}

static MPI_Datatype mpi_type(enum dtype t) { return t == DTYPE_F64 ? MPI_DOUBLE : MPI_FLOAT; }

static int fits(size_t n, const char *what)
{
    if (n > INT_MAX) {
        fprintf(stderr, "labrun: error: mpi: %s of %zu elements is more than one MPI call takes\n",
                what, n);
        return 0;
    }
    return 1;
}

static int mpi_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct mpi_rank *k = mr(c);
    if (!fits(bytes, "send"))
        return -1;
    reap(k, false);
    if (k->nsends == k->capsends) {
        k->capsends = k->capsends ? 2 * k->capsends : 8;
        k->sends = xrealloc(k->sends, k->capsends * sizeof *k->sends);
    }
    struct pending *p = &k->sends[k->nsends++];
    p->copy = xmalloc(bytes + 1);
    if (bytes)
        memcpy(p->copy, buf, bytes);
    MPI_CHECK(MPI_Isend(p->copy, (int)bytes, MPI_BYTE, dst, tag + 1, k->comm, &p->req));
    comm_count(c, bytes, 0);
    return 0;
}

static int got_bytes(struct comm *c, MPI_Status *st, size_t want, int src, int tag)
{
    int n = 0;
    MPI_CHECK(MPI_Get_count(st, MPI_BYTE, &n));
    comm_count(c, 0, (uint64_t)n);
    if ((size_t)n != want) {
        fprintf(stderr, "labrun: error: rank %d expected %zu bytes from rank %d (tag %d), got %d\n",
                c->rank, want, src, tag, n);
        return -1;
    }
    return 0;
}

static int mpi_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    MPI_Status st;
    if (!fits(bytes, "recv"))
        return -1;
    reap(mr(c), false);
    MPI_CHECK(MPI_Recv(buf, (int)bytes, MPI_BYTE, src, tag + 1, mc(c), &st));
    return got_bytes(c, &st, bytes, src, tag);
}

static int mpi_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                        void *rbuf, size_t rbytes, int src, int tag)
{
    MPI_Status st;
    if (!fits(sbytes, "send") || !fits(rbytes, "recv"))
        return -1;
    MPI_CHECK(MPI_Sendrecv(sbuf, (int)sbytes, MPI_BYTE, dst, tag + 1,
                           rbuf, (int)rbytes, MPI_BYTE, src, tag + 1, mc(c), &st));
    comm_count(c, sbytes, 0);
    return got_bytes(c, &st, rbytes, src, tag);
}

static int mpi_barrier(struct comm *c)
{
    MPI_CHECK(MPI_Barrier(mc(c)));
    return 0;
}

static int mpi_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    if (count == 0 || c->size == 1)
        return 0;
    if (!fits(count, "all-reduce"))
        return -1;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, mpi_type(t), MPI_SUM, mc(c)));
    uint64_t sent, recvd;
    ringcount_allreduce(count, c->size, c->rank, dtype_size(t), &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

/* MPI's int counts and displacements for the v-collectives; NULL when one does not fit. */
static int *int_counts(const size_t *counts, int n, int **displs)
{
    int *ic = xmalloc((size_t)n * sizeof *ic), *id = xmalloc((size_t)n * sizeof *id);
    size_t off = 0;
    for (int r = 0; r < n; r++) {
        if (!fits(counts[r], "block") || !fits(off, "offset")) {
            free(ic);
            free(id);
            return NULL;
        }
        ic[r] = (int)counts[r];
        id[r] = (int)off;
        off += counts[r];
    }
    *displs = id;
    return ic;
}

static int mpi_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                          enum dtype t)
{
    int *displs, *ic = int_counts(counts, c->size, &displs);
    if (!ic)
        return -1;
    char *mine = (char *)rbuf + (size_t)displs[c->rank] * dtype_size(t);
    /* In place when the caller's block already sits where it belongs. */
    const void *src = sbuf == mine ? MPI_IN_PLACE : sbuf;
    MPI_CHECK(MPI_Allgatherv(src, ic[c->rank], mpi_type(t), rbuf, ic, displs, mpi_type(t),
                             mc(c)));
    free(ic);
    free(displs);
    uint64_t sent, recvd;
    ringcount_allgather(counts, c->size, c->rank, dtype_size(t), &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static int mpi_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                              enum dtype t)
{
    int *displs, *ic = int_counts(counts, c->size, &displs);
    if (!ic)
        return -1;
    MPI_CHECK(MPI_Reduce_scatter(sbuf, rbuf, ic, mpi_type(t), MPI_SUM, mc(c)));
    free(ic);
    free(displs);
    uint64_t sent, recvd;
    ringcount_reducescatter(counts, c->size, c->rank, dtype_size(t), &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static int mpi_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    if (count == 0)
        return 0;
    if (!fits(count, "broadcast"))
        return -1;
    MPI_CHECK(MPI_Bcast(buf, (int)count, mpi_type(t), root, mc(c)));
    uint64_t sent, recvd;
    ringcount_broadcast(count * dtype_size(t), c->size, c->rank, root, &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static void mpi_comm_free(struct comm *c)
{
    struct mpi_rank *k = mr(c);
    int done = 0;
    MPI_Finalized(&done);
    if (!done) {
        reap(k, true);
        MPI_CHECK(MPI_Comm_free(&k->comm));
    }
    free(k->sends);
    free(k);
    c->impl = NULL;
}

static const struct comm_ops mpi_ops = {
    .name = "mpi",
    .send = mpi_send,
    .recv = mpi_recv,
    .sendrecv = mpi_sendrecv,
    .barrier = mpi_barrier,
    .allreduce = mpi_allreduce,
    .allgatherv = mpi_allgatherv,
    .reducescatterv = mpi_reducescatterv,
    .broadcast = mpi_broadcast,
    .free = mpi_comm_free,
};

struct comm *comm_mpi_world(void)
{
    mpi_up();
    struct mpi_rank *k = xcalloc(1, sizeof *k);
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &k->comm));
    MPI_CHECK(MPI_Comm_set_errhandler(k->comm, MPI_ERRORS_RETURN));
    int rank, size;
    MPI_CHECK(MPI_Comm_rank(k->comm, &rank));
    MPI_CHECK(MPI_Comm_size(k->comm, &size));
    return comm_new(&mpi_ops, rank, size, k);
}
