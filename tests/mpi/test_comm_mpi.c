/*
 * test_comm_mpi.c — the mpi communicator, run under mpirun (tests/mpi/run.sh).
 *
 * Every rank runs each collective and a ring of send/recv through MPI, and
 * the same calls on the threads backend (a threads world of the same size
 * inside this process, whose rank equal to ours is compared).  Both results
 * must equal a serial reference exactly (the inputs are small integers, so
 * every summation order gives the same sum), and both backends must count
 * the same bytes.  Sizes 0, 1, a count below the rank count and counts the
 * rank count does not divide; fp32 and fp64.  Rank 0 prints
 * "mpi: N passed, N failed"; the exit status is 1 when a case failed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "callcheck.h"
#include "comm_mpi.h"
#include "util.h"

enum op { OP_ALLREDUCE, OP_ALLGATHERV, OP_REDUCESCATTERV, OP_BROADCAST, OP_RING, OP_BARRIER, NOPS };
static const char *const op_names[NOPS] = { "allreduce", "allgatherv", "reducescatterv",
                                            "broadcast", "send/recv ring", "barrier" };

/* Input element i of rank r: small integers, exact in fp32 sums. */
static double input(int r, size_t i) { return (double)(r * 100 + (int)(i % 89)); }

/* Run one case on c; the result (elements) goes to a new *out, its length to *outn. */
static int run_case(struct comm *c, enum op op, enum dtype t, size_t n, void **out, size_t *outn)
{
    int r = c->rank, size = c->size;
    size_t es = dtype_size(t);
    size_t *counts = xmalloc((size_t)size * sizeof *counts);
    for (int k = 0; k < size; k++)
        counts[k] = comm_share(n, size, k);
    int rc = 0;
    void *buf = NULL;
    size_t len = 0;
    switch (op) {
    case OP_ALLREDUCE:
    case OP_BROADCAST:
        len = n;
        buf = xmalloc(len * es + 1);
        for (size_t i = 0; i < len; i++)
            dtype_set(t, buf, i, input(r, i));
        rc = op == OP_ALLREDUCE ? comm_allreduce(c, buf, n, t)
                                : comm_broadcast(c, buf, n, t, size - 1);
        break;
    case OP_ALLGATHERV: {
        void *mine = xmalloc(counts[r] * es + 1);
        for (size_t i = 0; i < counts[r]; i++)
            dtype_set(t, mine, i, input(r, i));
        len = n;
        buf = xmalloc(len * es + 1);
        rc = comm_allgatherv(c, mine, buf, counts, t);
        free(mine);
        break;
    }
    case OP_REDUCESCATTERV: {
        void *all = xmalloc(n * es + 1);
        for (size_t i = 0; i < n; i++)
            dtype_set(t, all, i, input(r, i));
        len = counts[r];
        buf = xmalloc(len * es + 1);
        rc = comm_reducescatterv(c, all, buf, counts, t);
        free(all);
        break;
    }
    case OP_RING: {
        /* Everyone sends to the right first, then receives from the left: the sends must not wait. */
        void *s = xmalloc(n * es + 1);
        for (size_t i = 0; i < n; i++)
            dtype_set(t, s, i, input(r, i));
        len = n;
        buf = xmalloc(len * es + 1);
        if (size > 1) {
            rc = comm_send(c, s, n * es, (r + 1) % size, 7);
            if (rc == 0)
                rc = comm_recv(c, buf, n * es, (r + size - 1) % size, 7);
        } else {
            memcpy(buf, s, n * es);
        }
        free(s);
        break;
    }
    case OP_BARRIER:
        buf = xmalloc(1);
        rc = comm_barrier(c);
        break;
    case NOPS:
        break;
    }
    free(counts);
    *out = buf;
    *outn = len;
    return rc;
}

/* The serial reference: what rank r must hold after the case. */
static double expected(enum op op, int r, int size, size_t n, size_t i)
{
    switch (op) {
    case OP_ALLREDUCE: {
        double s = 0;
        for (int k = 0; k < size; k++)
            s += input(k, i);
        return s;
    }
    case OP_BROADCAST:
        return input(size - 1, i);
    case OP_ALLGATHERV: {
        int owner = 0;
        while (i >= comm_share_offset(n, size, owner) + comm_share(n, size, owner))
            owner++;
        return input(owner, i - comm_share_offset(n, size, owner));
    }
    case OP_REDUCESCATTERV: {
        double s = 0;
        for (int k = 0; k < size; k++)
            s += input(k, comm_share_offset(n, size, r) + i);
        return s;
    }
    case OP_RING:
        return input((r + size - 1) % size, i);
    default:
        return 0;
    }
}

struct thread_case {
    struct comm *comm;
    enum op op;
    enum dtype t;
    size_t n;
    void *out;
    size_t outn;
    int rc;
};

static void *thread_main(void *p)
{
    struct thread_case *k = p;
    k->rc = run_case(k->comm, k->op, k->t, k->n, &k->out, &k->outn);
    return NULL;
}

static int failures;

static void fail(int rank, const char *what, enum op op, enum dtype t, size_t n, const char *fmt,
                 long long a, long long b)
{
    fprintf(stderr, "rank %d: FAIL %s %s %s n=%zu: ", rank, what, op_names[op], dtype_name(t), n);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    failures++;
}

/* One case on both backends; returns whether it passed on this rank. */
static int check_case(struct comm *mpi, enum op op, enum dtype t, size_t n)
{
    int r = mpi->rank, size = mpi->size, before = failures;
    comm_stats_reset(mpi);
    void *got;
    size_t gotn;
    if (run_case(mpi, op, t, n, &got, &gotn) != 0)
        fail(r, "mpi call", op, t, n, "returned %lld%lld", -1, 0);

    struct comm_threads_world *w = comm_threads_world_new(size);
    struct thread_case *ks = xcalloc((size_t)size, sizeof *ks);
    pthread_t *th = xcalloc((size_t)size, sizeof *th);
    for (int k = 0; k < size; k++) {
        ks[k] = (struct thread_case){ .comm = comm_threads_rank(w, k), .op = op, .t = t, .n = n };
        pthread_create(&th[k], NULL, thread_main, &ks[k]);
    }
    for (int k = 0; k < size; k++)
        pthread_join(th[k], NULL);
    struct thread_case *mine = &ks[r];
    if (mine->rc != 0)
        fail(r, "threads call", op, t, n, "returned %lld%lld", -1, 0);
    if (mine->outn != gotn)
        fail(r, "length", op, t, n, "mpi %lld, threads %lld", (long long)gotn, (long long)mine->outn);
    for (size_t i = 0; i < gotn && i < mine->outn; i++) {
        double e = expected(op, r, size, n, i);
        double a = dtype_get(t, got, i), b = dtype_get(t, mine->out, i);
        if (a != e || b != e) {
            fail(r, "value", op, t, n, "element %lld differs from the serial reference (%lld)",
                 (long long)i, (long long)e);
            break;
        }
    }
    const struct comm_stats *sm = &mpi->stats, *st = &mine->comm->stats;
    for (int o = 0; o < COMM_NOPS; o++)
        if (sm->sent[o] != st->sent[o] || sm->recvd[o] != st->recvd[o]) {
            fail(r, comm_op_name((enum comm_op)o), op, t, n,
                 "bytes sent by mpi %lld, by threads %lld",
                 (long long)sm->sent[o], (long long)st->sent[o]);
            break;
        }
    for (int k = 0; k < size; k++) {
        free(ks[k].out);
        comm_free(ks[k].comm);
    }
    free(ks);
    free(th);
    comm_threads_world_free(w);
    free(got);
    return failures == before;
}

int main(void)
{
    mpi_up();
    struct comm *c = comm_mpi_world();
    int size = c->size;
    /* Sizes: empty, one element, fewer than the ranks, not divisible, several chunks. */
    size_t sizes[] = { 0, 1, (size_t)(size > 1 ? size - 1 : 1), 1001, 300007 };
    enum dtype types[] = { DTYPE_F32, DTYPE_F64 };
    int passed = 0, failed = 0;
    for (int op = 0; op < NOPS; op++)
        for (size_t ti = 0; ti < 2; ti++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                int ok = check_case(c, (enum op)op, types[ti], sizes[si]) ? 1 : 0, all = 0;
                MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
                if (all)
                    passed++;
                else
                    failed++;
            }
    comm_free(c);
    if (mpi_world_rank() == 0)
        printf("mpi: %d passed, %d failed (%d ranks, each case against the threads backend "
               "and a serial reference)\n", passed, failed, size);
    return failed ? 1 : 0;
}
