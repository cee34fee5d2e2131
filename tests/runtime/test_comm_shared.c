/*
 * The shared communicator's logic (comm_shared.c) with host hooks, ranks as
 * threads on cpu devices: the mailboxes, tag matching, size checks, the
 * barrier and abort that cuda-shared runs on a GPU, and the reuse of its
 * staging blocks, counted through hooks that wrap the host ones.  Ranks
 * record what they saw; assertions run on the test's own thread.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shared_ranks.h"

/* ---- hooks that count what the host hooks allocate ---- */

static atomic_int blocks_made, blocks_freed, events_made, events_freed;

static void *counting_block_alloc(struct dev *d, size_t bytes)
{
    atomic_fetch_add(&blocks_made, 1);
    return comm_shared_host_hooks.block_alloc(d, bytes);
}

static void counting_block_free(void *mem)
{
    atomic_fetch_add(&blocks_freed, 1);
    comm_shared_host_hooks.block_free(mem);
}

static void *counting_event_new(struct dev *d)
{
    atomic_fetch_add(&events_made, 1);
    return comm_shared_host_hooks.event_new(d);
}

static void counting_event_free(void *ev)
{
    atomic_fetch_add(&events_freed, 1);
    comm_shared_host_hooks.event_free(ev);
}

static struct comm_shared_hooks counting;

static void counting_init(void)
{
    counting = comm_shared_host_hooks;
    counting.block_alloc = counting_block_alloc;
    counting.block_free = counting_block_free;
    counting.event_new = counting_event_new;
    counting.event_free = counting_event_free;
}

TestSuite(comm_shared, .init = counting_init);

/* ---- point to point ---- */

#define NMSG 50

struct p2p {
    int got[NMSG];
    int rc[8];
    int send_line, recv_line;   /* where mismatch_body calls comm_send and comm_recv */
    atomic_int arrived;
    int wrong[8];           /* barrier rounds a rank left having seen too few or too many arrivals */
};

static int in_order_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    for (int i = 0; i < NMSG; i++) {
        int v = 1000 + i;
        int rc = rank == 0 ? comm_send(c, &v, sizeof v, 1, 3) : comm_recv(c, &p->got[i], sizeof v, 0, 3);
        if (rc < 0)
            return -1;
    }
    return 0;
}

Test(comm_shared, messages_from_one_source_with_one_tag_arrive_in_the_order_they_were_sent)
{
    struct p2p p = { .got = { 0 } };
    cr_assert_eq(shared_ranks_run(2, &counting, in_order_body, &p), 0);
    for (int i = 0; i < NMSG; i++)
        cr_assert_eq(p.got[i], 1000 + i, "message %d", i);
}

static int tagged_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    int one = 10, two = 20;
    if (rank == 0 && (comm_send(c, &one, sizeof one, 1, 1) < 0 || comm_send(c, &two, sizeof two, 1, 2) < 0))
        return -1;
    /* Both messages are queued when rank 1 starts receiving. */
    if (comm_barrier(c) < 0)
        return -1;
    if (rank == 1 && (comm_recv(c, &p->got[2], sizeof(int), 0, 2) < 0 ||
                      comm_recv(c, &p->got[1], sizeof(int), 0, 1) < 0))
        return -1;
    return 0;
}

Test(comm_shared, a_receive_for_tag_2_skips_a_queued_tag_1_message)
{
    struct p2p p = { .got = { 0 } };
    cr_assert_eq(shared_ranks_run(2, &counting, tagged_body, &p), 0);
    cr_assert_eq(p.got[2], 20);
    cr_assert_eq(p.got[1], 10);
}

static int mismatch_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    double v[2] = { 1, 2 };
    int rc;
    if (rank == 0)
        p->send_line = __LINE__, rc = comm_send(c, v, sizeof v, 1, 5);
    else
        p->recv_line = __LINE__, rc = comm_recv(c, v, sizeof v[0], 0, 5);
    p->rc[rank] = rc;
    return rc;
}

Test(comm_shared, a_receive_of_another_size_fails_naming_ranks_sizes_and_both_calls)
{
    struct p2p p = { .rc = { 7, 7 } };
    cr_redirect_stderr();
    cr_assert_eq(shared_ranks_run(2, &counting, mismatch_body, &p), -1);
    cr_assert_eq(p.rc[0], 0, "the send does not wait for the receiver");
    cr_assert_eq(p.rc[1], -1);
    char want[512];
    snprintf(want, sizeof want,
             "labrun: error: %s:%d: rank 1 expected 8 bytes from rank 0 (tag 5), got 16 (sent at %s:%d)\n",
             __FILE__, p.recv_line, __FILE__, p.send_line);
    fflush(stderr);
    cr_assert_stderr_eq_str(want);
}

static int barrier_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    for (int round = 1; round <= 3; round++) {
        atomic_fetch_add(&p->arrived, 1);
        if (comm_barrier(c) < 0)
            return -1;
        /* Every rank has arrived, and none counts the next round before all have read (second barrier). */
        if (atomic_load(&p->arrived) != round * n)
            p->wrong[rank]++;
        if (comm_barrier(c) < 0)
            return -1;
    }
    return 0;
}

Test(comm_shared, no_rank_leaves_a_barrier_before_every_rank_has_entered_it)
{
    for (int n = 1; n <= 8; n++) {
        struct p2p p = { .arrived = 0 };
        cr_assert_eq(shared_ranks_run(n, &counting, barrier_body, &p), 0);
        for (int r = 0; r < n; r++)
            cr_assert_eq(p.wrong[r], 0, "ranks %d: rank %d left %d barriers before every rank entered",
                         n, r, p.wrong[r]);
    }
}

/* ---- abort ---- */

/*
 * The failing rank gives the others a moment to block first.  The test
 * passes whether or not they have (a rank that arrives after the abort
 * gives up at once), so it does not depend on the machine being idle.
 */
static void pause_briefly(void)
{
    struct timespec ts = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
}

static int abort_recv_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    if (rank == 1) {
        pause_briefly();
        return -1;          /* fails before sending what rank 0 waits for */
    }
    int v;
    p->rc[rank] = comm_recv(c, &v, sizeof v, 1, 0);
    return p->rc[rank];
}

Test(comm_shared, a_failed_rank_wakes_a_rank_blocked_in_a_receive_which_then_fails, .timeout = 10)
{
    struct p2p p = { .rc = { 7 } };
    cr_redirect_stderr();
    cr_assert_eq(shared_ranks_run(2, &counting, abort_recv_body, &p), -1);
    cr_assert_eq(p.rc[0], -1);
}

static int abort_barrier_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct p2p *p = arg;
    if (rank == n - 1) {
        pause_briefly();
        return -1;          /* never reaches the barrier */
    }
    p->rc[rank] = comm_barrier(c);
    return p->rc[rank];
}

Test(comm_shared, a_failed_rank_wakes_the_ranks_blocked_in_a_barrier_which_then_fail, .timeout = 10)
{
    struct p2p p = { .rc = { 7, 7, 7 } };
    cr_redirect_stderr();
    cr_assert_eq(shared_ranks_run(3, &counting, abort_barrier_body, &p), -1);
    cr_assert_eq(p.rc[0], -1);
    cr_assert_eq(p.rc[1], -1);
}

/* ---- staging blocks ---- */

struct reuse {
    int rounds;             /* ping-pong rounds after the warm-up */
    size_t bytes;           /* the warm-up's size; later messages are at most this */
    int made_after_warmup;  /* blocks and events made after the warm-up, seen by rank 0 */
    int bad;                /* payload bytes that arrived wrong */
};

/* Rank 0 sends bytes of fill; rank 1 adds one to each and sends them back. */
static int exchange(struct comm *c, int rank, char *buf, size_t bytes, int fill)
{
    if (rank == 0) {
        memset(buf, fill, bytes);
        return comm_send(c, buf, bytes, 1, 0) < 0 || comm_recv(c, buf, bytes, 1, 0) < 0 ? -1 : 0;
    }
    if (comm_recv(c, buf, bytes, 0, 0) < 0)
        return -1;
    for (size_t k = 0; k < bytes; k++)
        buf[k]++;
    return comm_send(c, buf, bytes, 0, 0);
}

static int made(void)
{
    return atomic_load(&blocks_made) + atomic_load(&events_made);
}

static int ping_pong_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct reuse *u = arg;
    char *buf = malloc(u->bytes);
    int rc = exchange(c, rank, buf, u->bytes, 1);
    if (rc == 0)
        rc = comm_barrier(c);
    int before = made();
    for (int i = 0; rc == 0 && i < u->rounds; i++) {
        size_t len = u->bytes - (size_t)i % 7;      /* sizes up to the warm-up's */
        rc = exchange(c, rank, buf, len, i & 0x7f);
        if (rc == 0 && rank == 0)
            for (size_t k = 0; k < len; k++)
                u->bad += buf[k] != (char)((i & 0x7f) + 1);
    }
    if (rc == 0)
        rc = comm_barrier(c);
    if (rank == 0)
        u->made_after_warmup = made() - before;
    free(buf);
    return rc;
}

Test(comm_shared, after_a_warm_up_messages_reuse_their_staging_blocks_and_events)
{
    struct reuse u = { .rounds = 100, .bytes = 4096 };
    cr_assert_eq(shared_ranks_run(2, &counting, ping_pong_body, &u), 0);
    cr_assert_eq(u.bad, 0);
    cr_assert_eq(u.made_after_warmup, 0, "%d blocks or events made after the warm-up",
                 u.made_after_warmup);
    /* The warm-up made one block and one event per rank. */
    cr_assert_eq(atomic_load(&blocks_made), 2);
    cr_assert_eq(atomic_load(&events_made), 2);
    cr_assert_eq(atomic_load(&blocks_freed), 2);
    cr_assert_eq(atomic_load(&events_freed), 2);
}

struct batch {
    int batches, per_batch;
    int made_after_first;   /* blocks and events made after the first batch */
    int bad;                /* messages received out of order or wrong */
};

/* Rank 0 sends a batch before rank 1 receives any of it. */
static int batch_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct batch *b = arg;
    int before = 0;
    for (int k = 0; k < b->batches; k++) {
        if (k == 1)
            before = made();
        for (int i = 0; rank == 0 && i < b->per_batch; i++) {
            long v = k * 100 + i;
            if (comm_send(c, &v, sizeof v, 1, 4) < 0)
                return -1;
        }
        /* The whole batch is queued before rank 1 receives. */
        if (comm_barrier(c) < 0)
            return -1;
        for (int i = 0; rank == 1 && i < b->per_batch; i++) {
            long got = -1;
            if (comm_recv(c, &got, sizeof got, 0, 4) < 0)
                return -1;
            b->bad += got != k * 100 + i;
        }
        /* Every block is back before the next batch is sent. */
        if (comm_barrier(c) < 0)
            return -1;
    }
    if (rank == 0)
        b->made_after_first = made() - before;
    return 0;
}

Test(comm_shared, a_batch_of_messages_in_flight_is_served_by_the_blocks_of_the_first_batch)
{
    struct batch b = { .batches = 5, .per_batch = 5 };
    cr_assert_eq(shared_ranks_run(2, &counting, batch_body, &b), 0);
    cr_assert_eq(b.bad, 0);
    cr_assert_eq(atomic_load(&blocks_made), 5);
    cr_assert_eq(atomic_load(&events_made), 5);
    cr_assert_eq(b.made_after_first, 0);
}

static int grow_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct reuse *u = arg;
    char *buf = calloc(1, 4 * u->bytes);
    int rc = exchange(c, rank, buf, u->bytes, 3);
    /* A message larger than the block: that rank's block is regrown, once. */
    if (rc == 0)
        rc = exchange(c, rank, buf, 4 * u->bytes, 4);
    if (rc == 0)
        rc = exchange(c, rank, buf, 2 * u->bytes, 5);
    free(buf);
    return rc;
}

Test(comm_shared, a_message_larger_than_every_block_grows_one_instead_of_adding_one)
{
    struct reuse u = { .bytes = 1000 };
    cr_assert_eq(shared_ranks_run(2, &counting, grow_body, &u), 0);
    cr_assert_eq(atomic_load(&events_made), 2);
    cr_assert_eq(atomic_load(&blocks_made), 4, "a first block per rank, then one regrown per rank");
    cr_assert_eq(atomic_load(&blocks_freed), 4);
}

static int empty_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    char token = 0;
    for (int i = 0; i < 10; i++) {
        int rc = rank == 0 ? comm_send(c, &token, 0, 1, 8) : comm_recv(c, &token, 0, 0, 8);
        if (rc < 0)
            return -1;
    }
    return 0;
}

Test(comm_shared, empty_messages_need_no_staging_block)
{
    cr_assert_eq(shared_ranks_run(2, &counting, empty_body, NULL), 0);
    cr_assert_eq(atomic_load(&blocks_made), 0);
}

static int unreceived_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    double v[16] = { 0 };
    for (int i = 0; rank == 0 && i < 12; i++)
        if (comm_send(c, v, (size_t)(i % 4) * sizeof v[0] * 4, 1, i) < 0)
            return -1;
    return 0;
}

Test(comm_shared, freeing_the_world_frees_the_messages_nobody_received)
{
    cr_assert_eq(shared_ranks_run(3, &counting, unreceived_body, NULL), 0);
    cr_assert_eq(atomic_load(&events_made), 12);
    cr_assert_eq(atomic_load(&events_freed), 12);
    cr_assert_eq(atomic_load(&blocks_made), 9, "the empty messages have no block");
    cr_assert_eq(atomic_load(&blocks_freed), 9);
}
