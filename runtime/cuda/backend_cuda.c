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
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "backend.h"
#include "backend_cuda.h"
#include "backend_threads.h"
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

/* On each rank's thread: the current device is per host thread. */
static void cuda_enter(struct dev *dev)
{
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(dev)));
}

static void shared_abort(void *world)
{
    comm_shared_abort(world);
}

static int cuda_launch(int nranks, backend_body body, void *arg)
{
    char why[256];
    int ngpu = cuda_gpu_count(why, sizeof why);
    if (ngpu == 0) {
        fprintf(stderr, "labrun: error: backend cuda: %s\n", why);
        return -1;
    }
    struct comm **comms = xcalloc((size_t)nranks, sizeof *comms);
    struct dev **devs = xcalloc((size_t)nranks, sizeof *devs);
    struct comm_shared_world *shared = NULL;
#ifdef HAVE_NCCL
    bool use_nccl = nranks <= ngpu;
#else
    bool use_nccl = false;
#endif
    for (int r = 0; r < nranks && r < ngpu; r++)
        cuda_spin_wait(r);
    for (int r = 0; r < nranks; r++) {
        devs[r] = dev_cuda_new(r, use_nccl ? r : 0);
        devs[r]->sharers = use_nccl ? 1 : nranks;
    }
    if (use_nccl) {
#ifdef HAVE_NCCL
        ncclComm_t *nc[COMM_NCCL_COMMS];
        int *gpus = xcalloc((size_t)nranks, sizeof *gpus);
        for (int r = 0; r < nranks; r++)
            gpus[r] = r;
        for (int j = 0; j < COMM_NCCL_COMMS; j++) {
            nc[j] = xcalloc((size_t)nranks, sizeof *nc[j]);
            NCCL_CHECK(ncclCommInitAll(nc[j], nranks, gpus));
        }
        for (int r = 0; r < nranks; r++) {
            ncclComm_t mine[COMM_NCCL_COMMS];
            for (int j = 0; j < COMM_NCCL_COMMS; j++)
                mine[j] = nc[j][r];
            comms[r] = comm_nccl_rank(mine, r, nranks, devs[r]);
        }
        for (int j = 0; j < COMM_NCCL_COMMS; j++)
            free(nc[j]);
        free(gpus);
        snprintf(placement, sizeof placement,
                 "%d rank%s on %d GPU%s, one GPU each; communication through NCCL (bytes shown are "
                 "what a ring moves: NCCL picks its own algorithm)",
                 nranks, nranks == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s");
#endif
    } else {
        shared = comm_shared_world_new(nranks, &comm_shared_cuda_hooks);
        for (int r = 0; r < nranks; r++)
            comms[r] = comm_shared_rank(shared, r, devs[r]);
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
    /* Only cuda-shared ranks wait in mailboxes that a failed rank can wake. */
    struct rank_threads how = { .body = body, .arg = arg, .enter = cuda_enter,
                                .abort = shared ? shared_abort : NULL, .world = shared };
    int rc = rank_threads_run(&how, nranks, comms, devs);
    comm_shared_world_free(shared);
    free(devs);
    free(comms);
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
