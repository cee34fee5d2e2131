/*
 * The GPU communicators against a serial reference: cuda-shared (ranks as
 * streams on GPU 0) for 1 to 4 ranks, and nccl (a GPU per rank) for as many
 * ranks as there are GPUs, up to 4.  Inputs are small integers, so every
 * summation order gives the exact sum; sizes 0, 1, fewer than the ranks, not
 * divisible by them, and several chunks.  The bytes counted must be those of
 * the threads backend's ring (ringcount.h).  Skips where there is no GPU.
 *
 * Rank threads only record what they saw; every assertion is on the test's
 * own thread, where Criterion can report it (a failed assertion in another
 * thread would end the process instead).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "dev_cuda.h"
#include "gpu_skip.h"
#include "ringcount.h"

static double input(int r, size_t i) { return (double)(r * 100 + (int)(i % 89)); }

struct rank_case {
    struct comm *comm;
    struct dev *dev;
    size_t n;
    enum dtype t;
    int bad;                /* elements that differ from the reference */
    uint64_t ar_sent, ar_recvd;
    const char *failed;     /* the first collective that returned an error, or NULL */
};

/* Record the first failing call of a rank; the main thread asserts on it. */
#define RECORD(k, call) do { \
        if ((call) != 0 && !(k)->failed) \
            (k)->failed = #call; \
    } while (0)

/* All-reduce, all-gather, reduce-scatter and broadcast on one rank, checked as it goes. */
static void *rank_main(void *p)
{
    struct rank_case *k = p;
    struct comm *c = k->comm;
    struct dev *d = k->dev;
    int r = c->rank, size = c->size;
    size_t n = k->n, es = dtype_size(k->t);
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    size_t *counts = malloc((size_t)size * sizeof *counts);
    for (int q = 0; q < size; q++)
        counts[q] = comm_share(n, size, q);
    void *h = malloc(n * es + 1), *back = malloc(n * es + 1);
    for (size_t i = 0; i < n; i++)
        dtype_set(k->t, h, i, input(r, i));
    void *g = dev_alloc(d, n * es, "buf"), *g2 = dev_alloc(d, n * es, "out");

    /* all-reduce */
    dev_copy(d, g, h, n * es, DEV_H2D);
    comm_stats_reset(c);
    RECORD(k, comm_allreduce(c, g, n, k->t));
    k->ar_sent = c->stats.sent[COMM_ALLREDUCE];
    k->ar_recvd = c->stats.recvd[COMM_ALLREDUCE];
    dev_copy(d, back, g, n * es, DEV_D2H);
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (int q = 0; q < size; q++)
            s += input(q, i);
        k->bad += dtype_get(k->t, back, i) != s;
    }
    /* all-gather of each rank's share */
    dev_copy(d, g, h, counts[r] * es, DEV_H2D);
    RECORD(k, comm_allgatherv(c, g, g2, counts, k->t));
    dev_copy(d, back, g2, n * es, DEV_D2H);
    for (int q = 0; q < size; q++)
        for (size_t i = 0; i < counts[q]; i++)
            k->bad += dtype_get(k->t, back, comm_share_offset(n, size, q) + i) != input(q, i);
    /* reduce-scatter */
    dev_copy(d, g, h, n * es, DEV_H2D);
    RECORD(k, comm_reducescatterv(c, g, g2, counts, k->t));
    dev_copy(d, back, g2, counts[r] * es, DEV_D2H);
    for (size_t i = 0; i < counts[r]; i++) {
        double s = 0;
        for (int q = 0; q < size; q++)
            s += input(q, comm_share_offset(n, size, r) + i);
        k->bad += dtype_get(k->t, back, i) != s;
    }
    /* broadcast from the last rank */
    dev_copy(d, g, h, n * es, DEV_H2D);
    RECORD(k, comm_broadcast(c, g, n, k->t, size - 1));
    dev_copy(d, back, g, n * es, DEV_D2H);
    for (size_t i = 0; i < n; i++)
        k->bad += dtype_get(k->t, back, i) != input(size - 1, i);
    RECORD(k, comm_barrier(c));
    dev_free(d, g);
    dev_free(d, g2);
    free(h);
    free(back);
    free(counts);
    return NULL;
}

static void run_ranks(struct rank_case *ks, int size)
{
    pthread_t *th = calloc((size_t)size, sizeof *th);
    for (int r = 0; r < size; r++)
        pthread_create(&th[r], NULL, rank_main, &ks[r]);
    for (int r = 0; r < size; r++)
        pthread_join(th[r], NULL);
    for (int r = 0; r < size; r++) {
        cr_assert_null(ks[r].failed, "%d ranks, %zu elements: rank %d: %s failed", size, ks[r].n, r,
                       ks[r].failed);
        cr_assert_eq(ks[r].bad, 0, "%d ranks, %zu %s elements: rank %d has %d wrong", size,
                     ks[r].n, dtype_name(ks[r].t), r, ks[r].bad);
        uint64_t s, v;
        ringcount_allreduce(ks[r].n, size, r, dtype_size(ks[r].t), &s, &v);
        cr_assert_eq(ks[r].ar_sent, s, "all-reduce bytes sent by rank %d", r);
        cr_assert_eq(ks[r].ar_recvd, v, "all-reduce bytes received by rank %d", r);
    }
    free(th);
}

static const size_t sizes[] = { 0, 1, 3, 1001, 600007 };

Test(comm_cuda, shared_gpu_collectives_equal_the_serial_sums_for_1_to_4_ranks)
{
    need_gpus(1);
    for (int size = 1; size <= 4; size++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (int ti = 0; ti < 2; ti++) {
                struct comm_shared_world *w = comm_shared_world_new(size, &comm_shared_cuda_hooks);
                struct rank_case *ks = calloc((size_t)size, sizeof *ks);
                for (int r = 0; r < size; r++) {
                    ks[r].dev = dev_cuda_new(r, 0);
                    ks[r].comm = comm_shared_rank(w, r, ks[r].dev);
                    ks[r].comm->chunk_bytes = 64 << 10;     /* several chunks for the large size */
                    ks[r].n = sizes[si];
                    ks[r].t = ti ? DTYPE_F64 : DTYPE_F32;
                }
                run_ranks(ks, size);
                for (int r = 0; r < size; r++) {
                    comm_free(ks[r].comm);
                    dev_free_device(ks[r].dev);
                }
                comm_shared_world_free(w);
                free(ks);
            }
}

Test(comm_cuda, shared_gpu_sends_never_wait_for_the_receiver)
{
    need_gpus(1);
    /* Both ranks send first and receive second: with a waiting send this deadlocks. */
    struct comm_shared_world *w = comm_shared_world_new(2, &comm_shared_cuda_hooks);
    struct dev *d[2] = { dev_cuda_new(0, 0), dev_cuda_new(1, 0) };
    struct comm *c[2] = { comm_shared_rank(w, 0, d[0]), comm_shared_rank(w, 1, d[1]) };
    const size_t bytes = 8 << 20;
    void *s[2], *r[2];
    for (int k = 0; k < 2; k++) {
        s[k] = dev_alloc(d[k], bytes, "send");
        r[k] = dev_alloc(d[k], bytes, "recv");
        dev_fill(d[k], DTYPE_F32, s[k], bytes / 4, k + 1.0);
        cr_assert_eq(comm_send(c[k], s[k], bytes, 1 - k, 5), 0);
    }
    float got[2];
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(comm_recv(c[k], r[k], bytes, 1 - k, 5), 0);
        dev_copy(d[k], &got[k], (char *)r[k] + bytes - 4, 4, DEV_D2H);
    }
    cr_assert_float_eq(got[0], 2.0f, 0);
    cr_assert_float_eq(got[1], 1.0f, 0);
    for (int k = 0; k < 2; k++) {
        comm_free(c[k]);
        dev_free_device(d[k]);
    }
    comm_shared_world_free(w);
}

struct host_case {
    struct comm *comm;
    struct dev *dev;
    double sum[3];          /* an all-reduce of a host array */
    long rec[2];            /* a record sent to rank 0 from host memory */
    int rc;
};

/* The host records labs gather for their reports pass through a GPU communicator. */
static void *host_main(void *p)
{
    struct host_case *k = p;
    struct comm *c = k->comm;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(k->dev)));
    for (int i = 0; i < 3; i++)
        k->sum[i] = c->rank + i;
    k->rc = comm_allreduce(c, k->sum, 3, DTYPE_F64);
    long mine[2] = { c->rank, 10L * c->rank };
    if (k->rc == 0 && c->rank == 1)
        k->rc = comm_send(c, mine, sizeof mine, 0, 9);
    if (k->rc == 0 && c->rank == 0)
        k->rc = comm_recv(c, k->rec, sizeof k->rec, 1, 9);
    return NULL;
}

Test(comm_cuda, host_buffers_pass_through_the_shared_gpu_communicator)
{
    need_gpus(1);
    struct comm_shared_world *w = comm_shared_world_new(3, &comm_shared_cuda_hooks);
    struct host_case k[3] = { 0 };
    pthread_t th[3];
    for (int r = 0; r < 3; r++) {
        k[r].dev = dev_cuda_new(r, 0);
        k[r].comm = comm_shared_rank(w, r, k[r].dev);
    }
    for (int r = 0; r < 3; r++)
        pthread_create(&th[r], NULL, host_main, &k[r]);
    for (int r = 0; r < 3; r++)
        pthread_join(th[r], NULL);
    for (int r = 0; r < 3; r++) {
        cr_assert_eq(k[r].rc, 0);
        for (int i = 0; i < 3; i++)
            cr_assert_float_eq(k[r].sum[i], 3.0 + 3 * i, 0, "rank %d element %d", r, i);
    }
    cr_assert_eq(k[0].rec[0], 1);
    cr_assert_eq(k[0].rec[1], 10);
    for (int r = 0; r < 3; r++) {
        comm_free(k[r].comm);
        dev_free_device(k[r].dev);
    }
    comm_shared_world_free(w);
}

#ifdef HAVE_NCCL
Test(comm_cuda, nccl_collectives_equal_the_serial_sums_with_a_gpu_per_rank)
{
    int ngpu = need_gpus(2);
    int size = ngpu < 4 ? ngpu : 4;
    int devs[4] = { 0, 1, 2, 3 };
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int ti = 0; ti < 2; ti++) {
            struct rank_case ks[4] = { 0 };
            for (int r = 0; r < size; r++)
                ks[r].dev = dev_cuda_new(r, r);
            struct nccl_world *w = nccl_world_new(size, devs);
            cr_assert_eq(nccl_world_init_all(w), 0);
            for (int r = 0; r < size; r++) {
                ks[r].comm = comm_nccl_rank(&w->links[r], r, size, ks[r].dev, devs, size);
                ks[r].n = sizes[si];
                ks[r].t = ti ? DTYPE_F64 : DTYPE_F32;
            }
            run_ranks(ks, size);
            for (int r = 0; r < size; r++) {
                comm_free(ks[r].comm);
                dev_free_device(ks[r].dev);
            }
            nccl_world_free(w);
        }
}

struct swap {
    struct comm *comm;
    struct dev *dev;
    float got;
    int rc;
};

/* Send 8 MiB to the other rank, then receive its 8 MiB: with a waiting send both wait forever. */
static void *swap_main(void *p)
{
    struct swap *w = p;
    int me = w->comm->rank;
    const size_t bytes = 8 << 20;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(w->dev)));
    void *s = dev_alloc(w->dev, bytes, "send"), *r = dev_alloc(w->dev, bytes, "recv");
    dev_fill(w->dev, DTYPE_F32, s, bytes / 4, me + 1.0);
    w->rc = comm_send(w->comm, s, bytes, 1 - me, 5);
    /* The lab may overwrite its buffer once send returns. */
    dev_fill(w->dev, DTYPE_F32, s, bytes / 4, -7.0);
    if (w->rc == 0)
        w->rc = comm_recv(w->comm, r, bytes, 1 - me, 5);
    dev_copy(w->dev, &w->got, (char *)r + bytes - 4, 4, DEV_D2H);
    return NULL;
}

Test(comm_cuda, nccl_sends_never_wait_for_the_receiver)
{
    need_gpus(2);
    int devs[2] = { 0, 1 };
    struct swap w[2];
    for (int r = 0; r < 2; r++)
        w[r].dev = dev_cuda_new(r, r);
    struct nccl_world *world = nccl_world_new(2, devs);
    cr_assert_eq(nccl_world_init_all(world), 0);
    for (int r = 0; r < 2; r++)
        w[r].comm = comm_nccl_rank(&world->links[r], r, 2, w[r].dev, devs, 2);
    pthread_t th[2];
    for (int r = 0; r < 2; r++)
        pthread_create(&th[r], NULL, swap_main, &w[r]);
    for (int r = 0; r < 2; r++)
        pthread_join(th[r], NULL);
    for (int r = 0; r < 2; r++) {
        cr_assert_eq(w[r].rc, 0);
        cr_assert_float_eq(w[r].got, 2.0f - r, 0, "rank %d received %g", r, w[r].got);
        comm_free(w[r].comm);
        dev_free_device(w[r].dev);
    }
    nccl_world_free(world);
}
#else
Test(comm_cuda, nccl_sends_never_wait_for_the_receiver)
{
    cr_skip_test("this build has no NCCL (nccl.h was not found beside CUDA)");
}

Test(comm_cuda, nccl_collectives_equal_the_serial_sums_with_a_gpu_per_rank)
{
    cr_skip_test("this build has no NCCL (nccl.h was not found beside CUDA)");
}
#endif
