/*
 * backend_cuda.c — `--backend cuda`: ranks are threads of this process, each
 * with its memory on a GPU.
 *
 * With a GPU per rank (and NCCL in the build) rank r runs on GPU r and the
 * ranks talk through NCCL (one ncclCommInitAll for all of them).  When ranks
 * outnumber GPUs they all share GPU 0, each as its own stream with its own
 * allocations, and talk through device-to-device copies (cuda-shared);
 * backend_cuda_placement() says which, for the report.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "backend.h"
#include "backend_cuda.h"
#include "callcheck.h"
#include "comm_cuda.h"
#include "dev_cuda.h"
#include "util.h"

/* How the last launch placed its ranks (one line for the report). */
static char placement[320];

const char *backend_cuda_placement(void)
{
    return placement;
}

static int cuda_available(char *why, size_t n)
{
    return cuda_gpu_count(why, n) > 0 ? 0 : -1;
}

struct rank_thread {
    pthread_t th;
    int rank, nranks, gpu;
    struct comm *comm;
    struct dev *dev;
    struct comm_shared_world *shared;   /* NULL with NCCL */
    backend_body body;
    void *arg;
    int rc;
};

static void *rank_main(void *p)
{
    struct rank_thread *t = p;
    /* The current device is per host thread. */
    CUDA_CHECK(cudaSetDevice(t->gpu));
    t->rc = t->body(t->rank, t->nranks, t->comm, t->dev, t->arg);
    if (t->rc != 0 && t->shared)
        comm_shared_abort(t->shared);
    return NULL;
}

static int cuda_launch(int nranks, backend_body body, void *arg)
{
    char why[256];
    int ngpu = cuda_gpu_count(why, sizeof why);
    if (ngpu == 0) {
        fprintf(stderr, "labrun: error: backend cuda: %s\n", why);
        return -1;
    }
    struct rank_thread *ts = xcalloc((size_t)nranks, sizeof *ts);
    struct comm_shared_world *shared = NULL;
#ifdef HAVE_NCCL
    bool use_nccl = nranks <= ngpu;
#else
    bool use_nccl = false;
#endif
    for (int r = 0; r < nranks; r++) {
        ts[r].gpu = use_nccl ? r : 0;
        if (r < ngpu)
            cuda_spin_wait(r);
    }
    for (int r = 0; r < nranks; r++)
        ts[r].dev = dev_cuda_new(r, ts[r].gpu);
    if (use_nccl) {
#ifdef HAVE_NCCL
        ncclComm_t *nc[COMM_NCCL_COMMS];
        int *devs = xcalloc((size_t)nranks, sizeof *devs);
        for (int r = 0; r < nranks; r++)
            devs[r] = r;
        for (int j = 0; j < COMM_NCCL_COMMS; j++) {
            nc[j] = xcalloc((size_t)nranks, sizeof *nc[j]);
            NCCL_CHECK(ncclCommInitAll(nc[j], nranks, devs));
        }
        for (int r = 0; r < nranks; r++) {
            ncclComm_t mine[COMM_NCCL_COMMS];
            for (int j = 0; j < COMM_NCCL_COMMS; j++)
                mine[j] = nc[j][r];
            ts[r].comm = comm_nccl_rank(mine, r, nranks, ts[r].dev);
        }
        for (int j = 0; j < COMM_NCCL_COMMS; j++)
            free(nc[j]);
        free(devs);
        snprintf(placement, sizeof placement,
                 "%d rank%s on %d GPU%s, one GPU each; communication through NCCL (bytes shown are "
                 "what a ring moves: NCCL picks its own algorithm)",
                 nranks, nranks == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s");
#endif
    } else {
        shared = comm_shared_world_new(nranks);
        for (int r = 0; r < nranks; r++)
            ts[r].comm = comm_shared_rank(shared, r, ts[r].dev);
        snprintf(placement, sizeof placement,
                 "%d ranks share GPU 0 (%d GPU%s here%s): each rank is a CUDA stream with its own "
                 "memory; messages are device-to-device copies ordered by events, not NCCL, "
                 "and ranks contend for the one GPU",
                 nranks, ngpu, ngpu == 1 ? "" : "s",
#ifdef HAVE_NCCL
                 ""
#else
                 ", built without NCCL"
#endif
                 );
    }
    int started = 0, rc = 0;
    for (int r = 0; r < nranks; r++) {
        ts[r].rank = r;
        ts[r].nranks = nranks;
        ts[r].body = body;
        ts[r].arg = arg;
        ts[r].shared = shared;
    }
    for (; started < nranks; started++) {
        int e = pthread_create(&ts[started].th, NULL, rank_main, &ts[started]);
        if (e != 0) {
            fprintf(stderr, "labrun: error: cannot start rank %d: %s\n", started, strerror(e));
            rc = -1;
            if (shared)
                comm_shared_abort(shared);
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
    comm_shared_world_free(shared);
    free(ts);
    return rc;
}

const struct backend backend_cuda = {
    .name = "cuda",
    .summary = "ranks on GPUs: cudaMalloc, cuBLAS, NCCL (ranks beyond the GPU count share one GPU)",
    .absent = NULL,
    .available = cuda_available,
    .launch = cuda_launch,
    .is_root = NULL,
};
