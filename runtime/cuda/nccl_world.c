/*
 * nccl_world.c — making, waiting on and aborting the NCCL communicators of
 * one launch (nccl_world.h).
 *
 * Why non-blocking communicators: with blocking ones a rank's thread may sit
 * inside ncclGroupEnd (connecting to a peer at its first message or
 * collective) or in cudaStreamSynchronize (its kernel waiting for a peer),
 * and NCCL gives another thread no safe way in while it does.  Non-blocking,
 * no NCCL call waits for a peer; NCCL's documented way to wait is a loop over
 * cudaStreamQuery and ncclCommGetAsyncError, and ncclCommAbort (always
 * blocking, and only ever called between a rank's own calls, under its lock)
 * stops the kernels a failed peer would leave waiting forever.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "callcheck.h"
#include "nccl_world.h"
#include "util.h"

/* The link whose lock the calling thread holds, if any (for nccl_world_fail_here). */
static _Thread_local struct nccl_link *held;

struct nccl_world *nccl_world_new(int n, const int *gpus)
{
    struct nccl_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->links = xcalloc((size_t)n, sizeof *w->links);
    for (int i = 0; i < n; i++) {
        w->links[i].gpu = gpus[i];
        w->links[i].world = w;
        pthread_mutex_init(&w->links[i].lock, NULL);
    }
    atomic_init(&w->aborted, 0);
    atomic_init(&w->failed, 0);
    return w;
}

void nccl_world_free(struct nccl_world *w)
{
    if (!w)
        return;
    for (int i = 0; i < w->n; i++) {
        nccl_world_close(&w->links[i]);
        pthread_mutex_destroy(&w->links[i].lock);
    }
    free(w->links);
    free(w);
}

static ncclConfig_t nonblocking(void)
{
    ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
    cfg.blocking = 0;
    return cfg;
}

/* Poll a communicator being made until it is ready; 0, or -1 after printing why. */
static int init_done(ncclComm_t nc, int rank, enum nccl_route j)
{
    ncclResult_t st = ncclInProgress;
    while (st == ncclInProgress) {
        NCCL_CHECK(ncclCommGetAsyncError(nc, &st));
        sched_yield();
    }
    if (st != ncclSuccess) {
        fprintf(stderr, "labrun: error: rank %d: NCCL could not make communicator %s: %s (%s)\n", rank,
                nccl_route_name(j), ncclGetErrorString(st), ncclGetLastError(nc));
        return -1;
    }
    return 0;
}

int nccl_world_init_all(struct nccl_world *w)
{
    int saved = 0;
    CUDA_CHECK(cudaGetDevice(&saved));
    for (int j = 0; j < NCCL_ROUTES; j++) {
        ncclUniqueId id;
        NCCL_CHECK(ncclGetUniqueId(&id));
        /* One thread makes every rank's communicator: in a group, or the first would wait for the others. */
        NCCL_CHECK(ncclGroupStart());
        for (int r = 0; r < w->n; r++) {
            ncclConfig_t cfg = nonblocking();
            CUDA_CHECK(cudaSetDevice(w->links[r].gpu));
            NCCL_CHECK(ncclCommInitRankConfig(&w->links[r].nc[j], w->n, id, r, &cfg));
        }
        NCCL_CHECK(ncclGroupEnd());
        for (int r = 0; r < w->n; r++)
            if (init_done(w->links[r].nc[j], r, (enum nccl_route)j) < 0) {
                /* The others may never finish: abort, since ncclCommDestroy would wait for them. */
                nccl_world_abort(w);
                CUDA_CHECK(cudaSetDevice(saved));
                return -1;
            }
    }
    CUDA_CHECK(cudaSetDevice(saved));
    return 0;
}

int nccl_world_init_rank(struct nccl_world *w, const ncclUniqueId id[NCCL_ROUTES], int rank, int size)
{
    struct nccl_link *l = &w->links[0];
    CUDA_CHECK(cudaSetDevice(l->gpu));
    /* Every rank makes them in the same order, so each init finds all its ranks. */
    for (int j = 0; j < NCCL_ROUTES; j++) {
        ncclConfig_t cfg = nonblocking();
        NCCL_CHECK(ncclCommInitRankConfig(&l->nc[j], size, id[j], rank, &cfg));
        if (init_done(l->nc[j], rank, (enum nccl_route)j) < 0)
            return -1;
    }
    return 0;
}

bool nccl_world_enter(struct nccl_link *l)
{
    pthread_mutex_lock(&l->lock);
    if (atomic_load(&l->world->aborted)) {
        pthread_mutex_unlock(&l->lock);
        return false;
    }
    held = l;
    return true;
}

void nccl_world_leave(struct nccl_link *l)
{
    held = NULL;
    pthread_mutex_unlock(&l->lock);
}

int nccl_world_stopped(const struct comm *c)
{
    fprintf(stderr, "labrun: error: rank %d stops at %s:%d: a rank failed and NCCL was aborted\n",
            c->rank, c->site.file ? c->site.file : "?", c->site.line);
    return -1;
}

/* nc[j]'s state: ncclSuccess, ncclInProgress or its asynchronous error. */
static ncclResult_t state_of(struct nccl_link *l, enum nccl_route j, bool *gone)
{
    ncclResult_t st = ncclSuccess;
    *gone = !nccl_world_enter(l);
    if (*gone)
        return ncclSuccess;
    NCCL_CHECK(ncclCommGetAsyncError(l->nc[j], &st));
    nccl_world_leave(l);
    return st;
}

/* An asynchronous error on nc[j]: say so and abort every rank (they cannot finish either). */
static int async_failed(struct nccl_link *l, enum nccl_route j, ncclResult_t st, const struct comm *c)
{
    fprintf(stderr, "labrun: error: rank %d at %s:%d: NCCL communicator %s failed: %s (%s)\n", c->rank,
            c->site.file ? c->site.file : "?", c->site.line, nccl_route_name(j), ncclGetErrorString(st),
            ncclGetLastError(NULL));
    nccl_world_abort(l->world);
    return -1;
}

int nccl_world_settle(struct nccl_link *l, enum nccl_route j, bool wait, const struct comm *c)
{
    while (l->pending[j]) {
        bool gone;
        ncclResult_t st = state_of(l, j, &gone);
        if (gone)
            return nccl_world_stopped(c);
        if (st == ncclSuccess) {
            l->pending[j] = false;
            break;
        }
        if (st != ncclInProgress)
            return async_failed(l, j, st, c);
        if (!wait)
            return 0;
        sched_yield();
    }
    return atomic_load(&l->world->aborted) ? nccl_world_stopped(c) : 1;
}

int nccl_world_wait(struct nccl_link *l, cudaStream_t s, unsigned routes, const struct comm *c)
{
    for (;;) {
        cudaError_t e = cudaStreamQuery(s);
        if (e == cudaSuccess)
            break;
        if (e != cudaErrorNotReady)
            CUDA_CHECK(e);
        if (atomic_load(&l->world->aborted))
            return nccl_world_stopped(c);
        for (int j = 0; j < NCCL_ROUTES; j++) {
            if (!(routes & (1u << j)))
                continue;
            bool gone;
            ncclResult_t st = state_of(l, (enum nccl_route)j, &gone);
            if (gone)
                return nccl_world_stopped(c);
            if (st != ncclSuccess && st != ncclInProgress)
                return async_failed(l, (enum nccl_route)j, st, c);
        }
        /* Let NCCL's own threads and the other ranks' threads run. */
        sched_yield();
    }
    /* The stream ran to its end, but an aborted operation's data means nothing. */
    return atomic_load(&l->world->aborted) ? nccl_world_stopped(c) : 0;
}

/* ncclCommAbort every communicator of l; the caller holds l's lock (or l is the thread's own). */
static void abort_link(struct nccl_link *l)
{
    int saved = 0;
    /* NCCL sets the device itself; this thread's current device is put back either way. */
    (void)cudaGetDevice(&saved);
    for (int j = 0; j < NCCL_ROUTES; j++) {
        if (!l->nc[j])
            continue;
        ncclResult_t r = ncclCommAbort(l->nc[j]);
        if (r != ncclSuccess)
            callcheck_report("NCCL", "ncclCommAbort(l->nc[j])", __FILE__, __LINE__, ncclGetErrorString(r),
                             ncclGetLastError(NULL));
        l->nc[j] = NULL;
    }
    (void)cudaSetDevice(saved);
}

void nccl_world_abort(struct nccl_world *w)
{
    if (atomic_exchange(&w->aborted, 1))
        return;
    for (int i = 0; i < w->n; i++) {
        struct nccl_link *l = &w->links[i];
        /* A check that failed between enter and leave is on the thread that holds this lock. */
        bool mine = held == l;
        if (!mine)
            pthread_mutex_lock(&l->lock);
        abort_link(l);
        if (!mine)
            pthread_mutex_unlock(&l->lock);
    }
}

bool nccl_world_aborted(const struct nccl_world *w)
{
    return atomic_load(&w->aborted) != 0;
}

void nccl_world_fail_here(struct nccl_world *w)
{
    atomic_store(&w->failed, 1);
    nccl_world_abort(w);
    if (held)
        nccl_world_leave(held);
}

bool nccl_world_failed(const struct nccl_world *w)
{
    return atomic_load(&w->failed) != 0;
}

void nccl_world_close(struct nccl_link *l)
{
    pthread_mutex_lock(&l->lock);
    held = l;
    int saved = 0;
    (void)cudaGetDevice(&saved);
    for (int j = 0; j < NCCL_ROUTES; j++) {
        if (!l->nc[j])
            continue;
        /*
         * Destroy, not finalize: ncclCommFinalize waits for the whole clique,
         * and one thread frees the ranks of a process one after the other.
         * The last rank's ncclCommDestroy frees the clique's resources.
         */
        NCCL_CHECK(ncclCommDestroy(l->nc[j]));
        l->nc[j] = NULL;
    }
    (void)cudaSetDevice(saved);
    nccl_world_leave(l);
}
