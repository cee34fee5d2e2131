/*
 * backend_cuda.c — `--backend cuda`: ranks are threads of this process, each
 * with its memory on a GPU.
 *
 * With a GPU per rank (and NCCL in the build) rank r runs on GPU r and the
 * ranks talk through NCCL (one ncclCommInitAll for all of them).  When ranks
 * outnumber GPUs they all share GPU 0, each as its own stream with its own
 * allocations, and talk through device-to-device copies (cuda-shared).
 * The rule and the report's placement line are place.c's.
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
#include "place.h"
#include "timer.h"
#include "util.h"

/* How the last launch placed its ranks (one line for the report). */
static char placement[1024];

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
    const bool have_nccl = true;
#else
    const bool have_nccl = false;
#endif
    bool use_nccl = place_cuda_nccl(nranks, ngpu, have_nccl);
    /* The names, for the placement line; properties need no context. */
    char (*names)[256] = xcalloc((size_t)ngpu, sizeof *names);
    const char **name_of = xcalloc((size_t)ngpu, sizeof *name_of);
    for (int g = 0; g < ngpu; g++) {
        struct cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, g));
        snprintf(names[g], sizeof names[g], "%s", prop.name);
        name_of[g] = names[g];
    }
    place_cuda_text(placement, sizeof placement, nranks, ngpu, name_of, have_nccl);
    free(name_of);
    free(names);
    /* Every rank is a thread of this process: spin only while each can have a core. */
    int cores = timer_cores();
    for (int g = 0; g < (use_nccl ? nranks : 1); g++)
        cuda_wait_mode(g, nranks, cores);
    for (int r = 0; r < nranks; r++)
        devs[r] = dev_cuda_new(r, place_cuda_gpu(r, use_nccl));
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
#endif
    } else {
        shared = comm_shared_world_new(nranks);
        for (int r = 0; r < nranks; r++)
            comms[r] = comm_shared_rank(shared, r, devs[r]);
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
    .placement = backend_cuda_placement,
};
