/*
 * ringcount.h — the bytes one rank moves in the ring algorithms of coll.c.
 *
 * Backends whose collectives are a library's (MPI, NCCL) cannot see their
 * wire traffic; they count what coll.c's ring would move for the same call,
 * so every backend reports the same bytes for the same lab (the convention
 * of the nccl-tests bus bandwidth).  counts[] are elements per rank block,
 * es the element size; r the rank, n the rank count.
 */
#ifndef RT_RINGCOUNT_H
#define RT_RINGCOUNT_H

#include <stddef.h>
#include <stdint.h>

static inline int ringcount_mod(int a, int n) { return ((a % n) + n) % n; }

static inline uint64_t ringcount_total(const size_t *counts, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s += counts[i];
    return s;
}

/*
 * Reduce-scatter: rank r sends every block but its own and receives every
 * block but its left neighbour's.
 */
static inline void ringcount_reducescatter(const size_t *counts, int n, int r, size_t es,
                                           uint64_t *sent, uint64_t *recvd)
{
    uint64_t t = ringcount_total(counts, n);
    *sent = n > 1 ? (t - counts[r]) * es : 0;
    *recvd = n > 1 ? (t - counts[ringcount_mod(r - 1, n)]) * es : 0;
}

/* All-gather: rank r sends every block but its right neighbour's, receives all but its own. */
static inline void ringcount_allgather(const size_t *counts, int n, int r, size_t es,
                                       uint64_t *sent, uint64_t *recvd)
{
    uint64_t t = ringcount_total(counts, n);
    *sent = n > 1 ? (t - counts[ringcount_mod(r + 1, n)]) * es : 0;
    *recvd = n > 1 ? (t - counts[r]) * es : 0;
}

/* All-reduce of count elements split as comm_share does: reduce-scatter then all-gather. */
static inline void ringcount_allreduce(size_t count, int n, int r, size_t es,
                                       uint64_t *sent, uint64_t *recvd)
{
    *sent = *recvd = 0;
    if (n < 2 || count == 0)
        return;
    /* comm_share: the first count % n ranks get one more element. */
    size_t q = count / (size_t)n, extra = count % (size_t)n;
#define RINGCOUNT_SHARE(i) (q + ((size_t)(i) < extra ? 1 : 0))
    uint64_t t = count;
    *sent = (2 * t - RINGCOUNT_SHARE(r) - RINGCOUNT_SHARE(ringcount_mod(r + 1, n))) * es;
    *recvd = (2 * t - RINGCOUNT_SHARE(ringcount_mod(r - 1, n)) - RINGCOUNT_SHARE(r)) * es;
#undef RINGCOUNT_SHARE
}

/* Chain broadcast from root: every rank but the last forwards it, every rank but the root receives it. */
static inline void ringcount_broadcast(size_t bytes, int n, int r, int root,
                                       uint64_t *sent, uint64_t *recvd)
{
    int pos = ringcount_mod(r - root, n);
    *sent = pos < n - 1 ? bytes : 0;
    *recvd = pos > 0 ? bytes : 0;
}

#endif
