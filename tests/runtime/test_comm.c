/*
 * Communicator tests: every collective of the threads backend, and of the
 * nccl-sim backend (the same rings held to NCCL's message rules), against a
 * serial reference, for 1 to 8 ranks and sizes 0, 1, and counts the rank
 * count does not divide; tagged point-to-point; byte accounting.
 *
 * Inputs are small integers, so every sum is exact in fp32 and fp64 and the
 * results must equal the reference bit for bit; one test adds numbers that
 * round, and holds the threads backend to the message ring's bits.  Ranks
 * record what they saw; assertions run on the test's own thread.
 */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "comm.h"
#include "timer.h"

static const size_t sizes[] = { 0, 1, 2, 7, 13, 64, 1001 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Rank r's element i: distinct per rank and element, small enough to add exactly. */
static double input(int r, size_t i) { return (double)(r * 7 + (int)(i % 11) - 5); }

enum which { ALLREDUCE, ALLGATHER, REDUCESCATTER, BROADCAST };

struct job {
    enum which which;
    enum dtype t;
    size_t count;       /* elements per rank (allgather: total, split unevenly) */
    size_t chunk;       /* comm chunk_bytes */
    int root;
    int bad[8];         /* mismatches seen per rank */
    int rc[8];
    uint64_t sent[8];   /* bytes sent per rank in the collective */
};

static int body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct job *j = arg;
    size_t es = dtype_size(j->t), count = j->count;
    c->chunk_bytes = j->chunk;
    int bad = 0, rc = 0;
    switch (j->which) {
    case ALLREDUCE: {
        char *buf = malloc(count * es + 1);
        for (size_t i = 0; i < count; i++)
            dtype_set(j->t, buf, i, input(rank, i));
        rc = comm_allreduce(c, buf, count, j->t);
        for (size_t i = 0; i < count; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, i);
            bad += dtype_get(j->t, buf, i) != want;
        }
        free(buf);
        j->sent[rank] = c->stats.sent[COMM_ALLREDUCE];
        break;
    }
    case ALLGATHER: {
        size_t counts[8], mine = comm_share(count, n, rank), off = comm_share_offset(count, n, rank);
        for (int r = 0; r < n; r++)
            counts[r] = comm_share(count, n, r);
        char *s = malloc(mine * es + 1), *out = malloc(count * es + 1);
        for (size_t i = 0; i < mine; i++)
            dtype_set(j->t, s, i, input(rank, off + i));
        rc = comm_allgatherv(c, s, out, counts, j->t);
        for (int r = 0; r < n; r++)
            for (size_t i = 0; i < counts[r]; i++) {
                size_t g = comm_share_offset(count, n, r) + i;
                bad += dtype_get(j->t, out, g) != input(r, g);
            }
        free(s);
        free(out);
        break;
    }
    case REDUCESCATTER: {
        size_t counts[8], mine = comm_share(count, n, rank), off = comm_share_offset(count, n, rank);
        for (int r = 0; r < n; r++)
            counts[r] = comm_share(count, n, r);
        char *s = malloc(count * es + 1), *out = malloc(mine * es + 1);
        for (size_t i = 0; i < count; i++)
            dtype_set(j->t, s, i, input(rank, i));
        rc = comm_reducescatterv(c, s, out, counts, j->t);
        for (size_t i = 0; i < mine; i++) {
            double want = 0;
            for (int r = 0; r < n; r++)
                want += input(r, off + i);
            bad += dtype_get(j->t, out, i) != want;
        }
        /* the send buffer is the caller's and must come back untouched */
        for (size_t i = 0; i < count; i++)
            bad += dtype_get(j->t, s, i) != input(rank, i);
        free(s);
        free(out);
        break;
    }
    case BROADCAST: {
        char *buf = malloc(count * es + 1);
        for (size_t i = 0; i < count; i++)
            dtype_set(j->t, buf, i, input(rank, i));
        rc = comm_broadcast(c, buf, count, j->t, j->root);
        for (size_t i = 0; i < count; i++)
            bad += dtype_get(j->t, buf, i) != input(j->root, i);
        free(buf);
        break;
    }
    }
    j->bad[rank] = bad;
    j->rc[rank] = rc;
    return rc;
}

/* The backends whose ranks are threads of this process. */
static const struct backend *const thread_backends[] = { &backend_cpu, &backend_nccl_sim };

static void run_all(enum which which, size_t chunk)
{
    for (size_t b = 0; b < sizeof thread_backends / sizeof *thread_backends; b++)
    for (int n = 1; n <= 8; n++)
        for (size_t si = 0; si < NSIZES; si++)
            for (int t = 0; t < 2; t++) {
                struct job j = { .which = which, .t = t ? DTYPE_F64 : DTYPE_F32,
                                 .count = sizes[si], .chunk = chunk, .root = n / 2 };
                int rc = thread_backends[b]->launch(n, body, &j);
                cr_assert_eq(rc, 0, "%s, ranks %d, size %zu: the collective failed",
                             thread_backends[b]->name, n, sizes[si]);
                for (int r = 0; r < n; r++)
                    cr_assert_eq(j.bad[r], 0, "%s, ranks %d, size %zu, %s: rank %d has %d wrong elements",
                                 thread_backends[b]->name, n, sizes[si], dtype_name(j.t), r, j.bad[r]);
            }
}

Test(comm, allreduce_equals_the_serial_sum_for_one_to_eight_ranks_and_every_size)
{
    run_all(ALLREDUCE, COMM_DEFAULT_CHUNK);
}

Test(comm, allreduce_moved_in_small_chunks_still_equals_the_serial_sum)
{
    run_all(ALLREDUCE, 12);     /* 3 fp32 or 1.5 fp64: chunks that split elements' blocks oddly */
}

Test(comm, allgather_of_uneven_blocks_puts_every_rank_block_in_place)
{
    run_all(ALLGATHER, 16);
}

Test(comm, reducescatter_gives_each_rank_the_sum_of_its_block)
{
    run_all(REDUCESCATTER, 16);
}

Test(comm, broadcast_copies_the_root_buffer_to_every_rank)
{
    run_all(BROADCAST, 40);
}

Test(comm, ring_allreduce_sends_two_times_n_minus_one_over_n_of_the_buffer)
{
    for (size_t b = 0; b < sizeof thread_backends / sizeof *thread_backends; b++)
    for (int n = 2; n <= 8; n++) {
        struct job j = { .which = ALLREDUCE, .t = DTYPE_F64, .count = (size_t)n * 120,
                         .chunk = COMM_DEFAULT_CHUNK };
        cr_assert_eq(thread_backends[b]->launch(n, body, &j), 0);
        uint64_t want = 2 * (uint64_t)(n - 1) * 120 * 8;
        for (int r = 0; r < n; r++)
            cr_assert_eq(j.sent[r], want, "ranks %d: rank %d sent %llu bytes, ring sends %llu",
                         n, r, (unsigned long long)j.sent[r], (unsigned long long)want);
    }
}

/* ---- point to point and barrier ---- */

struct p2p {
    int got[3];
    atomic_int arrived;
    int after[8];
};

static int tagged_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    if (rank == 0) {
        for (int tag = 0; tag < 3; tag++) {
            int v = 100 + tag;
            if (comm_send(c, &v, sizeof v, 1, tag) < 0)
                return -1;
        }
    } else {
        /* received in the opposite order from the sends: tags pick the message */
        for (int tag = 2; tag >= 0; tag--)
            if (comm_recv(c, &p->got[tag], sizeof(int), 0, tag) < 0)
                return -1;
    }
    return 0;
}

Test(comm, receives_match_messages_by_tag_not_by_arrival_order)
{
    struct p2p p = { .got = { 0 } };
    cr_assert_eq(backend_cpu.launch(2, tagged_body, &p), 0);
    for (int tag = 0; tag < 3; tag++)
        cr_assert_eq(p.got[tag], 100 + tag);
}

static int barrier_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    atomic_fetch_add(&p->arrived, 1);
    if (comm_barrier(c) < 0)
        return -1;
    p->after[rank] = atomic_load(&p->arrived);
    return 0;
}

Test(comm, no_rank_leaves_a_barrier_before_every_rank_has_entered_it)
{
    for (size_t b = 0; b < sizeof thread_backends / sizeof *thread_backends; b++)
    for (int n = 1; n <= 8; n++) {
        struct p2p p = { .arrived = 0 };
        cr_assert_eq(thread_backends[b]->launch(n, barrier_body, &p), 0);
        for (int r = 0; r < n; r++)
            cr_assert_eq(p.after[r], n, "ranks %d: rank %d left the barrier having seen %d",
                         n, r, p.after[r]);
    }
}

static int failing_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    if (rank == 1)
        return -1;          /* rank 1 fails before sending what rank 0 waits for */
    int v;
    return comm_recv(c, &v, sizeof v, 1, 0);
}

Test(comm, a_failing_rank_makes_its_peers_fail_instead_of_waiting_forever, .timeout = 10)
{
    cr_assert_eq(backend_cpu.launch(2, failing_body, NULL), -1);
    cr_assert_eq(backend_nccl_sim.launch(2, failing_body, NULL), -1);
}

static int size_mismatch_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    double v[2] = { 1, 2 };
    if (rank == 0)
        return comm_send(c, v, sizeof v, 1, 5);
    return comm_recv(c, v, sizeof v[0], 0, 5);
}

Test(comm, a_receive_of_the_wrong_size_is_an_error)
{
    cr_assert_eq(backend_cpu.launch(2, size_mismatch_body, NULL), -1);
    cr_assert_eq(backend_nccl_sim.launch(2, size_mismatch_body, NULL), -1);
}

Test(comm, shares_split_counts_evenly_with_the_remainder_first)
{
    cr_assert_eq(comm_share(10, 4, 0), 3);
    cr_assert_eq(comm_share(10, 4, 1), 3);
    cr_assert_eq(comm_share(10, 4, 2), 2);
    cr_assert_eq(comm_share(10, 4, 3), 2);
    cr_assert_eq(comm_share_offset(10, 4, 2), 6);
    cr_assert_eq(comm_share_offset(10, 4, 3), 8);
    cr_assert_eq(comm_share(0, 3, 2), 0);
}

/*
 * Inputs whose sums round: the threads backend's all-reduce (in place, piece
 * by piece) must give the bits of the ring that nccl-sim runs over messages
 * (coll.c), which sums each element in its whole-buffer block's order.
 */
struct bits_job {
    enum dtype t;
    size_t count;
    unsigned char *out[8];  /* each rank's result */
};

static double rounding_input(int r, size_t i) { return 1.0 / (double)(3 + r) + (double)i * 1e-3 / (double)(7 + r); }

static int bits_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct bits_job *j = arg;
    size_t es = dtype_size(j->t);
    unsigned char *buf = malloc(j->count * es + 1);
    for (size_t i = 0; i < j->count; i++)
        dtype_set(j->t, buf, i, rounding_input(rank, i));
    int rc = comm_allreduce(c, buf, j->count, j->t);
    j->out[rank] = buf;
    return rc;
}

/*
 * The threads backend's all-reduce goes two ways: when every rank has a core
 * its waits spin and it runs the ring; with more ranks than cores they sleep,
 * and calls of up to 32 KiB stage their inputs instead.  Each test below runs
 * once as the machine gives cores and once with every rank on one core, so
 * both ways run on any machine.
 */
static void *on_cores(int one)
{
    if (!one)
        return NULL;
    void *saved = timer_pin();  /* this thread on one core; the ranks it starts inherit it */
    cr_assert_not_null(saved, "cannot pin the test to one core");
    return saved;
}

/* Every size and rank count, both types, against nccl-sim's ring; `one`: every rank on one core. */
static void bits_at_every_size(int one)
{
    /* Elements: staged whole (up to 32 KiB), within one piece (256 KiB a block) and over several. */
    const size_t counts[] = { 1, 5, 1000, 4096, 8192, 8193, 200003 };
    void *saved = on_cores(one);
    for (int n = 2; n <= 8; n++)
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++)
            for (int t = 0; t < 2; t++) {
                struct bits_job a = { .t = t ? DTYPE_F64 : DTYPE_F32, .count = counts[k] };
                struct bits_job b = a;
                cr_assert_eq(backend_cpu.launch(n, bits_body, &a), 0);
                cr_assert_eq(backend_nccl_sim.launch(n, bits_body, &b), 0);
                size_t bytes = a.count * dtype_size(a.t);
                for (int r = 0; r < n; r++) {
                    cr_expect(memcmp(a.out[r], b.out[r], bytes) == 0,
                              "ranks %d%s, %zu %s: rank %d's sums differ from the ring's", n,
                              one ? " on one core" : "", a.count, dtype_name(a.t), r);
                    free(a.out[r]);
                    free(b.out[r]);
                }
            }
    timer_unpin(saved);
}

Test(comm, allreduce_gives_the_bits_of_the_message_ring_at_every_size)
{
    bits_at_every_size(0);
    bits_at_every_size(1);
}

/*
 * Calls of changing sizes in a row, staged and ringed in turn: a rank that
 * has seen every input of one call goes on to the next while the others
 * still sum, and must not disturb what they read.
 */
static const size_t changing[] = { 1, 300, 1024, 9000, 8192, 70000, 16, 4096, 65536, 7 };

static int changing_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    (void)d;
    atomic_int *wrong = arg;
    float *buf = malloc(70000 * sizeof *buf);
    int rc = 0;
    for (int round = 0; rc == 0 && round < 50; round++)
        for (size_t k = 0; rc == 0 && k < sizeof changing / sizeof *changing; k++) {
            size_t count = changing[k];
            for (size_t i = 0; i < count; i++)
                buf[i] = (float)(rank + 1) * (float)(i % 7 + 1);
            rc = comm_allreduce(c, buf, count, DTYPE_F32);
            for (size_t i = 0; rc == 0 && i < count; i++)
                if (buf[i] != (float)(n * (n + 1) / 2) * (float)(i % 7 + 1)) {
                    atomic_fetch_add(wrong, 1);
                    break;
                }
        }
    free(buf);
    return rc;
}

/*
 * rank_fn on 2 to nmax ranks of the cpu backend, as the machine gives cores
 * and with every rank on one core; it counts the calls whose sums were wrong.
 */
static void sums_both_ways(int (*rank_fn)(int, int, struct comm *, struct dev *, void *), int nmax)
{
    for (int one = 0; one < 2; one++) {
        void *saved = on_cores(one);
        for (int n = 2; n <= nmax; n++) {
            atomic_int wrong = 0;
            const char *where = one ? " on one core" : "";
            cr_assert_eq(backend_cpu.launch(n, rank_fn, &wrong), 0, "%d ranks%s", n, where);
            cr_expect_eq(atomic_load(&wrong), 0, "%d ranks%s: %d calls gave another sum", n, where,
                         atomic_load(&wrong));
        }
        timer_unpin(saved);
    }
}

Test(comm, allreduces_of_changing_sizes_in_a_row_each_give_the_sum)
{
    sums_both_ways(changing_body, 5);
}

/*
 * A rank that arrives late, in turn: the others spin for a while, then
 * sleep, and the late rank's first step must wake them (a wake-up lost
 * between the sleeper and the rank it waits for would hang the test).
 */
static int late_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    (void)d;
    atomic_int *wrong = arg;
    static const size_t counts[] = { 1024, 300000 };
    float *buf = malloc(300000 * sizeof *buf);
    if (!buf)
        return -1;
    int rc = 0;
    for (int call = 0; rc == 0 && call < 40; call++) {
        size_t count = counts[call % 2];
        for (size_t i = 0; i < count; i++)
            buf[i] = (float)(rank + 1);
        if (call % n == rank) {
            struct timespec late = { 0, 2000000 };  /* 2 ms: far past a wait's spin */
            nanosleep(&late, NULL);
        }
        rc = comm_allreduce(c, buf, count, DTYPE_F32);
        for (size_t i = 0; rc == 0 && i < count; i++)
            if (buf[i] != (float)(n * (n + 1) / 2)) {
                atomic_fetch_add(wrong, 1);
                break;
            }
    }
    free(buf);
    return rc;
}

Test(comm, a_rank_that_sleeps_while_it_waits_is_woken_by_the_late_rank, .timeout = 60)
{
    sums_both_ways(late_body, 3);
}
