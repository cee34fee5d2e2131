/*
 * tsan_threads.c — the threads backend, and the shared communicator with
 * host hooks (comm_shared.h, cuda-shared's logic), driven hard, for
 * ThreadSanitizer.
 *
 * Criterion's sandbox cannot start under ThreadSanitizer (its shared arena
 * collides with TSan's address space), so `make tsan` builds this plain
 * program instead: every collective and tagged send/recv of each
 * communicator for 1..8 ranks, sizes that the rank count does not divide,
 * small ring chunks so messages queue up, each result checked against a serial
 * reference; then a rank that fails while the others wait in a receive (the
 * abort path).  Any race ends the run through TSan (halt_on_error=1); a
 * wrong result is counted and fails it.
 *
 *     tsan_threads      prints "tsan: N passed, N failed"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "comm.h"
#include "shared_ranks.h"
#include "util.h"

/* 5003 doubles is over AR_EAGER_BYTES: the all-reduce's ring, in pieces of one chunk. */
static const size_t sizes[] = { 0, 1, 7, 1001, 5003 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

enum which { ALLREDUCE, ALLGATHER, REDUCESCATTER, BROADCAST, RING, ABORT };
static const char *const which_name[] = { "allreduce", "allgather", "reducescatter", "broadcast",
                                          "send/recv ring", "abort" };

struct job {
    enum which which;
    size_t count;
    int wrong[8];       /* mismatches; each rank writes only its own slot */
};

static double input(int r, size_t i) { return (double)(r * 7 + (int)(i % 11) - 5); }

/* Rank bodies write only their own slot of wrong[]; the launcher joins before reading. */
static int body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct job *j = arg;
    size_t count = j->count;
    c->chunk_bytes = 64;            /* many small messages in flight */
    int wrong = 0, rc = 0;

    switch (j->which) {
    case ALLREDUCE: {
        double *x = xcalloc(count + 1, sizeof *x);
        for (size_t i = 0; i < count; i++)
            x[i] = input(rank, i);
        rc = comm_allreduce(c, x, count, DTYPE_F64);
        for (size_t i = 0; i < count && rc == 0; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, i);
            wrong += x[i] != want;
        }
        free(x);
        break;
    }
    case ALLGATHER: {
        double *s = xcalloc(count + 1, sizeof *s), *g = xcalloc(count * (size_t)n + 1, sizeof *g);
        for (size_t i = 0; i < count; i++)
            s[i] = input(rank, i);
        rc = comm_allgather(c, s, g, count, DTYPE_F64);
        for (int r = 0; r < n && rc == 0; r++)
            for (size_t i = 0; i < count; i++)
                wrong += g[(size_t)r * count + i] != input(r, i);
        free(s);
        free(g);
        break;
    }
    case REDUCESCATTER: {
        double *s = xcalloc(count * (size_t)n + 1, sizeof *s), *o = xcalloc(count + 1, sizeof *o);
        for (size_t i = 0; i < count * (size_t)n; i++)
            s[i] = input(rank, i);
        rc = comm_reducescatter(c, s, o, count, DTYPE_F64);
        for (size_t i = 0; i < count && rc == 0; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, (size_t)rank * count + i);
            wrong += o[i] != want;
        }
        free(s);
        free(o);
        break;
    }
    case BROADCAST: {
        int root = n - 1;
        double *x = xcalloc(count + 1, sizeof *x);
        for (size_t i = 0; i < count; i++)
            x[i] = rank == root ? input(root, i) : -1;
        rc = comm_broadcast(c, x, count, DTYPE_F64, root);
        for (size_t i = 0; i < count && rc == 0; i++)
            wrong += x[i] != input(root, i);
        free(x);
        rc = rc ? rc : comm_barrier(c);
        break;
    }
    case RING: {
        /* Each rank sends to the next, three tags interleaved, and receives from the previous. */
        size_t bytes = count * sizeof(double);
        double *s = xcalloc(count + 1, sizeof *s), *r = xcalloc(count + 1, sizeof *r);
        int next = (rank + 1) % n, prev = (rank + n - 1) % n;
        for (int tag = 0; tag < 3 && rc == 0; tag++) {
            for (size_t i = 0; i < count; i++)
                s[i] = input(rank, i) + tag;
            rc = comm_send(c, s, bytes, next, tag);
        }
        for (int tag = 2; tag >= 0 && rc == 0; tag--) {
            rc = comm_recv(c, r, bytes, prev, tag);
            for (size_t i = 0; i < count && rc == 0; i++)
                wrong += r[i] != input(prev, i) + tag;
        }
        free(s);
        free(r);
        break;
    }
    case ABORT: {
        /* The last rank fails at once; every other rank is waiting on its left neighbour. */
        if (rank == n - 1) {
            j->wrong[rank] = 0;
            return -1;
        }
        double x = 0;
        rc = comm_recv(c, &x, sizeof x, (rank + n - 1) % n, 9);
        j->wrong[rank] = rc == 0;     /* a receive that "succeeded" from a dead rank is wrong */
        return rc;
    }
    }
    (void)d;
    j->wrong[rank] = wrong;
    return rc;
}

/* One run of every job over one communicator; counts into *passed and *failed. */
static void run_all(bool shared, int *passed, int *failed)
{
    for (int w = ALLREDUCE; w <= ABORT; w++) {
        for (int n = 1; n <= 8; n++) {
            for (size_t si = 0; si < NSIZES; si++) {
                if (w == ABORT && (n < 2 || si > 0))
                    continue;
                struct job j = { .which = (enum which)w, .count = sizes[si] };
                int rc = shared ? shared_ranks_run(n, &comm_shared_host_hooks, body, &j)
                                : backend_cpu.launch(n, body, &j);
                int wrong = 0;
                for (int r = 0; r < n; r++)
                    wrong += j.wrong[r];
                bool ok = w == ABORT ? rc != 0 && wrong == 0 : rc == 0 && wrong == 0;
                if (ok) {
                    (*passed)++;
                } else {
                    (*failed)++;
                    printf("FAIL %s %s, %d ranks, %zu elements: launch %d, %d wrong\n",
                           shared ? "shared" : "threads", which_name[w], n, sizes[si], rc, wrong);
                }
            }
        }
    }
}

int main(void)
{
    int passed = 0, failed = 0;
    run_all(false, &passed, &failed);
    run_all(true, &passed, &failed);
    printf("tsan: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
