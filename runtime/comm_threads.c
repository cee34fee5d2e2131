/*
 * comm_threads.c — the threads backend's communicator: ranks are threads of
 * one process and every rank has a mailbox.  A send copies the message into
 * the receiver's mailbox (so it never waits for the receiver, as an eager MPI
 * send); a receive waits for the first message from that source with that
 * tag.  A lab's own sends and receives copy: a lab's rank never touches
 * another rank's memory; only the collectives below read a peer's buffer.
 *
 * Two things keep the copies cheap, since the collectives move megabytes
 * through here.  Message buffers are recycled through a pool: a fresh
 * multi-megabyte malloc comes from mmap, and touching its pages again on
 * every message cost more than the copy.  And sendrecv (used only by the
 * collectives, where every rank posts before it waits) lends its buffer
 * instead of copying it: the receiver copies straight from it and the sender
 * returns once it has, so each byte is copied once, as MPI's single-copy
 * shared-memory transports do.
 *
 * The all-reduce goes further (comm_threads_ar.c): a rank adds and copies
 * straight from its left neighbour's buffer, with no message at all, the
 * ranks keeping step with one counter each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "comm_threads_impl.h"
#include "mailq.h"
#include "timer.h"
#include "util.h"

struct message {
    struct mailq_msg q;     /* link, source and tag; first, so a link is its message */
    size_t bytes;
    size_t cap;             /* bytes data[] can hold (pooled buffers are reused) */
    const void *lent;       /* sendrecv: the sender's own buffer, copied from in place; else NULL */
    int consumed;           /* lent messages: the receiver has copied it (under the mailbox lock) */
    char data[];            /* the copied payload (eager messages) */
};

/* Pooled message buffers kept per world, at most this many. */
#define POOL_MAX 16

/* How long a wait spins before it sleeps. */
#define SPIN_SECONDS 10e-6

/* Wake every waiter of b (b->lock held). */
void comm_threads_box_changed(struct mailbox *b)
{
    atomic_fetch_add_explicit(&b->changes, 1, memory_order_release);
    pthread_cond_broadcast(&b->arrived);
}

/*
 * Wait until b changes; called and returns with b->lock held.  The ranks of
 * a collective hand chunks to each other in lock-step, a few microseconds
 * apart, while waking a thread that went to sleep costs tens of microseconds
 * (more on a virtual machine): at 1 MiB that was most of an all-reduce.  So
 * when every rank has a core, a wait first watches b for SPIN_SECONDS.  With
 * more ranks than cores it sleeps at once: spinning would hold the core the
 * awaited rank needs.  No pause instruction: under a hypervisor a pause loop
 * can make the virtual CPU yield.
 */
static void box_wait(const struct comm_threads_world *w, struct mailbox *b)
{
    if (w->spin) {
        unsigned long seen = atomic_load_explicit(&b->changes, memory_order_relaxed);
        pthread_mutex_unlock(&b->lock);
        double until = timer_wall() + SPIN_SECONDS;
        for (int i = 1; atomic_load_explicit(&b->changes, memory_order_acquire) == seen; i++)
            if (i % 32 == 0 && timer_wall() > until)
                break;
        pthread_mutex_lock(&b->lock);
        /* From here a change needs the lock, so the wait below cannot miss one. */
        if (atomic_load_explicit(&b->changes, memory_order_relaxed) != seen)
            return;
    }
    pthread_cond_wait(&b->arrived, &b->lock);
}

struct comm_threads_world *comm_threads_world_new(int n)
{
    struct comm_threads_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->boxes = xcalloc((size_t)n, sizeof *w->boxes);
    for (int r = 0; r < n; r++) {
        pthread_mutex_init(&w->boxes[r].lock, NULL);
        pthread_cond_init(&w->boxes[r].arrived, NULL);
        atomic_init(&w->boxes[r].changes, 0);
    }
    pthread_mutex_init(&w->pool_lock, NULL);
    w->spin = n <= timer_cores();
    w->ar = comm_threads_ar_slots(n);
    return w;
}

void comm_threads_world_free(struct comm_threads_world *w)
{
    if (!w)
        return;
    for (int r = 0; r < w->n; r++) {
        struct mailbox *b = &w->boxes[r];
        /* Messages nobody received (a lab that sent more than it received) are dropped here. */
        for (struct mailq_msg *m = b->q.head, *next; m; m = next) {
            next = m->next;
            free(m);
        }
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->arrived);
    }
    for (struct mailq_msg *m = w->pool, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    pthread_mutex_destroy(&w->pool_lock);
    free(w->ar);
    free(w->boxes);
    free(w);
}

/* A message buffer for bytes of payload: a pooled one large enough, or a new one. */
static struct message *message_get(struct comm_threads_world *w, size_t bytes)
{
    struct message *m = NULL;
    pthread_mutex_lock(&w->pool_lock);
    for (struct mailq_msg **pp = &w->pool; *pp; pp = &(*pp)->next) {
        if (((struct message *)*pp)->cap >= bytes) {
            m = (struct message *)*pp;
            *pp = m->q.next;
            w->npool--;
            break;
        }
    }
    pthread_mutex_unlock(&w->pool_lock);
    if (!m) {
        m = xmalloc(sizeof *m + bytes);
        m->cap = bytes;
    }
    m->q.next = NULL;
    m->lent = NULL;
    m->consumed = 0;
    return m;
}

/* Back to the pool (or freed when the pool is full). */
static void message_put(struct comm_threads_world *w, struct message *m)
{
    pthread_mutex_lock(&w->pool_lock);
    if (w->npool < POOL_MAX) {
        m->q.next = w->pool;
        w->pool = &m->q;
        w->npool++;
        m = NULL;
    }
    pthread_mutex_unlock(&w->pool_lock);
    free(m);
}

void comm_threads_abort(struct comm_threads_world *w)
{
    for (int r = 0; r < w->n; r++) {
        pthread_mutex_lock(&w->boxes[r].lock);
        w->aborted = 1;
        comm_threads_box_changed(&w->boxes[r]);
        pthread_mutex_unlock(&w->boxes[r].lock);
    }
}

/* Each rank's handle points at the world; the handle itself owns nothing extra. */
static struct comm_threads_world *world_of(const struct comm *c) { return c->impl; }

/* Append m to dst's mailbox and wake dst. */
static void post(struct comm_threads_world *w, struct message *m, int dst)
{
    struct mailbox *b = &w->boxes[dst];
    pthread_mutex_lock(&b->lock);
    mailq_push(&b->q, &m->q);
    comm_threads_box_changed(b);
    pthread_mutex_unlock(&b->lock);
}

static int th_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct message *m = message_get(world_of(c), bytes);
    m->q.src = c->rank;
    m->q.tag = tag;
    m->bytes = bytes;
    if (bytes)
        memcpy(m->data, buf, bytes);
    post(world_of(c), m, dst);
    comm_count(c, bytes, 0);
    return 0;
}

/*
 * Receive from src with tag into buf; with add (not NULL) the elements of
 * type *add are added into buf instead of copied.
 */
static int recv_into(struct comm *c, void *buf, size_t bytes, int src, int tag, const enum dtype *add)
{
    struct comm_threads_world *w = world_of(c);
    struct mailbox *b = &w->boxes[c->rank];
    struct message *m = NULL;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        m = (struct message *)mailq_take(&b->q, src, tag);
        if (m)
            break;
        if (w->aborted) {
            pthread_mutex_unlock(&b->lock);
            fprintf(stderr, "labrun: error: rank %d stops waiting for rank %d: a rank failed\n",
                    c->rank, src);
            return -1;
        }
        box_wait(w, b);
    }
    pthread_mutex_unlock(&b->lock);
    int rc = 0;
    if (m->bytes != bytes) {
        fprintf(stderr, "labrun: error: rank %d expected %zu bytes from rank %d (tag %d), got %zu\n",
                c->rank, bytes, src, tag, m->bytes);
        rc = -1;
    } else if (bytes && add) {
        comm_sum_into(*add, buf, m->lent ? m->lent : m->data, bytes / dtype_size(*add));
    } else if (bytes) {
        memcpy(buf, m->lent ? m->lent : m->data, bytes);
    }
    comm_count(c, 0, m->bytes);
    if (m->lent) {
        /* The sender waits for this; m lives on its stack and is not touched after. */
        pthread_mutex_lock(&b->lock);
        m->consumed = 1;
        comm_threads_box_changed(b);
        pthread_mutex_unlock(&b->lock);
    } else {
        message_put(w, m);
    }
    return rc;
}

static int th_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    return recv_into(c, buf, bytes, src, tag, NULL);
}

/*
 * Lend sbuf (no copy), receive (copying, or adding with add), then wait
 * until dst has taken what we lent.  Only the collectives call this, and
 * there every rank lends before it waits, so the wait always ends.
 */
static int lend_and_recv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                         void *rbuf, size_t rbytes, int src, int tag, const enum dtype *add)
{
    struct comm_threads_world *w = world_of(c);
    struct message m = { .q = { .src = c->rank, .tag = tag }, .bytes = sbytes, .lent = sbuf };
    post(w, &m, dst);
    comm_count(c, sbytes, 0);
    int rc = recv_into(c, rbuf, rbytes, src, tag, add);
    struct mailbox *b = &w->boxes[dst];
    pthread_mutex_lock(&b->lock);
    while (!m.consumed) {
        /* dst may never receive: take the loan back, unless dst is copying it now. */
        if (w->aborted && mailq_remove(&b->q, &m.q)) {
            rc = -1;
            break;
        }
        box_wait(w, b);
    }
    pthread_mutex_unlock(&b->lock);
    return rc;
}

static int th_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    return lend_and_recv(c, sbuf, sbytes, dst, rbuf, rbytes, src, tag, NULL);
}

/* The reduce-scatter's step: the chunk from src is added straight from its sender's buffer. */
static int th_sendrecv_add(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                           void *rbuf, size_t rbytes, int src, int tag, enum dtype t)
{
    return lend_and_recv(c, sbuf, sbytes, dst, rbuf, rbytes, src, tag, &t);
}

static const struct comm_ops threads_ops = {
    .name = "threads",
    .send = th_send,
    .recv = th_recv,
    .sendrecv = th_sendrecv,
    .sendrecv_add = th_sendrecv_add,
    .barrier = comm_generic_barrier,
    .allreduce = comm_threads_allreduce,
    .allgatherv = comm_generic_allgatherv,
    .reducescatterv = comm_generic_reducescatterv,
    .broadcast = comm_generic_broadcast,
    .free = NULL,
};

struct comm *comm_threads_rank(struct comm_threads_world *w, int r)
{
    return comm_new(&threads_ops, r, w->n, w);
}
