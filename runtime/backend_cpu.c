/*
 * backend_cpu.c — the cpu backend: one thread per rank, each with its own
 * threads-communicator handle and its own cpu device.  The thread-per-rank
 * launch itself (rank_threads_run, backend_threads.h) is here too, and the
 * cuda backend runs its ranks through it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_threads.h"
#include "util.h"

/* One rank's thread. */
struct rank_thread {
    pthread_t th;
    const struct rank_threads *how;
    int rank, nranks;
    struct comm *comm;
    struct dev *dev;
    int rc;
};

static void *rank_main(void *p)
{
    struct rank_thread *t = p;
    if (t->how->enter)
        t->how->enter(t->dev);
    t->rc = t->how->body(t->rank, t->nranks, t->comm, t->dev, t->how->arg);
    /* Ranks waiting for this one would wait forever. */
    if (t->rc != 0 && t->how->abort)
        t->how->abort(t->how->world);
    return NULL;
}

int rank_threads_run(const struct rank_threads *how, int nranks, struct comm **comms,
                     struct dev **devs)
{
    struct rank_thread *ts = xcalloc((size_t)nranks, sizeof *ts);
    for (int r = 0; r < nranks; r++)
        ts[r] = (struct rank_thread){ .how = how, .rank = r, .nranks = nranks,
                                      .comm = comms[r], .dev = devs[r] };
    int started = 0, rc = 0;
    for (; started < nranks; started++) {
        int e = pthread_create(&ts[started].th, NULL, rank_main, &ts[started]);
        if (e != 0) {
            fprintf(stderr, "labrun: error: cannot start rank %d: %s\n", started, strerror(e));
            rc = -1;
            if (how->abort)
                how->abort(how->world);
            break;
        }
    }
    for (int r = 0; r < started; r++) {
        pthread_join(ts[r].th, NULL);
        if (ts[r].rc != 0)
            rc = -1;
    }
    for (int r = 0; r < nranks; r++) {
        comm_free(comms[r]);
        dev_free_device(devs[r]);
    }
    free(ts);
    return rc;
}

static void threads_abort(void *world)
{
    comm_threads_abort(world);
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
    struct comm **comms = xcalloc((size_t)nranks, sizeof *comms);
    struct dev **devs = xcalloc((size_t)nranks, sizeof *devs);
    for (int r = 0; r < nranks; r++) {
        comms[r] = comm_threads_rank(w, r);
        devs[r] = dev_cpu_new(r);
    }
    struct rank_threads how = { .body = body, .arg = arg, .abort = threads_abort, .world = w };
    int rc = rank_threads_run(&how, nranks, comms, devs);
    free(devs);
    free(comms);
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
