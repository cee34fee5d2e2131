/*
 * comm_shared.c — the shared-device communicator's logic (comm_shared.h):
 * mailboxes with tag matching, staging blocks kept and reused per rank, the
 * barrier and abort.  The device is reached only through the world's hooks.
 *
 * A message and its staging block are one record.  Its sender takes it
 * from its own spares (or makes it, or grows a spare that is too small) and
 * its receiver gives it back once the copy out of it has finished, so after
 * the first messages a send allocates nothing, creates no event and calls
 * no malloc: on CUDA a cudaMalloc or cudaEventCreate per message, and the
 * device-wide synchronization of cudaFree, would sit inside every timed
 * transfer.  Spares beyond SPARES_MAX (a lab that sends many messages
 * before receiving them) are freed as they come back.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "comm_shared.h"
#include "mailq.h"
#include "ring_dev.h"
#include "util.h"

/* A message with its staging block. */
struct shared_msg {
    struct mailq_msg q;     /* link, source and tag; first, so a link is its message */
    size_t bytes;           /* payload of the message in flight */
    struct comm_site site;  /* the sender's call, for a receive that does not match it */
    int owner;              /* the rank whose spares it returns to */
    void *mem;              /* staging block (hooks'), NULL until a payload needs one */
    size_t cap;             /* bytes mem holds */
    void *ev;               /* orders the fill before the drain (hooks'); NULL if none */
};

/* Spare messages kept per rank, at most this many. */
#define SPARES_MAX 8

struct shared_box {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    struct mailq q;                     /* messages in arrival order */
};

/* A rank's spare messages, linked by q.next. */
struct shared_spares {
    pthread_mutex_t lock;               /* the owner takes, receivers give back */
    struct mailq_msg *head;
    int n;
};

struct comm_shared_world {
    int n;
    const struct comm_shared_hooks *hooks;  /* borrowed */
    struct comm_ops ops;        /* the ranks' table, named after the hooks */
    struct shared_box *boxes;   /* one per rank */
    struct shared_spares *spares;   /* one per rank */
    atomic_int aborted;         /* a rank failed (atomic: read under each box's own lock) */
    pthread_mutex_t bar_lock;   /* the barrier: count of arrivals in this round */
    pthread_cond_t bar_cv;
    int bar_count;
    unsigned bar_round;
};

/* A rank's handle state (comm->impl). */
struct shared_rank {
    struct comm_shared_world *w;
    struct dev *dev;            /* the rank's device; borrowed */
    struct ring_dev *ring;      /* the collectives' kept scratch; owned */
};

static const struct comm_ops shared_ops;

struct comm_shared_world *comm_shared_world_new(int n, const struct comm_shared_hooks *hooks)
{
    struct comm_shared_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->hooks = hooks;
    w->ops = shared_ops;
    w->ops.name = hooks->name;
    w->boxes = xcalloc((size_t)n, sizeof *w->boxes);
    w->spares = xcalloc((size_t)n, sizeof *w->spares);
    for (int r = 0; r < n; r++) {
        pthread_mutex_init(&w->boxes[r].lock, NULL);
        pthread_cond_init(&w->boxes[r].arrived, NULL);
        pthread_mutex_init(&w->spares[r].lock, NULL);
    }
    atomic_init(&w->aborted, 0);
    pthread_mutex_init(&w->bar_lock, NULL);
    pthread_cond_init(&w->bar_cv, NULL);
    return w;
}

static void msg_free(const struct comm_shared_hooks *h, struct shared_msg *m)
{
    if (m->mem)
        h->block_free(m->mem);
    if (m->ev)
        h->event_free(m->ev);
    free(m);
}

static void free_list(const struct comm_shared_hooks *h, struct mailq_msg *m)
{
    for (struct mailq_msg *next; m; m = next) {
        next = m->next;
        msg_free(h, (struct shared_msg *)m);
    }
}

void comm_shared_world_free(struct comm_shared_world *w)
{
    if (!w)
        return;
    for (int r = 0; r < w->n; r++) {
        /* Messages nobody received (a lab that sent more than it received) go here. */
        free_list(w->hooks, w->boxes[r].q.head);
        free_list(w->hooks, w->spares[r].head);
        pthread_mutex_destroy(&w->boxes[r].lock);
        pthread_cond_destroy(&w->boxes[r].arrived);
        pthread_mutex_destroy(&w->spares[r].lock);
    }
    pthread_mutex_destroy(&w->bar_lock);
    pthread_cond_destroy(&w->bar_cv);
    free(w->boxes);
    free(w->spares);
    free(w);
}

void comm_shared_abort(struct comm_shared_world *w)
{
    for (int r = 0; r < w->n; r++) {
        pthread_mutex_lock(&w->boxes[r].lock);
        atomic_store(&w->aborted, 1);
        pthread_cond_broadcast(&w->boxes[r].arrived);
        pthread_mutex_unlock(&w->boxes[r].lock);
    }
    pthread_mutex_lock(&w->bar_lock);
    atomic_store(&w->aborted, 1);
    pthread_cond_broadcast(&w->bar_cv);
    pthread_mutex_unlock(&w->bar_lock);
}

static struct shared_rank *rank_of(const struct comm *c) { return c->impl; }

/*
 * A message from rank's spares whose block holds bytes: one that fits, else
 * a spare grown (half as large again at least, so a slowly growing size
 * regrows rarely), else a new one.  NULL after printing why.
 */
static struct shared_msg *msg_get(struct shared_rank *sr, int rank, size_t bytes)
{
    struct comm_shared_world *w = sr->w;
    const struct comm_shared_hooks *h = w->hooks;
    struct shared_spares *sp = &w->spares[rank];
    struct shared_msg *m = NULL;
    pthread_mutex_lock(&sp->lock);
    struct mailq_msg **pick = sp->head ? &sp->head : NULL;
    for (struct mailq_msg **pp = &sp->head; *pp; pp = &(*pp)->next)
        if (((struct shared_msg *)*pp)->cap >= bytes) {
            pick = pp;
            break;
        }
    if (pick) {
        m = (struct shared_msg *)*pick;
        *pick = m->q.next;
        sp->n--;
    }
    pthread_mutex_unlock(&sp->lock);
    if (!m) {
        m = xcalloc(1, sizeof *m);
        m->owner = rank;
        if (h->event_new && !(m->ev = h->event_new(sr->dev))) {
            free(m);
            return NULL;
        }
    }
    if (m->cap < bytes) {
        size_t want = bytes > m->cap + m->cap / 2 ? bytes : m->cap + m->cap / 2;
        if (m->mem)
            h->block_free(m->mem);
        m->cap = 0;
        if (!(m->mem = h->block_alloc(sr->dev, want))) {
            msg_free(h, m);
            return NULL;
        }
        m->cap = want;
    }
    m->q.next = NULL;
    return m;
}

/* m back to its owner's spares, whose copies in and out of it have finished. */
static void msg_put(struct comm_shared_world *w, struct shared_msg *m)
{
    struct shared_spares *sp = &w->spares[m->owner];
    pthread_mutex_lock(&sp->lock);
    if (sp->n < SPARES_MAX) {
        m->q.next = sp->head;
        sp->head = &m->q;
        sp->n++;
        m = NULL;
    }
    pthread_mutex_unlock(&sp->lock);
    if (m)
        msg_free(w->hooks, m);
}

static int sh_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct shared_rank *sr = rank_of(c);
    struct comm_shared_world *w = sr->w;
    const struct comm_shared_hooks *h = w->hooks;
    struct shared_msg *m = msg_get(sr, c->rank, bytes);
    if (!m)
        return -1;
    m->q.src = c->rank;
    m->q.tag = tag;
    m->bytes = bytes;
    m->site = c->site;
    int rc = bytes ? h->fill(sr->dev, m->mem, buf, bytes, m->ev) : 0;
    /* The send's cost is the staging copy: wait for it, so the wrapper's clock holds it. */
    if (rc == 0)
        rc = h->sync(sr->dev);
    if (rc < 0) {
        msg_put(w, m);
        return -1;
    }
    struct shared_box *b = &w->boxes[dst];
    pthread_mutex_lock(&b->lock);
    mailq_push(&b->q, &m->q);
    pthread_cond_broadcast(&b->arrived);
    pthread_mutex_unlock(&b->lock);
    comm_count(c, bytes, 0);
    return 0;
}

/* The first message from src with tag, waiting for it; NULL when a rank failed. */
static struct shared_msg *take(struct comm_shared_world *w, int me, int src, int tag)
{
    struct shared_box *b = &w->boxes[me];
    struct shared_msg *m = NULL;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        m = (struct shared_msg *)mailq_take(&b->q, src, tag);
        if (m || atomic_load(&w->aborted))
            break;
        pthread_cond_wait(&b->arrived, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    return m;
}

/* "file:line: " of a call, or nothing when the call was not made through a comm_* wrapper. */
static void site_text(char *out, size_t n, const struct comm_site *s, const char *fmt)
{
    if (s->file)
        snprintf(out, n, fmt, s->file, s->line);
    else
        out[0] = '\0';
}

static int sh_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    struct shared_rank *sr = rank_of(c);
    struct comm_shared_world *w = sr->w;
    const struct comm_shared_hooks *h = w->hooks;
    struct shared_msg *m = take(w, c->rank, src, tag);
    if (!m) {
        fprintf(stderr, "labrun: error: rank %d stops waiting for rank %d: a rank failed\n",
                c->rank, src);
        return -1;
    }
    int rc = 0;
    if (m->bytes != bytes) {
        char here[300], there[300];
        site_text(here, sizeof here, &c->site, "%s:%d: ");
        site_text(there, sizeof there, &m->site, " (sent at %s:%d)");
        fprintf(stderr, "labrun: error: %srank %d expected %zu bytes from rank %d (tag %d), got %zu%s\n",
                here, c->rank, bytes, src, tag, m->bytes, there);
        rc = -1;
    } else if (bytes) {
        rc = h->drain(sr->dev, buf, m->mem, bytes, m->ev);
    }
    /* The block goes back to its sender for reuse: the copy out of it must be done. */
    if (h->sync(sr->dev) < 0)
        rc = -1;
    comm_count(c, 0, m->bytes);
    msg_put(w, m);
    return rc;
}

static int sh_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    /* The send never waits for its receiver, so send-then-receive cannot deadlock in a ring. */
    if (sh_send(c, sbuf, sbytes, dst, tag) < 0)
        return -1;
    return sh_recv(c, rbuf, rbytes, src, tag);
}

static int sh_barrier(struct comm *c)
{
    struct shared_rank *sr = rank_of(c);
    struct comm_shared_world *w = sr->w;
    /* Work queued before the barrier is done before anyone leaves it. */
    if (w->hooks->sync(sr->dev) < 0)
        return -1;
    int rc = 0;
    pthread_mutex_lock(&w->bar_lock);
    unsigned round = w->bar_round;
    if (++w->bar_count == w->n) {
        w->bar_count = 0;
        w->bar_round++;
        pthread_cond_broadcast(&w->bar_cv);
    } else {
        while (w->bar_round == round && !atomic_load(&w->aborted))
            pthread_cond_wait(&w->bar_cv, &w->bar_lock);
        if (w->bar_round == round)
            rc = -1;
    }
    pthread_mutex_unlock(&w->bar_lock);
    if (rc < 0)
        fprintf(stderr, "labrun: error: rank %d leaves a barrier: a rank failed\n", c->rank);
    return rc;
}

/* ---- collectives: the device rings on buffers the device can use --------- */

static void *buf_in(struct shared_rank *sr, struct comm_shared_buf *b, const void *p, size_t bytes,
                    bool copy_in)
{
    const struct comm_shared_hooks *h = sr->w->hooks;
    if (h->coll_in)
        return h->coll_in(sr->dev, b, p, bytes, copy_in);
    *b = (struct comm_shared_buf){ .dev = (void *)p, .host = NULL, .bytes = bytes };
    return b->dev;
}

static void buf_out(struct shared_rank *sr, struct comm_shared_buf *b, bool copy_out)
{
    const struct comm_shared_hooks *h = sr->w->hooks;
    if (h->coll_out)
        h->coll_out(sr->dev, b, copy_out);
}

static size_t total_of(const size_t *counts, int n)
{
    size_t s = 0;
    for (int r = 0; r < n; r++)
        s += counts[r];
    return s;
}

static int sh_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    struct shared_rank *sr = rank_of(c);
    struct comm_shared_buf b;
    void *d = buf_in(sr, &b, buf, count * dtype_size(t), true);
    int rc = ring_dev_allreduce(c, sr->ring, d, count, t);
    buf_out(sr, &b, true);
    return rc;
}

static int sh_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                         enum dtype t)
{
    struct shared_rank *sr = rank_of(c);
    size_t es = dtype_size(t);
    struct comm_shared_buf sb, rb;
    const void *sd = buf_in(sr, &sb, sbuf, counts[c->rank] * es, true);
    void *rd = buf_in(sr, &rb, rbuf, total_of(counts, c->size) * es, false);
    int rc = ring_dev_allgatherv(c, sr->ring, sd, rd, counts, t);
    buf_out(sr, &sb, false);
    buf_out(sr, &rb, true);
    return rc;
}

static int sh_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                             enum dtype t)
{
    struct shared_rank *sr = rank_of(c);
    size_t es = dtype_size(t);
    struct comm_shared_buf sb, rb;
    const void *sd = buf_in(sr, &sb, sbuf, total_of(counts, c->size) * es, true);
    void *rd = buf_in(sr, &rb, rbuf, counts[c->rank] * es, false);
    int rc = ring_dev_reducescatterv(c, sr->ring, sd, rd, counts, t);
    buf_out(sr, &sb, false);
    buf_out(sr, &rb, true);
    return rc;
}

static int sh_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    struct shared_rank *sr = rank_of(c);
    struct comm_shared_buf b;
    void *d = buf_in(sr, &b, buf, count * dtype_size(t), true);
    int rc = ring_dev_broadcast(c, d, count, t, root);
    buf_out(sr, &b, true);
    return rc;
}

static void sh_free(struct comm *c)
{
    struct shared_rank *sr = rank_of(c);
    ring_dev_free(sr->ring);
    free(sr);
    c->impl = NULL;
}

/* The template of every world's table (the name is the hooks'). */
static const struct comm_ops shared_ops = {
    .name = "shared",
    .send = sh_send,
    .recv = sh_recv,
    .sendrecv = sh_sendrecv,
    .barrier = sh_barrier,
    .allreduce = sh_allreduce,
    .allgatherv = sh_allgatherv,
    .reducescatterv = sh_reducescatterv,
    .broadcast = sh_broadcast,
    .free = sh_free,
};

struct comm *comm_shared_rank(struct comm_shared_world *w, int r, struct dev *dev)
{
    struct shared_rank *sr = xcalloc(1, sizeof *sr);
    sr->w = w;
    sr->dev = dev;
    sr->ring = ring_dev_new(dev);
    struct comm *c = comm_new(&w->ops, r, w->n, sr);
    if (w->hooks->chunk_bytes)
        c->chunk_bytes = w->hooks->chunk_bytes;
    return c;
}
