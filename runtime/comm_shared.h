/*
 * comm_shared.h — the shared-device communicator (internal to the runtime):
 * ranks are threads of this process whose memory is on one device, each
 * rank with its own stream.  NCCL cannot serve this case (it refuses two
 * ranks of one communicator on one GPU), so the messages go through
 * mailboxes, as in the threads backend.
 *
 * A send copies the payload, on the sender's stream, into a staging block,
 * records an event after the copy and posts the message to the receiver's
 * mailbox; it never waits for the receiver.  A receive takes the first
 * message from that source with that tag, makes its stream wait for the
 * event, copies the block into place and gives the block back to its
 * sender, which reuses it for a later message.  The collectives are the
 * device rings of ring_dev.h over those sends and receives.
 *
 * The mailboxes, tag matching, staging-block reuse, barrier and abort are
 * here (comm_shared.c) and know no device; how a payload is copied, ordered
 * and waited for is a table of hooks:
 *
 *   comm_shared_cuda_hooks  streams, cudaMemcpyAsync and events: the
 *                           "cuda-shared" communicator (cuda/comm_shared_cuda.c);
 *   comm_shared_host_hooks  memcpy on host memory (comm_shared_host.c), so
 *                           that the same logic runs, and is tested, on the
 *                           cpu device.
 */
#ifndef RT_COMM_SHARED_H
#define RT_COMM_SHARED_H

#include <stdbool.h>
#include <stddef.h>

#include "comm.h"
#include "dev.h"

/* A collective's buffer as the device uses it (see coll_in). */
struct comm_shared_buf {
    void *dev;              /* what the collective works on */
    void *host;             /* the caller's buffer when dev is a copy of it, else NULL */
    size_t bytes;
};

/*
 * What a device does for the communicator.  d is the acting rank's device:
 * the sender's for block_alloc, event_new and fill, the receiver's for
 * drain; the hooks queue on d's stream.  Functions returning int give 0, or
 * -1 after printing why; those returning a pointer give NULL after printing.
 */
struct comm_shared_hooks {
    const char *name;       /* the communicator's name in reports: "cuda-shared" */
    size_t chunk_bytes;     /* ring collectives' chunk (0: COMM_DEFAULT_CHUNK) */
    /* Memory for a staging block of bytes (> 0) that every rank's stream can read and write. */
    void *(*block_alloc)(struct dev *d, size_t bytes);
    /* Frees block memory; from any thread, after every rank's device may be gone. */
    void (*block_free)(void *mem);
    /* An event that orders a fill before the drain of the same block. */
    void *(*event_new)(struct dev *d);
    void (*event_free)(void *ev);       /* as block_free: any thread, devices maybe gone */
    /* Copy bytes from src (the sender's buffer: device or host memory) into mem, then record ev. */
    int (*fill)(struct dev *d, void *mem, const void *src, size_t bytes, void *ev);
    /* Wait for ev, then copy bytes from mem into dst (the receiver's buffer). */
    int (*drain)(struct dev *d, void *dst, const void *mem, size_t bytes, void *ev);
    /* Wait until everything queued on d's stream has finished. */
    int (*sync)(struct dev *d);
    /*
     * Optional (NULL: buffers are used as given).  p as the device can use
     * it: p itself, or a device copy (holding p's bytes when copy_in) kept in
     * *b; coll_out copies it back when copy_out, releases it and waits.
     */
    void *(*coll_in)(struct dev *d, struct comm_shared_buf *b, const void *p, size_t bytes,
                     bool copy_in);
    void (*coll_out)(struct dev *d, struct comm_shared_buf *b, bool copy_out);
};

extern const struct comm_shared_hooks comm_shared_host_hooks;

/*
 * The mailboxes, staging blocks and barrier of n ranks on one device.
 * hooks is borrowed (it must outlive the world; the tables above are static).
 */
struct comm_shared_world;
struct comm_shared_world *comm_shared_world_new(int n, const struct comm_shared_hooks *hooks);
/* Frees the world, its staging blocks and events and any message never received; every rank's comm first. */
void comm_shared_world_free(struct comm_shared_world *w);
/* A rank failed: wake every rank waiting in a receive or barrier, which then return -1. */
void comm_shared_abort(struct comm_shared_world *w);
/*
 * Rank r's handle (call once per rank, from any thread).  dev is the rank's
 * device (borrowed: its stream carries the copies; free the comm before it).
 */
struct comm *comm_shared_rank(struct comm_shared_world *w, int r, struct dev *dev);

#endif
