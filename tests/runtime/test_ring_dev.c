/*
 * The device rings (ring_dev.c) on the cpu device, over two communicators:
 * the threads one with its in-place add turned off, so the device's axpy
 * does the reduction into the kept scratch, and the shared one with host
 * hooks, whose collectives are these rings.  Every collective against a
 * serial reference for 1 to 8 ranks, sizes 0, 1, uneven and several chunks,
 * fp32 and fp64; the bytes each rank moves must be those of coll.c's
 * generic collectives on the same comm.  Inputs are small integers, so
 * every sum is exact.  Ranks record; assertions run on the test's thread.
 */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ring_dev.h"
#include "ringcount.h"
#include "shared_ranks.h"

static const size_t sizes[] = { 0, 1, 2, 7, 13, 1001 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static double input(int r, size_t i) { return (double)(r * 7 + (int)(i % 11) - 5); }

enum which { ALLREDUCE, ALLGATHER, REDUCESCATTER, BROADCAST };

/* The comm under test. */
enum via {
    THREADS,        /* comm_threads, ring_dev_* called directly */
    SHARED,         /* comm_shared with host hooks, through the comm_* wrappers */
};

struct job {
    enum which which;
    enum via via;
    enum dtype t;
    size_t count;           /* elements of the whole buffer */
    size_t chunk;           /* c->chunk_bytes */
    int bad[8];             /* elements that differ from the reference, per rank */
    int rc[8];
    uint64_t moved[8][2];   /* bytes sent and received by the ring */
    uint64_t generic[8][2]; /* the same by comm_generic_* */
};

/* Rank r's block of an uneven split: unequal, some empty, none when count is 0. */
static void uneven(size_t count, int n, size_t *counts)
{
    for (int r = 0; r < n; r++)
        counts[r] = count ? comm_share(count, n, r) + (size_t)(r % 3) : 0;
}

static void totals(const struct comm *c, uint64_t out[2])
{
    out[0] = out[1] = 0;
    for (int op = 0; op < COMM_NOPS; op++) {
        out[0] += c->stats.sent[op];
        out[1] += c->stats.recvd[op];
    }
}

/* One collective on buffers laid out for it; generic: coll.c's instead of the ring. */
static int collective(struct job *j, struct comm *c, struct ring_dev *rd, bool generic,
                      void *buf, void *out, const size_t *counts)
{
    int root = c->size / 2;
    if (generic) {
        switch (j->which) {
        case ALLREDUCE: return comm_generic_allreduce(c, buf, j->count, j->t);
        case ALLGATHER: return comm_generic_allgatherv(c, buf, out, counts, j->t);
        case REDUCESCATTER: return comm_generic_reducescatterv(c, buf, out, counts, j->t);
        case BROADCAST: return comm_generic_broadcast(c, buf, j->count, j->t, root);
        }
    } else if (j->via == THREADS) {
        switch (j->which) {
        case ALLREDUCE: return ring_dev_allreduce(c, rd, buf, j->count, j->t);
        case ALLGATHER: return ring_dev_allgatherv(c, rd, buf, out, counts, j->t);
        case REDUCESCATTER: return ring_dev_reducescatterv(c, rd, buf, out, counts, j->t);
        case BROADCAST: return ring_dev_broadcast(c, buf, j->count, j->t, root);
        }
    } else {
        switch (j->which) {
        case ALLREDUCE: return comm_allreduce(c, buf, j->count, j->t);
        case ALLGATHER: return comm_allgatherv(c, buf, out, counts, j->t);
        case REDUCESCATTER: return comm_reducescatterv(c, buf, out, counts, j->t);
        case BROADCAST: return comm_broadcast(c, buf, j->count, j->t, root);
        }
    }
    return -1;
}

/* Fill the inputs, run, and count the elements that differ from the serial reference. */
static int run_checked(struct job *j, struct comm *c, struct ring_dev *rd, struct dev *d, bool generic,
                       int *bad)
{
    int n = c->size, rank = c->rank;
    size_t es = dtype_size(j->t), counts[8], off = 0, total = 0;
    uneven(j->count, n, counts);
    for (int r = 0; r < n; r++) {
        off += r < rank ? counts[r] : 0;
        total += counts[r];
    }
    size_t len = j->which == ALLGATHER ? counts[rank] : j->which == REDUCESCATTER ? total : j->count;
    size_t olen = j->which == ALLGATHER ? total : counts[rank];
    char *buf = dev_alloc(d, len * es, "in"), *out = dev_alloc(d, olen * es, "out");
    for (size_t i = 0; i < len; i++)
        dtype_set(j->t, buf, i, input(rank, (j->which == ALLGATHER ? off : 0) + i));
    int rc = collective(j, c, rd, generic, buf, out, counts);
    switch (j->which) {
    case ALLREDUCE:
        for (size_t i = 0; i < j->count; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, i);
            *bad += dtype_get(j->t, buf, i) != want;
        }
        break;
    case ALLGATHER:
        /* Rank q's block sits at the sum of the blocks before it, as rank q filled it. */
        for (int q = 0, at = 0; q < n; at += (int)counts[q], q++)
            for (size_t i = 0; i < counts[q]; i++)
                *bad += dtype_get(j->t, out, (size_t)at + i) != input(q, (size_t)at + i);
        break;
    case REDUCESCATTER:
        for (size_t i = 0; i < counts[rank]; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, off + i);
            *bad += dtype_get(j->t, out, i) != want;
        }
        /* the send buffer is the caller's and must come back untouched */
        for (size_t i = 0; i < total; i++)
            *bad += dtype_get(j->t, buf, i) != input(rank, i);
        break;
    case BROADCAST:
        for (size_t i = 0; i < j->count; i++)
            *bad += dtype_get(j->t, buf, i) != input(n / 2, i);
        break;
    }
    dev_free(d, buf);
    dev_free(d, out);
    return rc;
}

static int body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct job *j = arg;
    c->chunk_bytes = j->chunk;
    /* Without the threads comm's in-place add, the ring's own reduction (the device's axpy) runs. */
    const struct comm_ops *own = c->ops;
    struct comm_ops no_add = *own;
    no_add.sendrecv_add = NULL;
    c->ops = &no_add;
    struct ring_dev *rd = j->via == THREADS ? ring_dev_new(d) : NULL;
    uint64_t before[2], after[2];
    int bad = 0;
    totals(c, before);
    int rc = run_checked(j, c, rd, d, false, &bad);
    totals(c, after);
    j->moved[rank][0] = after[0] - before[0];
    j->moved[rank][1] = after[1] - before[1];
    int gbad = 0;
    if (rc == 0)
        rc = run_checked(j, c, rd, d, true, &gbad);
    totals(c, before);
    j->generic[rank][0] = before[0] - after[0];
    j->generic[rank][1] = before[1] - after[1];
    ring_dev_free(rd);
    c->ops = own;
    j->bad[rank] = bad + gbad;
    j->rc[rank] = rc;
    return rc;
}

/* The bytes coll.c's ring moves for this rank (ringcount.h), sent and received. */
static void ring_bytes(const struct job *j, int n, int r, uint64_t want[2])
{
    size_t es = dtype_size(j->t), counts[8];
    uneven(j->count, n, counts);
    switch (j->which) {
    case ALLREDUCE: ringcount_allreduce(j->count, n, r, es, &want[0], &want[1]); break;
    case ALLGATHER: ringcount_allgather(counts, n, r, es, &want[0], &want[1]); break;
    case REDUCESCATTER: ringcount_reducescatter(counts, n, r, es, &want[0], &want[1]); break;
    case BROADCAST: ringcount_broadcast(j->count * es, n, r, n / 2, &want[0], &want[1]); break;
    }
}

static const char *const names[] = { "all-reduce", "all-gatherv", "reduce-scatterv", "broadcast" };

static void run_all(enum which which, enum via via)
{
    static const size_t chunks[] = { 40, COMM_DEFAULT_CHUNK };
    for (int n = 1; n <= 8; n++)
        for (size_t si = 0; si < NSIZES; si++)
            for (int t = 0; t < 2; t++)
                for (int ci = 0; ci < 2; ci++) {
                    struct job j = { .which = which, .via = via, .t = t ? DTYPE_F64 : DTYPE_F32,
                                     .count = sizes[si], .chunk = chunks[ci] };
                    int rc = via == THREADS ? backend_cpu.launch(n, body, &j)
                                            : shared_ranks_run(n, &comm_shared_host_hooks, body, &j);
                    cr_assert_eq(rc, 0, "%s, %d ranks, %zu elements: failed", names[which], n, j.count);
                    for (int r = 0; r < n; r++) {
                        uint64_t want[2];
                        ring_bytes(&j, n, r, want);
                        cr_assert_eq(j.bad[r], 0, "%s, %d ranks, %zu %s elements, chunk %zu: rank %d has %d wrong",
                                     names[which], n, j.count, dtype_name(j.t), j.chunk, r, j.bad[r]);
                        for (int k = 0; k < 2; k++) {
                            cr_assert_eq(j.moved[r][k], j.generic[r][k],
                                         "%s, %d ranks, %zu elements: rank %d %s %llu bytes, coll.c %llu",
                                         names[which], n, j.count, r, k ? "received" : "sent",
                                         (unsigned long long)j.moved[r][k],
                                         (unsigned long long)j.generic[r][k]);
                            cr_assert_eq(j.moved[r][k], want[k],
                                         "%s, %d ranks, %zu elements: rank %d %s %llu bytes, the ring %llu",
                                         names[which], n, j.count, r, k ? "received" : "sent",
                                         (unsigned long long)j.moved[r][k], (unsigned long long)want[k]);
                        }
                    }
                }
}

Test(ring_dev, allreduce_over_the_threads_comm_equals_the_serial_sum)
{
    run_all(ALLREDUCE, THREADS);
}

Test(ring_dev, allgatherv_over_the_threads_comm_puts_every_uneven_block_in_place)
{
    run_all(ALLGATHER, THREADS);
}

Test(ring_dev, reducescatterv_over_the_threads_comm_gives_each_rank_the_sum_of_its_block)
{
    run_all(REDUCESCATTER, THREADS);
}

Test(ring_dev, broadcast_over_the_threads_comm_copies_the_root_buffer)
{
    run_all(BROADCAST, THREADS);
}

Test(ring_dev, allreduce_over_the_shared_comm_equals_the_serial_sum)
{
    run_all(ALLREDUCE, SHARED);
}

Test(ring_dev, allgatherv_over_the_shared_comm_puts_every_uneven_block_in_place)
{
    run_all(ALLGATHER, SHARED);
}

Test(ring_dev, reducescatterv_over_the_shared_comm_gives_each_rank_the_sum_of_its_block)
{
    run_all(REDUCESCATTER, SHARED);
}

Test(ring_dev, broadcast_over_the_shared_comm_copies_the_root_buffer)
{
    run_all(BROADCAST, SHARED);
}

/* ---- the kept scratch ---- */

/* Device allocations per rank, through a cpu device whose alloc and free are counted. */
static atomic_int dev_allocs[8], dev_frees[8];
static const struct dev_ops *cpu_ops;
static struct dev_ops counted_ops;

static void *counted_alloc(struct dev *d, size_t bytes)
{
    atomic_fetch_add(&dev_allocs[d->rank], 1);
    return cpu_ops->alloc(d, bytes);
}

static void counted_free(struct dev *d, void *p)
{
    atomic_fetch_add(&dev_frees[d->rank], 1);
    cpu_ops->free(d, p);
}

struct reuse {
    int after_warmup[8];    /* device allocations made after the warm-up, per rank */
    int grown[8];           /* made by the larger collective that follows */
    int rc[8];
};

static int reuse_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct reuse *u = arg;
    d->ops = &counted_ops;              /* comm and device are freed after this returns: ops stays */
    c->chunk_bytes = 256;
    const size_t big = 4000;
    size_t counts[8];
    for (int r = 0; r < n; r++)
        counts[r] = comm_share(big, n, r);
    double *buf = calloc(big, sizeof *buf), *out = calloc(big, sizeof *out);
    int rc = comm_allreduce(c, buf, big, DTYPE_F64);
    if (rc == 0)
        rc = comm_reducescatterv(c, buf, out, counts, DTYPE_F64);
    int before = atomic_load(&dev_allocs[rank]);
    for (int i = 0; rc == 0 && i < 10; i++) {
        size_t m = big - (size_t)i * 97;
        for (int r = 0; r < n; r++)
            counts[r] = comm_share(m, n, r);
        rc = comm_allreduce(c, buf, m, DTYPE_F64);
        if (rc == 0)
            rc = comm_reducescatterv(c, buf, out, counts, DTYPE_F64);
    }
    u->after_warmup[rank] = atomic_load(&dev_allocs[rank]) - before;
    /* A larger reduce-scatter than any before needs a larger working copy. */
    before = atomic_load(&dev_allocs[rank]);
    double *bigger = calloc(2 * big, sizeof *bigger);
    for (int r = 0; r < n; r++)
        counts[r] = comm_share(2 * big, n, r);
    if (rc == 0)
        rc = comm_reducescatterv(c, bigger, out, counts, DTYPE_F64);
    u->grown[rank] = atomic_load(&dev_allocs[rank]) - before;
    free(bigger);
    free(buf);
    free(out);
    u->rc[rank] = rc;
    return rc;
}

Test(ring_dev, after_a_warm_up_the_collectives_allocate_no_device_memory_and_free_all_of_it_at_the_end)
{
    struct dev *probe = dev_cpu_new(0);
    cpu_ops = probe->ops;
    dev_free_device(probe);
    counted_ops = *cpu_ops;
    counted_ops.alloc = counted_alloc;
    counted_ops.free = counted_free;
    const int n = 4;
    struct reuse u = { .rc = { 0 } };
    cr_assert_eq(shared_ranks_run(n, &comm_shared_host_hooks, reuse_body, &u), 0);
    for (int r = 0; r < n; r++) {
        cr_assert_eq(u.rc[r], 0);
        cr_assert_eq(u.after_warmup[r], 0, "rank %d made %d device allocations after the warm-up",
                     r, u.after_warmup[r]);
        cr_assert_eq(u.grown[r], 1, "rank %d: the larger working copy is one allocation, made %d", r,
                     u.grown[r]);
        cr_assert_eq(atomic_load(&dev_allocs[r]), atomic_load(&dev_frees[r]),
                     "rank %d: %d device allocations, %d freed", r, atomic_load(&dev_allocs[r]),
                     atomic_load(&dev_frees[r]));
    }
}
