/*
 * ring_dev.h — ring collectives over device memory (internal to the
 * runtime): the ring schedule of coll.c (coll_ring.h) with the reduction
 * done by the device's axpy and the scratch on the device, for a comm whose
 * send, recv and sendrecv move the memory of that device (cuda-shared, or
 * any comm on the cpu device).  Only struct dev operations are used, so the
 * same code runs, and is tested, on the cpu device.
 *
 * The scratch chunk and the reduce-scatter's working copy are kept in a
 * struct ring_dev between collectives and grown when a larger one comes:
 * allocating them per call would put an allocation, and on CUDA the device
 * synchronization of cudaFree, inside every timed collective.
 */
#ifndef RT_RING_DEV_H
#define RT_RING_DEV_H

#include <stddef.h>

#include "comm.h"
#include "dev.h"

/* One rank's kept device blocks. */
struct ring_dev;

/* State for rings on dev (borrowed: it must outlive the state); allocates nothing yet. */
struct ring_dev *ring_dev_new(struct dev *dev);
/* Gives the kept blocks back to the device (still alive) and frees rd.  NULL is a no-op. */
void ring_dev_free(struct ring_dev *rd);

/*
 * The collectives of comm.h on buffers in rd's device memory: reduce-scatter
 * then all-gather in c->chunk_bytes chunks, byte for byte the wire traffic
 * of comm_generic_*.  Return 0, or -1 after printing why.
 */
int ring_dev_allreduce(struct comm *c, struct ring_dev *rd, void *buf, size_t count, enum dtype t);
int ring_dev_allgatherv(struct comm *c, struct ring_dev *rd, const void *sbuf, void *rbuf,
                        const size_t *counts, enum dtype t);
int ring_dev_reducescatterv(struct comm *c, struct ring_dev *rd, const void *sbuf, void *rbuf,
                            const size_t *counts, enum dtype t);
int ring_dev_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root);

#endif
