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
 * exception: like the threads backend's they never wait for the receiver
 * (they return once the payload is copied aside).
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

/* ---- cuda-shared ---------------------------------------------------------- */

/*
 * The hooks that make comm_shared.h's communicator "cuda-shared": a world
 * from comm_shared_world_new(n, &comm_shared_cuda_hooks), then
 * comm_shared_rank(w, r, dev) with each rank's cuda device.
 */
extern const struct comm_shared_hooks comm_shared_cuda_hooks;

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
