/*
 * backend_cuda.c — `--backend cuda`: ranks are threads of this process, each
 * with its memory on a GPU.
 *
 * With a GPU per rank (and NCCL in the build) rank r runs on GPU r and the
 * ranks talk through NCCL (an NCCL world, nccl_world.h, made for all of them
 * at once).  When one of them fails, by its lab's error or by a failed check
 * macro on its thread, every NCCL communicator is aborted, so the other
 * ranks' waits return instead of hanging.  When ranks
 * outnumber GPUs they all share GPU 0, each as its own stream with its own
 * allocations, and talk through device-to-device copies (cuda-shared).
 * The rule and the report's placement line are place.c's.
 */
#include <pthread.h>
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

#ifdef HAVE_NCCL
/* The NCCL world of the launch in progress (NULL: none), and whether this thread is one of its ranks. */
static struct nccl_world *nccl_launch;
static _Thread_local bool nccl_rank_thread;

static void nccl_abort(void *world)
{
    nccl_world_abort(world);
}

/*
 * A check macro failed.  On a rank's thread of an NCCL launch: fail that rank
 * alone (abort NCCL so that no rank waits for it, end its thread; the launch
 * returns -1).  Elsewhere return, and the process exits.
 */
static void nccl_rank_failed(void)
{
    if (!nccl_launch || !nccl_rank_thread)
        return;
    nccl_world_fail_here(nccl_launch);
    fflush(stderr);
    pthread_exit(NULL);
}
#endif

/* On each rank's thread: the current device is per host thread. */
static void cuda_enter(struct dev *dev)
{
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(dev)));
#ifdef HAVE_NCCL
    nccl_rank_thread = nccl_launch != NULL;
#endif
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
    for (int r = 0; r < nranks; r++) {
        devs[r] = dev_cuda_new(r, place_cuda_gpu(r, use_nccl));
        devs[r]->sharers = use_nccl ? 1 : nranks;
    }
    if (use_nccl) {
#ifdef HAVE_NCCL
        int *gpus = xcalloc((size_t)nranks, sizeof *gpus);
        for (int r = 0; r < nranks; r++)
            gpus[r] = r;
        nccl_launch = nccl_world_new(nranks, gpus);
        if (nccl_world_init_all(nccl_launch) < 0) {
            for (int r = 0; r < nranks; r++)
                dev_free_device(devs[r]);
            nccl_world_free(nccl_launch);
            nccl_launch = NULL;
            free(gpus);
            free(devs);
            free(comms);
            return -1;
        }
        /* Every rank posts its connecting exchange before any waits for it. */
        for (int r = 0; r < nranks; r++)
            comms[r] = comm_nccl_rank(&nccl_launch->links[r], r, nranks, devs[r], gpus, nranks);
        free(gpus);
#endif
    } else {
        shared = comm_shared_world_new(nranks, &comm_shared_cuda_hooks);
        for (int r = 0; r < nranks; r++)
            comms[r] = comm_shared_rank(shared, r, devs[r]);
    }
    /* A failed rank wakes the others: cuda-shared's mailboxes, or an NCCL abort. */
    struct rank_threads how = { .body = body, .arg = arg, .enter = cuda_enter,
                                .abort = shared ? shared_abort : NULL, .world = shared };
#ifdef HAVE_NCCL
    callcheck_hook was = NULL;
    if (nccl_launch) {
        how.abort = nccl_abort;
        how.world = nccl_launch;
        was = callcheck_set_fail_hook(nccl_rank_failed);
    }
#endif
    int rc = rank_threads_run(&how, nranks, comms, devs);
#ifdef HAVE_NCCL
    if (nccl_launch) {
        (void)callcheck_set_fail_hook(was);
        /* A rank that failed in a check macro ended its thread without returning -1. */
        if (nccl_world_failed(nccl_launch))
            rc = -1;
        nccl_world_free(nccl_launch);
        nccl_launch = NULL;
    }
#endif
    comm_shared_world_free(shared);
    free(devs);
    free(comms);
    return rc;
}

/* The GPUs, the driver and NCCL, for a recorded run: what the placement line names, and versions. */
static void cuda_machine(struct backend_machine *m)
{
    int n = 0, drv = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        n = 0;
    m->gpus = n;
    struct cudaDeviceProp prop;
    if (n > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
        snprintf(m->gpu, sizeof m->gpu, "%.127s", prop.name);
    if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0)
        snprintf(m->driver, sizeof m->driver, "%d.%d", drv / 1000, drv % 1000 / 10);
#ifdef HAVE_NCCL
    int v = 0;
    if (ncclGetVersion(&v) == ncclSuccess && v > 0)
        snprintf(m->nccl, sizeof m->nccl, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
#endif
}

const struct backend backend_cuda = {
    .name = "cuda",
    .summary = "ranks on GPUs: cudaMalloc, cuBLAS, NCCL (ranks beyond the GPU count share one GPU)",
    .absent = NULL,
    .available = cuda_available,
    .launch = cuda_launch,
    .is_root = NULL,
    .placement = backend_cuda_placement,
    .machine = cuda_machine,
};
