/*
 * nsim.c — NCCL's matching rules on threads (nsim.h).
 *
 * Every posting is an entry in its rank's queue for its route (communicator);
 * only the head entry of a queue is active, which is how a rank's operations
 * on one communicator complete in issue order.  Every operation also waits
 * in the FIFO of its ordered pair (route, src, dst), sends and receives
 * apart: the heads of the two FIFOs are the k-th send and the k-th receive,
 * which match once both their entries are active.  The receiver's thread
 * then copies the payload (outside the lock) and both operations are done.
 *
 * This bookkeeping is the same whoever runs the ranks; only the waiting
 * differs (struct nsim_waits): the nccl-sim backend's threads sleep on a
 * condition variable, the coop backend's fibers yield to its scheduler, and
 * its virtual clocks learn from each match when a message could arrive.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nsim.h"
#include "util.h"

struct entry;

struct op {
    struct nsim_req req;
    struct entry *e;            /* the entry it belongs to */
    struct op *next;            /* in its pair's FIFO while unmatched */
    struct op *match;           /* the partner, once matched */
    double t_done;              /* the waits' clock when it completed (the receiver's, after its copy) */
    bool copying;               /* receive: its thread is copying the payload now (outside the lock) */
    bool done;
};

struct entry {
    struct entry *next;         /* in its (rank, route) queue */
    int rank;
    enum nccl_route route;
    enum comm_op what;          /* the lab's call that posted it */
    struct comm_site site;
    int nops, ndone;
    double t_post;              /* the waits' clock of its rank when posted */
    bool waited;                /* its poster waits for it and frees it; else it is freed when complete */
    bool complete;
    void *staged;               /* a lone send's copy of its payload (owned) */
    struct op ops[2];
};

struct fifo {
    struct op *head, *tail;
};

struct queue {
    struct entry *head, *tail;
};

/* What a rank's thread is doing, as far as the engine knows. */
struct rank_state {
    struct entry *waiting;      /* the entry it waits for in nsim_post; NULL when not */
    bool finishing;             /* in nsim_rank_finish, waiting for its sends */
    bool finished;
};

struct nsim_world {
    int n;
    pthread_mutex_t lock;
    pthread_cond_t changed;     /* the threads' waits: broadcast on every change */
    struct nsim_waits waits;    /* how ranks wait; wake on every match, completion, finish and abort */
    struct queue *queues;       /* [rank * NCCL_ROUTES + route] */
    struct fifo *sends, *recvs; /* unmatched operations, [(route * n + src) * n + dst] */
    struct rank_state *ranks;
    bool aborted;               /* a rank failed, sizes mismatched or every rank is stuck */
    bool said;                  /* the engine said why it stopped the run (a mismatch, a deadlock) */
};

static void wake(struct nsim_world *w);

/* ---- The threads' waits: a condition variable ---------------------------- */

static void cond_wait(struct nsim_world *w, int rank, void *arg)
{
    pthread_cond_wait(&w->changed, &w->lock);
}

static void cond_wake(struct nsim_world *w, void *arg)
{
    pthread_cond_broadcast(&w->changed);
}

struct nsim_world *nsim_world_new(int n)
{
    return nsim_world_new_waits(n, NULL);
}

struct nsim_world *nsim_world_new_waits(int n, const struct nsim_waits *waits)
{
    struct nsim_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->waits = waits ? *waits : (struct nsim_waits){ .name = "nccl-sim", .wait = cond_wait, .wake = cond_wake };
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    w->queues = xcalloc((size_t)n * NCCL_ROUTES, sizeof *w->queues);
    w->sends = xcalloc((size_t)n * (size_t)n * NCCL_ROUTES, sizeof *w->sends);
    w->recvs = xcalloc((size_t)n * (size_t)n * NCCL_ROUTES, sizeof *w->recvs);
    w->ranks = xcalloc((size_t)n, sizeof *w->ranks);
    return w;
}

static void entry_free(struct entry *e)
{
    free(e->staged);
    free(e);
}

void nsim_world_free(struct nsim_world *w)
{
    if (!w)
        return;
    /* Entries left queued belong to a run that failed; nobody touches them any more. */
    for (int q = 0; q < w->n * NCCL_ROUTES; q++)
        for (struct entry *e = w->queues[q].head, *next; e; e = next) {
            next = e->next;
            entry_free(e);
        }
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->changed);
    free(w->queues);
    free(w->sends);
    free(w->recvs);
    free(w->ranks);
    free(w);
}

void nsim_abort(struct nsim_world *w)
{
    pthread_mutex_lock(&w->lock);
    w->aborted = true;
    wake(w);
    pthread_mutex_unlock(&w->lock);
}

/* ---- Waiting and time (w->lock held) -------------------------------------- */

static void wake(struct nsim_world *w)
{
    w->waits.wake(w, w->waits.arg);
}

/* Rank `rank` waits for a change: returns with the lock held again. */
static void wait_here(struct nsim_world *w, int rank)
{
    w->waits.wait(w, rank, w->waits.arg);
}

static double clock_of(struct nsim_world *w, int rank)
{
    return w->waits.now ? w->waits.now(rank, w->waits.arg) : 0;
}

static void advance(struct nsim_world *w, int rank, double t)
{
    if (w->waits.advance)
        w->waits.advance(rank, t, w->waits.arg);
}

/* ---- Queues and matching (w->lock held) ---------------------------------- */

static struct queue *queue_of(struct nsim_world *w, int rank, enum nccl_route route)
{
    return &w->queues[rank * NCCL_ROUTES + (int)route];
}

static bool active(struct nsim_world *w, const struct entry *e)
{
    return queue_of(w, e->rank, e->route)->head == e;
}

static size_t pair_of(const struct nsim_world *w, enum nccl_route route, int src, int dst)
{
    return ((size_t)route * (size_t)w->n + (size_t)src) * (size_t)w->n + (size_t)dst;
}

/* The FIFO an operation waits in, and the one its partner waits in. */
static struct fifo *own_fifo(struct nsim_world *w, const struct op *o)
{
    return o->req.send ? &w->sends[pair_of(w, o->req.route, o->e->rank, o->req.peer)]
                       : &w->recvs[pair_of(w, o->req.route, o->req.peer, o->e->rank)];
}

static struct fifo *partner_fifo(struct nsim_world *w, const struct op *o)
{
    return o->req.send ? &w->recvs[pair_of(w, o->req.route, o->e->rank, o->req.peer)]
                       : &w->sends[pair_of(w, o->req.route, o->req.peer, o->e->rank)];
}

static void fifo_push(struct fifo *f, struct op *o)
{
    o->next = NULL;
    if (f->tail)
        f->tail->next = o;
    else
        f->head = o;
    f->tail = o;
}

static void fifo_pop(struct fifo *f)
{
    f->head = f->head->next;
    if (!f->head)
        f->tail = NULL;
}

static const char *site_file(const struct entry *e)
{
    return e->site.file ? e->site.file : "?";
}

/* The k-th send met a k-th receive of another size: NCCL would deliver garbage or hang. */
static void mismatch(struct nsim_world *w, const struct op *s, const struct op *r)
{
    fprintf(stderr,
            "labrun: error: %s: rank %d's %s of %zu bytes from rank %d (%s:%d) meets rank %d's "
            "%s of %zu bytes (%s:%d) on communicator %s: NCCL matches the messages of two ranks in "
            "the order they were posted, without tags\n",
            w->waits.name, r->e->rank, comm_op_name(r->e->what), r->req.bytes, s->e->rank, site_file(r->e),
            r->e->site.line, s->e->rank, comm_op_name(s->e->what), s->req.bytes, site_file(s->e),
            s->e->site.line, nccl_route_name(s->req.route));
    w->aborted = true;
    w->said = true;
}

/* Match the heads of o's pair while both are active. */
static void try_match(struct nsim_world *w, const struct op *o)
{
    struct fifo *fs = o->req.send ? own_fifo(w, o) : partner_fifo(w, o);
    struct fifo *fr = o->req.send ? partner_fifo(w, o) : own_fifo(w, o);
    while (!w->aborted && fs->head && fr->head && active(w, fs->head->e) && active(w, fr->head->e)) {
        struct op *s = fs->head, *r = fr->head;
        fifo_pop(fs);
        fifo_pop(fr);
        s->match = r;
        r->match = s;
        if (s->req.bytes != r->req.bytes)
            mismatch(w, s, r);
        wake(w);
    }
}

/* Try every unmatched operation of e (it just became active). */
static void activate(struct nsim_world *w, struct entry *e)
{
    for (int k = 0; k < e->nops; k++)
        if (!e->ops[k].match)
            try_match(w, &e->ops[k]);
}

static void op_done(struct nsim_world *w, struct op *o)
{
    struct entry *e = o->e;
    o->done = true;
    if (++e->ndone < e->nops)
        return;
    /* Complete: it is the head of its queue (only active entries match); the next one becomes active. */
    struct queue *q = queue_of(w, e->rank, e->route);
    q->head = e->next;
    if (!q->head)
        q->tail = NULL;
    e->complete = true;
    if (q->head)
        activate(w, q->head);
    if (!e->waited)
        entry_free(e);
    wake(w);
}

/* ---- Being stuck ---------------------------------------------------------- */

/* A receive of e that is matched and waits for its thread to copy it. */
static struct op *copy_due(struct entry *e)
{
    for (int k = 0; k < e->nops; k++) {
        struct op *o = &e->ops[k];
        if (!o->req.send && o->match && !o->done && !o->copying)
            return o;
    }
    return NULL;
}

/* Whether some receive of e has met its send: the data is coming, e will go on. */
static bool arriving(const struct entry *e)
{
    for (int k = 0; k < e->nops; k++)
        if (!e->ops[k].req.send && e->ops[k].match && !e->ops[k].done)
            return true;
    return false;
}

static bool has_queued(struct nsim_world *w, int rank)
{
    for (int r = 0; r < NCCL_ROUTES; r++)
        if (queue_of(w, rank, (enum nccl_route)r)->head)
            return true;
    return false;
}

/* Whether no rank can ever go on: each has finished or waits with nothing to do. */
static bool stuck(struct nsim_world *w)
{
    bool someone_waits = false;
    for (int r = 0; r < w->n; r++) {
        const struct rank_state *rs = &w->ranks[r];
        if (rs->finished)
            continue;
        if (rs->waiting) {
            if (rs->waiting->complete || arriving(rs->waiting))
                return false;
        } else if (!rs->finishing || !has_queued(w, r)) {
            return false;
        }
        someone_waits = true;
    }
    return someone_waits;
}

static const char *kind_of(const struct op *o)
{
    return o->req.send ? "send" : "receive";
}

/* Why o (unmatched, in an active entry) waits: what its peer has or has not posted. */
static void describe_partner(struct nsim_world *w, const struct op *o)
{
    const struct op *p = partner_fifo(w, o)->head;
    if (!p) {
        fprintf(stderr, "rank %d has not posted the matching %s", o->req.peer,
                o->req.send ? "receive" : "send");
        return;
    }
    const struct entry *h = queue_of(w, p->e->rank, p->e->route)->head;
    fprintf(stderr, "rank %d's matching %s (%s at %s:%d) is queued behind its %s at %s:%d on the same "
            "communicator, not yet complete", p->e->rank, kind_of(p), comm_op_name(p->e->what),
            site_file(p->e), p->e->site.line, comm_op_name(h->what), site_file(h), h->site.line);
}

static void describe_entry(struct nsim_world *w, const struct entry *e)
{
    const struct entry *h = queue_of(w, e->rank, e->route)->head;
    if (h != e) {
        fprintf(stderr, "it is queued on communicator %s behind its own %s at %s:%d, not yet complete\n",
                nccl_route_name(e->route), comm_op_name(h->what), site_file(h), h->site.line);
        e = h;
        fprintf(stderr, "      that one: ");
    }
    bool first = true;
    for (int k = 0; k < e->nops; k++) {
        const struct op *o = &e->ops[k];
        if (o->done || o->match)
            continue;
        fprintf(stderr, "%sits %s of %zu bytes %s rank %d on communicator %s waits: ", first ? "" : "; ",
                kind_of(o), o->req.bytes, o->req.send ? "to" : "from", o->req.peer,
                nccl_route_name(o->req.route));
        describe_partner(w, o);
        first = false;
    }
    fprintf(stderr, first ? "its data is arriving\n" : "\n");
}

static void describe_locked(struct nsim_world *w)
{
    for (int r = 0; r < w->n; r++) {
        const struct rank_state *rs = &w->ranks[r];
        fprintf(stderr, "  rank %d: ", r);
        if (rs->finished) {
            fprintf(stderr, "finished\n");
        } else if (rs->waiting) {
            fprintf(stderr, "waits in %s at %s:%d: ", comm_op_name(rs->waiting->what),
                    site_file(rs->waiting), rs->waiting->site.line);
            describe_entry(w, rs->waiting);
        } else if (rs->finishing) {
            const struct entry *e = NULL;
            for (int q = 0; q < NCCL_ROUTES && !e; q++)
                e = queue_of(w, r, (enum nccl_route)q)->head;
            fprintf(stderr, "its lab returned; its %s at %s:%d is not complete: ", e ? comm_op_name(e->what) : "?",
                    e ? site_file(e) : "?", e ? e->site.line : 0);
            if (e)
                describe_entry(w, e);
            else
                fprintf(stderr, "\n");
        } else {
            fprintf(stderr, "not in a communication call (computing, or stopped elsewhere)\n");
        }
    }
}

void nsim_describe(void *world)
{
    struct nsim_world *w = world;
    /* From the watchdog: a rank holds the lock only briefly, but never wait on it for long. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    if (pthread_mutex_timedlock(&w->lock, &until) != 0) {
        fprintf(stderr, "  (%s: the ranks' state could not be read)\n", w->waits.name);
        return;
    }
    fprintf(stderr, "%s: where each rank is:\n", w->waits.name);
    describe_locked(w);
    pthread_mutex_unlock(&w->lock);
}

/* Called by a rank about to sleep: when nobody can go on, say so once and stop the run. */
static bool check_stuck(struct nsim_world *w)
{
    if (!stuck(w))
        return false;
    fprintf(stderr, "labrun: error: %s: deadlock: every rank waits and none can go on "
            "(under NCCL this run would hang):\n", w->waits.name);
    describe_locked(w);
    w->aborted = true;
    w->said = true;
    wake(w);
    return true;
}

/* ---- Posting and waiting -------------------------------------------------- */

/* Copy (or add) the payload of r's matched send into r's buffer; called without the lock. */
static void deliver(struct op *r)
{
    const struct nsim_req *s = &r->match->req;
    if (!r->req.bytes)
        return;
    if (r->req.add)
        comm_sum_into(*r->req.add, r->req.rbuf, s->sbuf, r->req.bytes / dtype_size(*r->req.add));
    else
        memcpy(r->req.rbuf, s->sbuf, r->req.bytes);
}

/* Whether a receiver is copying from one of e's sends right now (its buffers must stay). */
static bool being_read(const struct entry *e)
{
    for (int k = 0; k < e->nops; k++) {
        const struct op *o = &e->ops[k];
        /* Not done: then neither is its partner, whose entry is still there. */
        if (o->req.send && !o->done && o->match && o->match->copying)
            return true;
    }
    return false;
}

static int wait_entry(struct nsim_world *w, struct entry *e)
{
    int rank = e->rank;
    struct rank_state *rs = &w->ranks[rank];
    int rc = 0;
    rs->waiting = e;
    for (;;) {
        struct op *r = w->aborted ? NULL : copy_due(e);
        if (r) {
            r->copying = true;
            /* The data can arrive once it was sent: the copy starts no earlier. */
            advance(w, rank, r->match->e->t_post);
            pthread_mutex_unlock(&w->lock);
            deliver(r);
            pthread_mutex_lock(&w->lock);
            r->copying = false;
            r->t_done = r->match->t_done = clock_of(w, rank);
            op_done(w, r->match);
            op_done(w, r);
            continue;
        }
        if (e->complete) {
            /* A send completes when its peer's copy did: this rank goes on no earlier. */
            for (int k = 0; k < e->nops; k++)
                advance(w, rank, e->ops[k].t_done);
            break;
        }
        if (w->aborted || check_stuck(w)) {
            rc = -1;
            break;
        }
        wait_here(w, rank);
    }
    /* Giving up: a receiver may still be reading what this rank lent it. */
    while (rc < 0 && being_read(e))
        wait_here(w, rank);
    rs->waiting = NULL;
    return rc;
}

int nsim_post(struct nsim_world *w, const struct comm *c, const struct nsim_req *ops, int n, bool wait)
{
    struct entry *e = xcalloc(1, sizeof *e);
    e->rank = c->rank;
    e->route = ops[0].route;
    e->what = c->cur;
    e->site = c->site;
    e->nops = n;
    e->waited = wait;
    e->t_post = clock_of(w, c->rank);
    for (int k = 0; k < n; k++) {
        e->ops[k].req = ops[k];
        e->ops[k].e = e;
    }
    if (!wait && n == 1 && ops[0].send && ops[0].bytes) {
        /* A lone send returns at once: like the cuda backend's staging copy, the payload is copied now. */
        e->staged = xmalloc(ops[0].bytes);
        memcpy(e->staged, ops[0].sbuf, ops[0].bytes);
        e->ops[0].req.sbuf = e->staged;
    }
    pthread_mutex_lock(&w->lock);
    if (w->aborted) {
        pthread_mutex_unlock(&w->lock);
        entry_free(e);
        return -1;
    }
    struct queue *q = queue_of(w, e->rank, e->route);
    if (q->tail)
        q->tail->next = e;
    else
        q->head = e;
    q->tail = e;
    for (int k = 0; k < n; k++)
        fifo_push(own_fifo(w, &e->ops[k]), &e->ops[k]);
    if (active(w, e))
        activate(w, e);
    int rc = 0;
    bool failed_quietly = false;
    if (wait) {
        rc = wait_entry(w, e);
        failed_quietly = rc < 0 && w->said;
        if (e->complete)
            entry_free(e);
    }
    pthread_mutex_unlock(&w->lock);
    if (rc < 0 && !failed_quietly) {
        const struct nsim_req *o = &ops[n - 1];
        fprintf(stderr, "labrun: error: rank %d stops waiting in %s (%s:%d) for rank %d: the run failed\n",
                c->rank, comm_op_name(c->cur), c->site.file ? c->site.file : "?", c->site.line, o->peer);
    }
    return rc;
}

int nsim_rank_finish(struct nsim_world *w, int rank)
{
    struct rank_state *rs = &w->ranks[rank];
    int rc = 0;
    pthread_mutex_lock(&w->lock);
    rs->finishing = true;
    while (has_queued(w, rank)) {
        if (w->aborted || check_stuck(w)) {
            rc = -1;
            break;
        }
        wait_here(w, rank);
    }
    rs->finishing = false;
    rs->finished = true;
    /* Ranks waiting for this one may now be stuck for good: let them look again. */
    wake(w);
    pthread_mutex_unlock(&w->lock);
    return rc;
}

void nsim_lock(struct nsim_world *w)
{
    pthread_mutex_lock(&w->lock);
}

void nsim_unlock(struct nsim_world *w)
{
    pthread_mutex_unlock(&w->lock);
}
