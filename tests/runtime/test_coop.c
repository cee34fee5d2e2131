/*
 * coop tests: fibers (fiber.h) and the backend that runs every rank as one
 * on the calling thread (backend_coop.c).
 *
 *   - a switch saves one context and runs another, each on its own stack;
 *     a fiber whose function returns goes back to whoever started it;
 *   - ranks take turns only at communication calls, all on the test's own
 *     thread;
 *   - NCCL's rules hold as on nccl-sim: a size mismatch names both ranks,
 *     sizes and call sites; a deadlock is reported, never a hang, with the
 *     exact lines of every waiting rank;
 *   - a send completes only at its peer's receive, in virtual time too: the
 *     sender's clock, after its send, is no earlier than the receiver's when
 *     it received.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "comm.h"
#include "fiber.h"
#include "timer.h"

/* ---- fibers ---- */

struct pingpong {
    struct fiber *main, *f;
    char log[32];
    int n;
};

static void pingpong_main(void *arg)
{
    struct pingpong *p = arg;
    /* A local on this fiber's own stack must survive the switches. */
    volatile int mine = 42;
    for (int i = 0; i < 3; i++) {
        p->log[p->n++] = (char)('a' + i);
        fiber_switch(p->f, p->main);
    }
    p->log[p->n++] = mine == 42 ? 'z' : '!';
    /* Returning goes back to the fiber that started this one. */
}

Test(fiber, a_switch_runs_the_other_context_and_back_and_a_returning_fiber_goes_home)
{
    struct pingpong p = { .main = fiber_self() };
    cr_assert_not_null(p.main);
    cr_assert_eq(fiber_self(), p.main, "a thread has one context of its own");
    p.f = fiber_new(pingpong_main, &p, 64 << 10);
    cr_assert_not_null(p.f);
    for (int i = 0; i < 4; i++) {
        p.log[p.n++] = (char)('0' + i);
        fiber_switch(p.main, p.f);
    }
    cr_assert_str_eq(p.log, "0a1b2c3z");
    fiber_free(p.f);
    fiber_free(p.main);
}

struct chain {
    struct fiber *main, *f[3];
    int order[8], n;
};

static struct chain *the_chain;

/* Fiber k starts fiber k+1; each returns to the one that started it. */
static void chain_main(void *arg)
{
    int k = (int)(intptr_t)arg;
    struct chain *c = the_chain;
    c->order[c->n++] = k;
    if (k < 2)
        fiber_switch(c->f[k], c->f[k + 1]);
    c->order[c->n++] = 10 + k;
}

Test(fiber, a_fiber_started_by_another_fiber_returns_to_that_one)
{
    struct chain c = { .main = fiber_self() };
    the_chain = &c;
    for (int k = 0; k < 3; k++) {
        c.f[k] = fiber_new(chain_main, (void *)(intptr_t)k, 64 << 10);
        cr_assert_not_null(c.f[k]);
    }
    fiber_switch(c.main, c.f[0]);
    int want[] = { 0, 1, 2, 12, 11, 10 };
    cr_assert_eq(c.n, 6);
    for (int i = 0; i < 6; i++)
        cr_assert_eq(c.order[i], want[i], "step %d: %d, expected %d", i, c.order[i], want[i]);
    for (int k = 0; k < 3; k++)
        fiber_free(c.f[k]);
    fiber_free(c.main);
}

/* ---- the scheduler ---- */

static void nothing(void *arg)
{
}

/* stderr into a temporary file while the coop backend runs body; returns what was written (free it). */
static char *run_captured(int n, backend_body body, void *arg, int *rc)
{
    /* One switch first: a sanitizer's one-time note on swapcontext is then not in the text. */
    struct fiber *self = fiber_self(), *f = fiber_new(nothing, NULL, 64 << 10);
    cr_assert_not_null(f);
    fiber_switch(self, f);
    fiber_free(f);
    fiber_free(self);
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *rc = backend_coop.launch(n, body, arg);
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

/* Who ran when, as the ranks record it: "<rank><event>" in order. */
struct trace {
    pthread_t thread[4];
    char log[64];
    int n;
};

static void mark(struct trace *t, int rank, char what)
{
    t->log[t->n++] = (char)('0' + rank);
    t->log[t->n++] = what;
}

static int turns_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct trace *t = arg;
    t->thread[rank] = pthread_self();
    int v = rank, got = -1;
    int to = (rank + 1) % n, from = (rank + n - 1) % n;
    mark(t, rank, 'a');
    if (rank == 0) {
        /* A lone send returns at once; the receive must wait for rank 2. */
        if (comm_send(c, &v, sizeof v, to, 0) < 0)
            return -1;
        mark(t, rank, 's');
        if (comm_recv(c, &got, sizeof got, from, 0) < 0 || got != from)
            return -1;
        mark(t, rank, 'r');
        return 0;
    }
    /* The message is there already: no switch. */
    if (comm_recv(c, &got, sizeof got, from, 0) < 0 || got != from)
        return -1;
    mark(t, rank, 'r');
    if (comm_send(c, &v, sizeof v, to, 0) < 0)
        return -1;
    mark(t, rank, 's');
    return 0;
}

Test(coop, ranks_run_on_the_calling_thread_and_switch_only_when_they_must_wait)
{
    struct trace t = { .n = 0 };
    int rc;
    char *err = run_captured(3, turns_body, &t, &rc);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_str_eq(err, "");
    free(err);
    for (int r = 0; r < 3; r++)
        cr_assert(pthread_equal(t.thread[r], pthread_self()), "rank %d ran on another thread", r);
    /*
     * Rank 0 sends and waits for rank 2; rank 1 finds its message there and
     * runs on to its end (where it waits for its send to be received); so
     * does rank 2; only then is rank 0 back.
     */
    cr_assert_str_eq(t.log, "0a0s1a1r1s2a2r2s0r");
}

/* The lines of the call sites the messages below name. */
static int mismatch_send_line, mismatch_recv_line;

static int mismatch_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    double big[4] = { 0 };
    char small = 0;
    if (rank == 0) {
        mismatch_send_line = __LINE__ + 1;
        return comm_send(c, big, sizeof big, 1, 1);
    }
    mismatch_recv_line = __LINE__ + 1;
    return comm_recv(c, &small, 1, 0, 1);
}

Test(coop, a_receive_that_meets_a_send_of_another_size_names_both_ranks_sizes_and_call_sites)
{
    int rc;
    char *err = run_captured(2, mismatch_body, NULL, &rc);
    cr_assert_eq(rc, -1);
    char want[512];
    snprintf(want, sizeof want,
             "labrun: error: coop: rank 1's recv of 1 bytes from rank 0 (%s:%d) meets rank 0's send of 32 "
             "bytes (%s:%d) on communicator up-even: NCCL matches the messages of two ranks in the order they "
             "were posted, without tags\n",
             __FILE__, mismatch_recv_line, __FILE__, mismatch_send_line);
    cr_assert_str_eq(err, want);
    free(err);
}

static int deadlock_line[2];

/* Each rank receives first: under NCCL both wait forever. */
static int deadlock_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    int v = rank;
    deadlock_line[rank] = __LINE__ + 1;
    if (comm_recv(c, &v, sizeof v, 1 - rank, 0) < 0)
        return -1;
    return comm_send(c, &v, sizeof v, 1 - rank, 0);
}

Test(coop, a_deadlock_is_reported_with_every_waiting_rank_its_operation_peer_and_call_site, .timeout = 20)
{
    int rc;
    char *err = run_captured(2, deadlock_body, NULL, &rc);
    cr_assert_eq(rc, -1);
    char want[1024];
    snprintf(want, sizeof want,
             "labrun: error: coop: deadlock: every rank waits and none can go on (under NCCL this run would hang):\n"
             "  rank 0: waits in recv at %s:%d: its receive of 4 bytes from rank 1 on communicator down-even "
             "waits: rank 1 has not posted the matching send\n"
             "  rank 1: waits in recv at %s:%d: its receive of 4 bytes from rank 0 on communicator up-even "
             "waits: rank 0 has not posted the matching send\n",
             __FILE__, deadlock_line[0], __FILE__, deadlock_line[1]);
    cr_assert_str_eq(err, want);
    free(err);
}

/* Each rank's virtual clock at the points below, in seconds from its start. */
struct clocks {
    double start[2], before_recv, after_send, after_recv;
};

/* Burn at least s seconds of this rank's own CPU time. */
static void compute(double s)
{
    double t0 = timer_thread_cpu();
    volatile double x = 0;
    while (timer_thread_cpu() - t0 < s)
        for (int i = 0; i < 1000; i++)
            x += i;
}

static int late_receiver_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    struct clocks *k = arg;
    double v = 5;
    k->start[rank] = timer_wall();
    if (rank == 0) {
        /* The all-reduce's ring steps are groups (a send and a receive) that wait for completion. */
        int rc = comm_allreduce(c, &v, 1, DTYPE_F64);
        k->after_send = timer_wall() - k->start[0];
        return rc || v != 10 ? -1 : 0;
    }
    compute(0.05);
    k->before_recv = timer_wall() - k->start[1];
    int rc = comm_allreduce(c, &v, 1, DTYPE_F64);
    k->after_recv = timer_wall() - k->start[1];
    return rc || v != 10 ? -1 : 0;
}

Test(coop, a_send_in_a_group_completes_only_at_its_peers_receive_in_virtual_time_too)
{
    struct clocks k = { .after_send = -1 };
    int rc;
    char *err = run_captured(2, late_receiver_body, &k, &rc);
    cr_assert_eq(rc, 0, "%s", err);
    free(err);
    /* Rank 1 computed at least 50 ms of its own before receiving; rank 0 waited for it. */
    cr_assert(k.before_recv >= 0.05, "rank 1's clock before its receive: %g s", k.before_recv);
    cr_assert(k.after_send >= k.before_recv, "rank 0's sends completed at %g s, before rank 1 received (%g s)",
              k.after_send, k.before_recv);
    cr_assert(k.after_recv >= k.before_recv);
}

/* Both ranks burn the same CPU time: in parallel, the step takes it once, not twice. */
static int parallel_body(int rank, int n, struct comm *c, struct dev *d, void *arg)
{
    double *spent = arg;
    double w0 = timer_wall();
    compute(0.05);
    if (comm_barrier(c) < 0)
        return -1;
    spent[rank] = timer_wall() - w0;
    spent[2 + rank] = timer_thread_cpu_real();
    return 0;
}

Test(coop, each_ranks_clock_runs_only_while_it_runs)
{
    double spent[4] = { 0 };
    double cpu0 = timer_thread_cpu_real();
    int rc;
    char *err = run_captured(2, parallel_body, spent, &rc);
    cr_assert_eq(rc, 0, "%s", err);
    free(err);
    double real = timer_thread_cpu_real() - cpu0;
    /* The thread spent both ranks' time; each rank's clock shows its own, and the barrier waits for the later. */
    cr_assert(real >= 0.1, "the thread ran both ranks: %g s", real);
    for (int r = 0; r < 2; r++)
        cr_assert(spent[r] >= 0.05 && spent[r] < real, "rank %d's step: %g s of the thread's %g s", r, spent[r],
                  real);
}
