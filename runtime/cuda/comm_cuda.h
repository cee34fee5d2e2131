/*
 * comm_cuda.h — communicators for ranks whose memory is on GPUs, in one
 * process (a thread per rank):
 *
 *   "nccl"        each rank has its own GPU: NCCL collectives and ncclSend /
 *                 ncclRecv (comm_nccl.c);
 *   "cuda-shared" ranks outnumber GPUs and share one: each rank is a stream
 *                 with its own allocations, messages move by device-to-device
 *                 copies ordered with events (NCCL refuses two ranks on one
 *                 GPU), collectives are rings over those.  Only the copies,
 *                 events and stream waits are CUDA's (comm_shared_cuda.c); the
 *                 mailboxes, tag matching, staging-block reuse, barrier and
 *                 abort (../comm_shared.c) and the rings (../ring_dev.c) know
 *                 no device, and make check tests them on the cpu device.
 *
 * Every operation is queued on the rank's stream (dev_cuda_stream) and has
 * finished on the GPU when it returns, so the time a comm_* wrapper measures
 * is the transfer's, and the lab's next kernel sees the data.  Sends are the
 * exception: a send returns once its payload is copied aside, without
 * waiting for the receiver.  On cuda-shared the receiver then copies it
 * whenever it comes; on nccl the transfer itself still waits for the matching
 * receive, and the sends of one route (nccl_route.h) go out in order, so a
 * send waits on the GPU behind an earlier send of its route that has not
 * been received yet (comm_nccl.c).
 */
#ifndef RT_CUDA_COMM_CUDA_H
#define RT_CUDA_COMM_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime.h>

#include "comm.h"
#include "comm_shared.h"
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

/* How many buffers one operation stages at most (a send and a receive buffer). */
#define STAGE_SLOTS 2

/* A communicator's staging blocks, kept between operations (zero-initialised: empty). */
struct stage_area {
    void *dev[STAGE_SLOTS];     /* device block of each slot, or NULL; owned */
    size_t cap[STAGE_SLOTS];    /* its size in bytes */
};

/*
 * As stage_in, but the copy goes into block `slot` of a, grown (stream-
 * ordered on s) when too small.  Call stage_area_out on st afterwards, once
 * the operation is done on the GPU.
 */
void *stage_area_in(struct stage_area *a, int slot, struct stage *st, const void *p, size_t bytes,
                    bool copy_in, cudaStream_t s);
/* Copy the device copy back when copy_out and wait for s; the block stays in its area. */
void stage_area_out(struct stage *st, bool copy_out, cudaStream_t s);
/* Free a's blocks, ordered on s after the work queued there. */
void stage_area_free(struct stage_area *a, cudaStream_t s);
/*
 * Set up gpu's default memory pool, where staging blocks come from: freed
 * memory stays in it, and each of the GPUs peers[0..n) that has a P2P path to
 * gpu may read and write it (NCCL moves data directly between GPUs of one
 * process).  Call on a thread whose current device is gpu.
 */
void stage_pool_setup(int gpu, const int *peers, int n);

/* ---- cuda-shared ---------------------------------------------------------- */

/*
 * The hooks that make comm_shared.h's communicator "cuda-shared": a world
 * from comm_shared_world_new(n, &comm_shared_cuda_hooks), then
 * comm_shared_rank(w, r, dev) with each rank's cuda device.
 */
extern const struct comm_shared_hooks comm_shared_cuda_hooks;

/* ---- nccl ------------------------------------------------------------------ */

#ifdef HAVE_NCCL
#include "nccl_world.h"

/*
 * Rank rank's handle (of size) over link l of an NCCL world (nccl_world.h;
 * borrowed: the world outlives the handle and destroys the communicators).
 * Its operations run on dev's stream (dev borrowed), its sends on a stream
 * per route.  peers[0..npeers) are the GPUs of the other ranks in this
 * process, which may read its staging memory (stage_pool_setup).  Posts a
 * one-byte exchange with every rank on every point-to-point route, so that
 * NCCL connects each pair now: a first message would otherwise wait for its
 * peer to connect.  Call it for every rank of the world before any rank's
 * first operation.
 */
struct comm *comm_nccl_rank(struct nccl_link *l, int rank, int size, struct dev *dev,
                            const int *peers, int npeers);
#endif

#endif
