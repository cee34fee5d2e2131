/*
 * coll_ring.h — the ring schedule of coll.c, for communicators whose buffers
 * are not host memory (internal to the runtime).
 *
 * The order of blocks, the chunking and the point-to-point calls are the
 * same wherever the buffers live; only the reduction differs (a host loop
 * for host memory, a kernel for device memory).  So the schedule is written
 * once, in coll.c, and takes the reduction as a callback: a device ring
 * (ring_dev.c) is then the same algorithm, byte for byte on the wire.
 */
#ifndef RT_COLL_RING_H
#define RT_COLL_RING_H

#include <stddef.h>

#include "comm.h"

/*
 * y[0..n) += x[0..n), n elements of type t; y and x are in the memory the
 * comm's transfers move (x is the scratch chunk just received).  ctx is the
 * caller's.  Returns 0, or -1 after printing why.
 */
typedef int (*coll_add_fn)(void *ctx, enum dtype t, void *y, const void *x, size_t n);

/* Offsets of blocks given their counts (prefix sums); new array of size+1 (free it). */
size_t *coll_offsets(const size_t *counts, int size);

/* Offsets of the blocks of count elements split over size ranks as comm_share does (an all-reduce's). */
size_t *coll_share_offsets(size_t count, int size);

/* Bytes of scratch coll_ring_reduce_scatter needs over the blocks at off[]. */
size_t coll_scratch_bytes(const struct comm *c, const size_t *off, enum dtype t);

/*
 * Ring reduce-scatter in place over buf (blocks at off[], in elements):
 * afterwards rank r holds the full sum of block r.  Each chunk received
 * lands in scratch (coll_scratch_bytes) and is added into place with add,
 * or in place by the backend when its ops have sendrecv_add.
 */
int coll_ring_reduce_scatter(struct comm *c, char *buf, const size_t *off, enum dtype t,
                             char *scratch, coll_add_fn add, void *ctx);

/* Ring all-gather in place: rank r's block r is in buf; afterwards every block is. */
int coll_ring_all_gather(struct comm *c, char *buf, const size_t *off, enum dtype t);

#endif
