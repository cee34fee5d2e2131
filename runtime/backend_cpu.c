/*
 * backend_cpu.c — the cpu backend: one thread per rank, each with its own
 * threads-communicator handle and its own cpu device.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "util.h"

struct rank_thread {
    pthread_t th;
    struct comm_threads_world *world;
    int rank, nranks;
    struct comm *comm;
    struct dev *dev;
    backend_body body;
    void *arg;
    int rc;
};

static void *rank_main(void *p)
{
    struct rank_thread *t = p;
    t->rc = t->body(t->rank, t->nranks, t->comm, t->dev, t->arg);
    /* Ranks waiting for this one would wait forever. */
    if (t->rc != 0)
        comm_threads_abort(t->world);
    return NULL;
}

static int cpu_launch(int nranks, backend_body body, void *arg)
{
    /*
     * One OpenBLAS thread per GEMM: each rank is a thread already, and a GEMM
     * that stays on its rank's thread has its whole cost in that thread's CPU
     * time, which the labs measure.
     */
    dev_cpu_set_blas_threads(1);
    struct comm_threads_world *w = comm_threads_world_new(nranks);
    struct rank_thread *ts = xcalloc((size_t)nranks, sizeof *ts);
    for (int r = 0; r < nranks; r++) {
        ts[r] = (struct rank_thread){ .rank = r, .nranks = nranks, .body = body, .arg = arg,
                                      .comm = comm_threads_rank(w, r), .dev = dev_cpu_new(r),
                                      .world = w };
    }
    int started = 0, rc = 0;
    for (; started < nranks; started++) {
        int e = pthread_create(&ts[started].th, NULL, rank_main, &ts[started]);
        if (e != 0) {
            fprintf(stderr, "labrun: error: cannot start rank %d: %s\n", started, strerror(e));
            rc = -1;
            comm_threads_abort(w);
            break;
        }
    }
    for (int r = 0; r < started; r++) {
        pthread_join(ts[r].th, NULL);
        if (ts[r].rc != 0)
            rc = -1;
    }
    for (int r = 0; r < nranks; r++) {
        comm_free(ts[r].comm);
        dev_free_device(ts[r].dev);
    }
    free(ts);
    comm_threads_world_free(w);
    return rc;
}

const struct backend backend_cpu = {
    .name = "cpu",
    .summary = "ranks are threads of this process; host memory; GEMM by OpenBLAS",
    .absent = NULL,
    .available = NULL,
    .launch = cpu_launch,
    .is_root = NULL,
};
