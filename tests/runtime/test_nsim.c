/*
 * nccl-sim tests: the rules that set NCCL apart from the threads backend's
 * tagged mailboxes, each shown by a program that the threads backend runs
 * and NCCL would not.
 *
 *   - messages between two ranks match in posting order, whatever the tags;
 *   - a receive that meets a send of another size names both call sites;
 *   - a rank's operations on one communicator complete in order, so a cycle
 *     through one communicator deadlocks, and the engine says who waits;
 *   - a send completes only when its peer receives it: a lab that returns
 *     with a send nobody receives would hang NCCL's stream.
 *
 * Ranks record what they saw; assertions run on the test's own thread.
 * What the engine prints goes to stderr, which a test reads back from a
 * temporary file.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "comm.h"
#include "nccl_route.h"

/* stderr into a temporary file while fn runs; returns what was written (free it). */
static char *capture_stderr(int (*launch)(int, backend_body, void *), int n, backend_body body,
                            void *arg, int *rc)
{
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *rc = launch(n, body, arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long len = ftell(tmp);
    if (len < 0)
        len = 0;
    char *text = calloc(1, (size_t)len + 1);
    rewind(tmp);
    size_t got = fread(text, 1, (size_t)len, tmp);
    text[got] = '\0';
    fclose(tmp);
    return text;
}

static void assert_says(const char *text, const char *what)
{
    cr_assert(strstr(text, what) != NULL, "expected \"%s\" in:\n%s", what, text);
}

/* ---- order, not tags ---- */

struct seen {
    int got[2];
    int rc[2];
};

static int tags_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct seen *s = arg;
    if (rank == 0) {
        int a = 1, b = 2;
        if (comm_send(c, &a, sizeof a, 1, 10) < 0 || comm_send(c, &b, sizeof b, 1, 20) < 0)
            return -1;
        return 0;
    }
    /* Tag 20 first: the threads backend picks the second message, NCCL the first. */
    s->rc[0] = comm_recv(c, &s->got[0], sizeof(int), 0, 20);
    s->rc[1] = comm_recv(c, &s->got[1], sizeof(int), 0, 10);
    return s->rc[0] | s->rc[1];
}

Test(nsim, messages_between_two_ranks_match_in_posting_order_whatever_their_tags)
{
    struct seen cpu = { .got = { 0 } }, sim = { .got = { 0 } };
    cr_assert_eq(backend_cpu.launch(2, tags_body, &cpu), 0);
    cr_assert_eq(cpu.got[0], 2, "the threads backend matches by tag");
    cr_assert_eq(backend_nccl_sim.launch(2, tags_body, &sim), 0);
    cr_assert_eq(sim.got[0], 1, "under NCCL's rules the first receive gets the first send");
    cr_assert_eq(sim.got[1], 2);
}

/* The lines of token_body's first send and first receive, as it records them. */
static int token_send_line, token_recv_line;

/* The turn-taking pattern NCCL cannot run: an activation, then a 1-byte token, received token first. */
static int token_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    double act[16] = { 0 };
    char token = 0;
    if (rank == 0) {
        token_send_line = __LINE__ + 1;
        if (comm_send(c, act, sizeof act, 1, 1) < 0)
            return -1;
        return comm_send(c, &token, 1, 1, 99);
    }
    token_recv_line = __LINE__ + 1;
    if (comm_recv(c, &token, 1, 0, 99) < 0)
        return -1;
    return comm_recv(c, act, sizeof act, 0, 1);
}

Test(nsim, a_receive_that_meets_a_send_of_another_size_names_both_ranks_sizes_and_call_sites)
{
    int rc;
    char *cpu = capture_stderr(backend_cpu.launch, 2, token_body, NULL, &rc);
    cr_assert_eq(rc, 0, "tags let the threads backend run it:\n%s", cpu);
    free(cpu);
    char *err = capture_stderr(backend_nccl_sim.launch, 2, token_body, NULL, &rc);
    cr_assert_eq(rc, -1);
    assert_says(err, "rank 1's recv of 1 bytes from rank 0");
    assert_says(err, "meets rank 0's send of 128 bytes");
    /* Both call sites, file and line, as the lab wrote them. */
    char recv_site[64], send_site[64];
    snprintf(recv_site, sizeof recv_site, "(%s:%d)", __FILE__, token_recv_line);
    snprintf(send_site, sizeof send_site, "(%s:%d)", __FILE__, token_send_line);
    assert_says(err, recv_site);
    assert_says(err, send_site);
    free(err);
}

/* ---- one communicator, one order ---- */

/*
 * Ranks 0, 2, 4 (ranks 1 and 3 idle).  Every message here travels up past a
 * rank, so on communicator far-up: rank 0 sends B to 2 then C to 4; rank 2
 * sends A to 4 then receives B; rank 4 receives C then A.  Eager sends (the
 * threads backend) run it.  Under NCCL rank 0's send of C waits for B to be
 * received, rank 2's receive of B waits behind its send of A, and rank 4
 * receives A only after C: a cycle.
 */
static int cycle_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    int v = rank;
    switch (rank) {
    case 0:
        if (comm_send(c, &v, sizeof v, 2, 1) < 0)
            return -1;
        return comm_send(c, &v, sizeof v, 4, 2);
    case 2:
        if (comm_send(c, &v, sizeof v, 4, 3) < 0)
            return -1;
        return comm_recv(c, &v, sizeof v, 0, 1);
    case 4:
        if (comm_recv(c, &v, sizeof v, 0, 2) < 0)
            return -1;
        return comm_recv(c, &v, sizeof v, 2, 3);
    }
    return 0;
}

Test(nsim, routes_put_an_even_ranks_upward_messages_on_one_communicator)
{
    cr_assert_eq(nccl_route_p2p(0, 1), NCCL_ROUTE_UP_EVEN);
    cr_assert_eq(nccl_route_p2p(2, 3), NCCL_ROUTE_UP_EVEN);
    cr_assert_eq(nccl_route_p2p(1, 0), NCCL_ROUTE_DOWN_EVEN);
    /* Between ranks that are not neighbours (an interleaved pipeline's wrap-around), one per direction. */
    cr_assert_eq(nccl_route_p2p(0, 2), NCCL_ROUTE_FAR_UP);
    cr_assert_eq(nccl_route_p2p(0, 3), NCCL_ROUTE_FAR_UP);
    cr_assert_eq(nccl_route_p2p(3, 0), NCCL_ROUTE_FAR_DOWN);
    cr_assert_neq(nccl_route_p2p(0, 3), nccl_route_p2p(0, 1));
    /* A stage's upward sends and its receives from the stage below travel apart. */
    cr_assert_neq(nccl_route_p2p(3, 4), nccl_route_p2p(2, 3));
    cr_assert_neq(nccl_route_p2p(3, 2), nccl_route_p2p(4, 3));
    cr_assert_neq(nccl_route_p2p(2, 3), nccl_route_p2p(3, 2));
}

Test(nsim, a_cycle_through_one_communicator_deadlocks_and_the_engine_says_who_waits_for_whom,
     .timeout = 20)
{
    int rc;
    char *cpu = capture_stderr(backend_cpu.launch, 5, cycle_body, NULL, &rc);
    cr_assert_eq(rc, 0, "eager sends run it:\n%s", cpu);
    free(cpu);
    char *err = capture_stderr(backend_nccl_sim.launch, 5, cycle_body, NULL, &rc);
    cr_assert_eq(rc, -1);
    assert_says(err, "deadlock: every rank waits and none can go on");
    assert_says(err, "rank 4: waits in recv at " __FILE__);
    assert_says(err, "rank 2: waits in recv at " __FILE__);
    assert_says(err, "queued on communicator far-up behind its own send");
    assert_says(err, "rank 1: finished");
    free(err);
}

/* ---- a send completes at its peer's receive ---- */

static int orphan_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    int v = 7;
    return rank == 0 ? comm_send(c, &v, sizeof v, 1, 0) : 0;
}

Test(nsim, a_send_nobody_receives_keeps_its_rank_from_finishing, .timeout = 20)
{
    int rc;
    char *err = capture_stderr(backend_nccl_sim.launch, 2, orphan_body, NULL, &rc);
    cr_assert_eq(rc, -1);
    assert_says(err, "rank 0: its lab returned; its send at " __FILE__);
    assert_says(err, "rank 1 has not posted the matching receive");
    free(err);
}

static int ring_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    int *got = arg;
    int v = rank * 10;
    /* Send, then receive, round a ring: NCCL's sends do not need the receive posted first. */
    if (comm_send(c, &v, sizeof v, (rank + 1) % n, 0) < 0)
        return -1;
    return comm_recv(c, &got[rank], sizeof(int), (rank + n - 1) % n, 0);
}

/*
 * From two ranks up: a rank's send to itself and its receive from itself
 * share one communicator, so outside a group the receive would wait behind
 * the send, as NCCL's would.
 */
Test(nsim, sends_return_before_their_receive_so_a_ring_of_send_then_receive_runs)
{
    for (int n = 2; n <= 8; n++) {
        int got[8] = { 0 };
        cr_assert_eq(backend_nccl_sim.launch(n, ring_body, got), 0, "ranks %d", n);
        for (int r = 0; r < n; r++)
            cr_assert_eq(got[r], ((r + n - 1) % n) * 10, "ranks %d: rank %d", n, r);
    }
}
