/*
 * nsim.h — NCCL's matching rules, on threads (internal to the runtime).
 *
 * The engine behind the nccl-sim backend (comm_nsim.c): ranks are threads of
 * this process, and their messages follow what NCCL does, not what the
 * threads backend's mailboxes allow:
 *
 *   - no tags: the k-th send from a to b on a communicator matches the k-th
 *     receive at b from a on it, whatever their sizes; a size that differs is
 *     an error naming both ranks, both sizes and both call sites;
 *   - each rank's operations on one communicator (a route, nccl_route.h)
 *     complete in the order that rank issued them; the operations of a group
 *     (a sendrecv) progress together;
 *   - a send completes only when its peer has reached the matching receive.
 *
 * So a lab whose message order NCCL would mismatch fails here with both call
 * sites, and one that would hang under NCCL hangs here too: the engine sees
 * when every rank waits and none can go on, and says which rank waits in
 * which operation for which peer (and the --timeout watchdog prints the same
 * picture for a run that is stuck for any other reason).
 *
 * All state is under one lock per world; data is copied by the receiving
 * rank's own thread, outside the lock.  How a rank waits is the one thing
 * that differs between the backends built on the engine: nccl-sim's threads
 * sleep on a condition variable, coop's fibers yield to its scheduler
 * (struct nsim_waits).
 */
#ifndef RT_NSIM_H
#define RT_NSIM_H

#include <stdbool.h>
#include <stddef.h>

#include "comm.h"
#include "nccl_route.h"

struct nsim_world;

/* The engine of n ranks whose threads wait on a condition variable. */
struct nsim_world *nsim_world_new(int n);

/*
 * How ranks wait, and the clocks of a backend that keeps virtual time.
 * wait and wake are called with the world's lock held; wait returns with it
 * held again, after a change or spuriously (the engine looks again).
 */
struct nsim_waits {
    const char *name;           /* the backend, for messages: "nccl-sim", "coop" */
    void (*wait)(struct nsim_world *w, int rank, void *arg);
    void (*wake)(struct nsim_world *w, void *arg);  /* something changed: waiters look again */
    /* Optional (NULL: no time kept): rank's clock now, and moving it on to at least t. */
    double (*now)(int rank, void *arg);
    void (*advance)(int rank, double t, void *arg);
    void *arg;
};
/* The engine of n ranks that wait as waits says (copied; NULL: a condition variable). */
struct nsim_world *nsim_world_new_waits(int n, const struct nsim_waits *waits);
/* The world's lock, for a wait that gives up the thread to another rank (coop) meanwhile. */
void nsim_lock(struct nsim_world *w);
void nsim_unlock(struct nsim_world *w);
/* Frees the world and whatever was never matched; every rank's comm first. */
void nsim_world_free(struct nsim_world *w);
/* A rank failed: every rank waiting in the engine gives up (returns -1). */
void nsim_abort(struct nsim_world *w);

/* One operation of a posting: a send of sbuf or a receive into rbuf. */
struct nsim_req {
    bool send;                  /* a send (else a receive) */
    int peer;                   /* dst of a send, src of a receive */
    enum nccl_route route;      /* the communicator it travels on */
    const void *sbuf;           /* send: the payload */
    void *rbuf;                 /* receive: where it lands */
    size_t bytes;
    const enum dtype *add;      /* receive: add elements of this type into rbuf instead of copying; NULL: copy */
};

/*
 * Post n (1 or 2) operations of rank `rank` as one group, issued by the call
 * c->cur at c->site (copied for messages).  With wait, returns once the group
 * is complete (0), or -1 when it failed or the run was aborted, after saying
 * why; the send buffers are lent and must stay until then.  Without wait (a
 * lone send), the payload is copied first and the call returns at once: the
 * send completes later, when its peer receives it.
 */
int nsim_post(struct nsim_world *w, const struct comm *c, const struct nsim_req *ops, int n, bool wait);

/*
 * A rank's body returned: wait until its sends are received (as NCCL's
 * stream would before the communicator is destroyed), then mark it finished.
 * Returns -1 when they never will be (deadlock or abort), after saying why.
 */
int nsim_rank_finish(struct nsim_world *w, int rank);

/* Rank r's handle (of n) on the nccl-sim communicator over w (borrowed; comm_nsim.c). */
struct comm *comm_nsim_rank(struct nsim_world *w, int r, int n);

/* What every rank is doing or waiting for, to stderr (the --timeout watchdog's picture). */
void nsim_describe(void *world);


#endif
