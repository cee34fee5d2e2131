/*
 * comm_cuda.h — communicators for ranks whose memory is on GPUs, in one
 * process (a thread per rank):
 *
 *   "nccl"        each rank has its own GPU: NCCL collectives and ncclSend /
 *                 ncclRecv (comm_nccl.c);
 *   "cuda-shared" ranks outnumber GPUs and share one: each rank is a stream
 *                 with its own allocations, messages move by device-to-device
 *                 copies ordered with events (NCCL refuses two ranks on one
 *                 GPU), collectives are rings over those (comm_shared.c,
 *                 ring_dev.c).
 *
 * Every operation is queued on the rank's stream (dev_cuda_stream) and has
 * finished on the GPU when it returns, so the time a comm_* wrapper measures
 * is the transfer's, and the lab's next kernel sees the data.  Sends are the
 * exception: like the threads backend's they never wait for the receiver
 * (they return once the payload is copied aside).
 */
#ifndef RT_CUDA_COMM_CUDA_H
#define RT_CUDA_COMM_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "comm.h"
#include "dev.h"

/* ---- host buffers (stage.c) ---------------------------------------------- */

/* A buffer as an operation sees it: the caller's, or a device copy of it. */
struct stage {
    void *dev;          /* what the operation uses */
    void *host;         /* the caller's host buffer when dev is a copy, else NULL */
    size_t bytes;
};

/*
 * p when the GPU can address it; else new device memory of `bytes` on stream
 * s, holding a copy of p when copy_in.  Call stage_out on st afterwards.
 */
void *stage_in(struct stage *st, const void *p, size_t bytes, bool copy_in, cudaStream_t s);
/* Copy the device copy back when copy_out, free it, and wait for s; nothing for a device buffer. */
void stage_out(struct stage *st, bool copy_out, cudaStream_t s);

/* ---- cuda-shared ---------------------------------------------------------- */

/* The mailboxes of n ranks that are threads of this process on one GPU. */
struct comm_shared_world;
struct comm_shared_world *comm_shared_world_new(int n);
/* Frees the world and any message never received; every rank's comm first. */
void comm_shared_world_free(struct comm_shared_world *w);
/* Wake every rank waiting in a receive or barrier: a rank failed. */
void comm_shared_abort(struct comm_shared_world *w);
/* Rank r's handle; dev is the rank's cuda device (borrowed: its stream carries the copies). */
struct comm *comm_shared_rank(struct comm_shared_world *w, int r, struct dev *dev);

/*
 * Ring collectives over device memory, on any comm whose send, recv and
 * sendrecv move device memory of dev: the algorithms of coll.c (reduce-scatter
 * then all-gather in c->chunk_bytes chunks), with the reduction and the
 * scratch block on the device.
 */
int ring_dev_allreduce(struct comm *c, struct dev *dev, void *buf, size_t count, enum dtype t);
int ring_dev_allgatherv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                        const size_t *counts, enum dtype t);
int ring_dev_reducescatterv(struct comm *c, struct dev *dev, const void *sbuf, void *rbuf,
                            const size_t *counts, enum dtype t);
int ring_dev_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root);

/* ---- nccl ------------------------------------------------------------------ */

#ifdef HAVE_NCCL
#include <nccl.h>

/* NCCL communicators each rank needs: collectives, messages up, messages down. */
#define COMM_NCCL_COMMS 3

/*
 * Rank rank's handle over three NCCL communicators of the same ranks (takes
 * ownership: destroyed with the handle): nc[0] for collectives, nc[1] for
 * messages to higher ranks, nc[2] for messages to lower ranks (comm_nccl.c
 * says why).  Its operations run on dev's stream (dev borrowed).
 */
struct comm *comm_nccl_rank(const ncclComm_t nc[COMM_NCCL_COMMS], int rank, int size,
                            struct dev *dev);
#endif

#endif
