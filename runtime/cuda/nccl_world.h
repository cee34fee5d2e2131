/*
 * nccl_world.h — the NCCL communicators of the ranks of one launch, made,
 * waited on and aborted together (internal to the cuda backend; the "nccl"
 * communicator of comm_nccl.c moves data over them).
 *
 * Each rank has NCCL_ROUTES communicators (nccl_route.h says which message
 * takes which).  They are non-blocking (ncclConfig_t.blocking = 0): no NCCL
 * call waits for another rank, an operation may leave its communicator
 * "in progress" (ncclInProgress) and the caller polls it with
 * nccl_world_settle before the next call on it, and every wait for the GPU is
 * a poll (nccl_world_wait) that also watches for asynchronous errors and for
 * an abort.  So a rank never sits inside NCCL or in cudaStreamSynchronize
 * while a peer it waits for has failed: when any rank fails, nccl_world_abort
 * calls ncclCommAbort on every communicator of every rank of the world (NCCL
 * stops their kernels) and every waiting rank returns -1.
 *
 * NCCL allows one thread at a time on a communicator.  A rank's thread makes
 * its NCCL calls between nccl_world_enter and nccl_world_leave, which hold the
 * rank's lock; nccl_world_abort takes each rank's lock in turn, so it may run
 * on any thread, including one of the ranks' own.
 */
#ifndef RT_CUDA_NCCL_WORLD_H
#define RT_CUDA_NCCL_WORLD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include "comm.h"
#include "nccl_route.h"

/* One rank's communicators and what guards them. */
struct nccl_link {
    ncclComm_t nc[NCCL_ROUTES];     /* owned; all NULL once aborted or destroyed */
    bool pending[NCCL_ROUTES];      /* an operation may have left nc[j] in progress */
    int gpu;                        /* the rank's CUDA device */
    pthread_mutex_t lock;           /* held around every NCCL call on nc */
    struct nccl_world *world;       /* the world the link belongs to; borrowed */
};

/* The ranks of this process that belong to one launch. */
struct nccl_world {
    int n;                          /* links: every rank in one process, this process's rank under MPI */
    struct nccl_link *links;        /* n links; owned */
    atomic_int aborted;             /* a rank failed: the communicators are gone or going */
    atomic_int failed;              /* a rank failed inside a check macro (nccl_world_fail_here) */
};

/* A world of n links, link i on GPU gpus[i], no communicators yet.  Free with nccl_world_free. */
struct nccl_world *nccl_world_new(int n, const int *gpus);
/* Destroys the communicators still there (nccl_world_close) and frees w.  NULL is a no-op. */
void nccl_world_free(struct nccl_world *w);

/*
 * In one process: link r becomes rank r of NCCL_ROUTES new communicators
 * over all n links (one ncclUniqueId each, ncclCommInitRankConfig for every
 * rank in one group).  0, or -1 after printing why.
 */
int nccl_world_init_all(struct nccl_world *w);
/*
 * Under MPI: link 0 becomes rank `rank` of `size` in NCCL_ROUTES
 * communicators, communicator j from id[j] (which every rank got from rank 0).
 */
int nccl_world_init_rank(struct nccl_world *w, const ncclUniqueId id[NCCL_ROUTES], int rank, int size);

/* Take l's lock for NCCL calls; false (lock not taken) when the world is aborted. */
bool nccl_world_enter(struct nccl_link *l);
void nccl_world_leave(struct nccl_link *l);
/* Say that c's rank stops at its lab's call because the world was aborted; returns -1. */
int nccl_world_stopped(const struct comm *c);

/*
 * Poll nc[j] until no operation leaves it in progress (before the next NCCL
 * call on it, and before the CUDA work that follows an operation on its
 * stream).  wait false: look once.  Returns 1 when settled, 0 when still in
 * progress (wait false), -1 after printing why: an asynchronous error (the
 * world is aborted) or an abort.  c names the rank and the lab's call site.
 */
int nccl_world_settle(struct nccl_link *l, enum nccl_route j, bool wait, const struct comm *c);
/*
 * Wait for stream s (which runs operations on the routes in the bit set
 * `routes`, 1u << route) by polling it, the routes' asynchronous errors and
 * the abort flag.  0 when s is done and the world not aborted, else -1 after
 * printing why.
 */
int nccl_world_wait(struct nccl_link *l, cudaStream_t s, unsigned routes, const struct comm *c);

/*
 * A rank failed: abort every communicator of every link (ncclCommAbort) and
 * mark the world aborted.  Any thread; a second call does nothing.
 */
void nccl_world_abort(struct nccl_world *w);
bool nccl_world_aborted(const struct nccl_world *w);
/*
 * For a check macro's fail hook on a rank's thread: mark the world failed,
 * abort it, and release the calling thread's link lock if it holds one, so
 * that the thread can end.
 */
void nccl_world_fail_here(struct nccl_world *w);
bool nccl_world_failed(const struct nccl_world *w);

/* Destroy l's communicators (nothing when the world was aborted: ncclCommAbort freed them). */
void nccl_world_close(struct nccl_link *l);

#endif
