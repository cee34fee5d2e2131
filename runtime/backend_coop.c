/*
 * backend_coop.c — the coop backend: every rank is a fiber (fiber.h) on the
 * calling thread, run round-robin; a rank gives up the thread only when it
 * must wait in a communication call.  Messages follow NCCL's rules through
 * the same engine as nccl-sim (nsim.h) and its communicator (comm_nsim.c);
 * only the waiting differs: a rank yields to the scheduler here instead of
 * sleeping on a condition variable.
 *
 * Virtual time.  The ranks take turns on one thread, so the scheduler gives
 * each its own clock (timer_use_clock): a rank's clock runs only while the
 * rank runs, by the thread's CPU time, and a message moves it on, to when the
 * message could have arrived had the ranks run in parallel (the engine asks:
 * a receive's copy starts no earlier than its send was posted; a send that
 * waits completes when its peer's copy did).  What a lab times with the
 * runtime's clocks is thus the schedule replayed in virtual time from costs
 * measured on one thread: each rank as if it had a core of its own.  The
 * report labels such figures replayed (lab_ctx.timed).
 *
 * The runtime files the coop backend needs, for a build with one thread and
 * no OS affinity calls (the browser's) to link exactly them: backend_coop.c,
 * a fiber.h implementation (fiber_ucontext.c natively), nsim.c, comm_nsim.c,
 * comm.c, coll.c, timer.c (clocks only; not timer_cores.c), dev.c, dev_cpu.c,
 * fault.c (the rank for messages, the --timeout picture), and util.c from
 * libqz.  The runtime around any backend (run.c, report*.c, params.c,
 * lab_helpers.c, lablimits.c, inert.c, backend.c's table) comes on top.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "fault.h"
#include "fiber.h"
#include "nsim.h"
#include "timer.h"
#include "util.h"

/* A rank's stack: labs keep their arrays on the heap, but BLAS and the sanitizers want room. */
#define COOP_STACK_BYTES ((size_t)8 << 20)

struct coop;

struct coop_rank {
    struct coop *co;
    int rank;
    struct fiber *fiber;
    int rc;
    bool done;
    bool waiting;               /* yielded in a wait of the engine */
    unsigned long seen;         /* the change count when it yielded */
    double vt;                  /* virtual seconds, from the launch, when it last yielded */
    double cpu;                 /* its own CPU seconds so far */
};

struct coop {
    int n;
    backend_body body;
    void *arg;
    struct nsim_world *w;
    struct comm **comms;
    struct dev **devs;
    struct coop_rank *ranks;
    struct fiber *sched;        /* the scheduler: the launching thread's own context */
    int cur;                    /* the rank running now; -1 in the scheduler */
    double real_in;             /* the thread's CPU time when cur was switched in */
    double origin;              /* the real wall time of the launch: virtual time zero */
    unsigned long changes;      /* bumped by the engine on every match, completion, finish, abort */
};

/* ---- Virtual clocks --------------------------------------------------------- */

static double rank_now(struct coop *co, int rank)
{
    const struct coop_rank *r = &co->ranks[rank];
    return rank == co->cur ? r->vt + (timer_thread_cpu_real() - co->real_in) : r->vt;
}

static double clock_wall(void *arg)
{
    struct coop *co = arg;
    return co->cur < 0 ? timer_wall_real() : co->origin + rank_now(co, co->cur);
}

static double clock_cpu(void *arg)
{
    struct coop *co = arg;
    if (co->cur < 0)
        return timer_thread_cpu_real();
    return co->ranks[co->cur].cpu + (timer_thread_cpu_real() - co->real_in);
}

static double waits_now(int rank, void *arg)
{
    return rank_now(arg, rank);
}

static void waits_advance(int rank, double t, void *arg)
{
    struct coop *co = arg;
    double now = rank_now(co, rank);
    if (t > now)
        co->ranks[rank].vt += t - now;
}

/* ---- Waiting: back to the scheduler ------------------------------------------ */

/* Called by the engine with the world's lock held; the lock is not held across the switch. */
static void waits_wait(struct nsim_world *w, int rank, void *arg)
{
    struct coop *co = arg;
    struct coop_rank *r = &co->ranks[rank];
    r->waiting = true;
    r->seen = co->changes;
    nsim_unlock(w);
    fiber_switch(r->fiber, co->sched);
    nsim_lock(w);
    r->waiting = false;
}

static void waits_wake(struct nsim_world *w, void *arg)
{
    struct coop *co = arg;
    co->changes++;
}

/* ---- The ranks and their scheduler ------------------------------------------ */

static void rank_main(void *p)
{
    struct coop_rank *r = p;
    struct coop *co = r->co;
    r->rc = co->body(r->rank, co->n, co->comms[r->rank], co->devs[r->rank], co->arg);
    /* Ranks waiting for this one would wait forever. */
    if (r->rc != 0)
        nsim_abort(co->w);
    if (nsim_rank_finish(co->w, r->rank) < 0)
        r->rc = -1;
    r->done = true;
    /* Returning switches back to the scheduler, which started this fiber. */
}

/* Run rank r until it yields or ends, its clocks running meanwhile. */
static void run_rank(struct coop *co, struct coop_rank *r)
{
    co->cur = r->rank;
    fault_set_rank(r->rank);
    co->real_in = timer_thread_cpu_real();
    fiber_switch(co->sched, r->fiber);
    double spent = timer_thread_cpu_real() - co->real_in;
    r->vt += spent;
    r->cpu += spent;
    fault_set_rank(-1);
    co->cur = -1;
}

/*
 * Round-robin over the live ranks; a waiting rank is resumed only after
 * something changed.  The engine ends a deadlock (every rank waits, none can
 * go on) itself, saying where each rank waits; should every live rank still
 * wait with nothing changed, the run is stopped rather than spun forever.
 */
static void schedule(struct coop *co)
{
    for (int live = co->n; live > 0;) {
        bool ran = false;
        for (int i = 0; i < co->n; i++) {
            struct coop_rank *r = &co->ranks[i];
            if (r->done || (r->waiting && r->seen == co->changes))
                continue;
            ran = true;
            run_rank(co, r);
            if (r->done)
                live--;
        }
        if (!ran && live > 0) {
            fprintf(stderr, "labrun: error: coop: every rank waits and nothing changes:\n");
            nsim_describe(co->w);
            nsim_abort(co->w);
        }
    }
}

static void coop_describe(void *arg)
{
    struct coop *co = arg;
    nsim_describe(co->w);
}

static int coop_launch(int nranks, backend_body body, void *arg)
{
    /* One thread for every rank: OpenBLAS on it alone, so a GEMM's cost is the running rank's. */
    dev_cpu_set_blas_threads(1);
    struct coop co = { .n = nranks, .body = body, .arg = arg, .cur = -1 };
    struct nsim_waits waits = { .name = "coop", .wait = waits_wait, .wake = waits_wake, .now = waits_now,
                                .advance = waits_advance, .arg = &co };
    co.w = nsim_world_new_waits(nranks, &waits);
    co.comms = xcalloc((size_t)nranks, sizeof *co.comms);
    co.devs = xcalloc((size_t)nranks, sizeof *co.devs);
    co.ranks = xcalloc((size_t)nranks, sizeof *co.ranks);
    co.sched = fiber_self();
    int rc = co.sched ? 0 : -1;
    for (int r = 0; r < nranks && rc == 0; r++) {
        co.comms[r] = comm_nsim_rank(co.w, r, nranks);
        co.devs[r] = dev_cpu_new(r);
        co.ranks[r] = (struct coop_rank){ .co = &co, .rank = r };
        co.ranks[r].fiber = fiber_new(rank_main, &co.ranks[r], COOP_STACK_BYTES);
        if (!co.ranks[r].fiber) {
            fprintf(stderr, "labrun: error: coop: cannot make rank %d's stack (%zu MiB): out of memory\n",
                    r, COOP_STACK_BYTES >> 20);
            rc = -1;
        }
    }
    if (rc == 0) {
        struct timer_clock clock = { .wall = clock_wall, .cpu = clock_cpu, .arg = &co };
        co.origin = timer_wall_real();
        fault_watchdog_describe(coop_describe, &co);
        timer_use_clock(&clock);
        schedule(&co);
        timer_use_clock(NULL);
        fault_watchdog_describe(NULL, NULL);
        for (int r = 0; r < nranks; r++)
            if (co.ranks[r].rc != 0)
                rc = -1;
    }
    for (int r = 0; r < nranks; r++) {
        fiber_free(co.ranks[r].fiber);
        comm_free(co.comms[r]);
        dev_free_device(co.devs[r]);
    }
    fiber_free(co.sched);
    free(co.ranks);
    free(co.devs);
    free(co.comms);
    nsim_world_free(co.w);
    return rc;
}

static const char *coop_placement(void)
{
    return "ranks are coroutines on one thread, taking turns at their communication calls, under NCCL's "
           "rules (as nccl-sim); each rank keeps its own virtual clock, so times are replayed: measured "
           "on one thread, as if every rank had a core of its own";
}

const struct backend backend_coop = {
    .name = "coop",
    .summary = "ranks are coroutines on one thread under NCCL's rules, times replayed in virtual time "
               "(what a single-threaded host such as a browser runs)",
    .absent = NULL,
    .available = NULL,
    .launch = coop_launch,
    .is_root = NULL,
    .placement = coop_placement,
    .replays_time = true,
};
