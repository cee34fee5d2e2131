/*
 * comm_threads.c — the threads backend's communicator: ranks are threads of
 * one process and every rank has a mailbox.  A send copies the message into
 * the receiver's mailbox (so it never waits for the receiver, as an eager MPI
 * send); a receive waits for the first message from that source with that
 * tag.  The copy is the point: a rank never reads another rank's memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "util.h"

struct message {
    struct message *next;
    int src, tag;
    size_t bytes;
    char data[];            /* the copied payload */
};

struct mailbox {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    struct message *head, *tail;    /* in arrival order */
};

struct comm_threads_world {
    int n;
    struct mailbox *boxes;  /* one per rank */
    int aborted;            /* a rank failed: receives give up (set under every box's lock) */
};

struct comm_threads_world *comm_threads_world_new(int n)
{
    struct comm_threads_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->boxes = xcalloc((size_t)n, sizeof *w->boxes);
    for (int r = 0; r < n; r++) {
        pthread_mutex_init(&w->boxes[r].lock, NULL);
        pthread_cond_init(&w->boxes[r].arrived, NULL);
    }
    return w;
}

void comm_threads_world_free(struct comm_threads_world *w)
{
    if (!w)
        return;
    for (int r = 0; r < w->n; r++) {
        struct mailbox *b = &w->boxes[r];
        /* Messages nobody received (a lab that sent more than it received) are dropped here. */
        for (struct message *m = b->head, *next; m; m = next) {
            next = m->next;
            free(m);
        }
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->arrived);
    }
    free(w->boxes);
    free(w);
}

void comm_threads_abort(struct comm_threads_world *w)
{
    for (int r = 0; r < w->n; r++) {
        pthread_mutex_lock(&w->boxes[r].lock);
        w->aborted = 1;
        pthread_cond_broadcast(&w->boxes[r].arrived);
        pthread_mutex_unlock(&w->boxes[r].lock);
    }
}

/* Each rank's handle points at the world; the handle itself owns nothing extra. */
static struct comm_threads_world *world_of(const struct comm *c) { return c->impl; }

static int th_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct mailbox *b = &world_of(c)->boxes[dst];
    struct message *m = xmalloc(sizeof *m + bytes);
    m->next = NULL;
    m->src = c->rank;
    m->tag = tag;
    m->bytes = bytes;
    if (bytes)
        memcpy(m->data, buf, bytes);
    pthread_mutex_lock(&b->lock);
    if (b->tail)
        b->tail->next = m;
    else
        b->head = m;
    b->tail = m;
    pthread_cond_broadcast(&b->arrived);
    pthread_mutex_unlock(&b->lock);
    comm_count(c, bytes, 0);
    return 0;
}

static int th_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    struct comm_threads_world *w = world_of(c);
    struct mailbox *b = &w->boxes[c->rank];
    struct message *m = NULL;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        struct message *prev = NULL;
        for (m = b->head; m; prev = m, m = m->next)
            if (m->src == src && m->tag == tag)
                break;
        if (m || w->aborted) {
            if (!m) {
                pthread_mutex_unlock(&b->lock);
                fprintf(stderr, "labrun: error: rank %d stops waiting for rank %d: a rank failed\n",
                        c->rank, src);
                return -1;
            }
            if (prev)
                prev->next = m->next;
            else
                b->head = m->next;
            if (b->tail == m)
                b->tail = prev;
            break;
        }
        pthread_cond_wait(&b->arrived, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    int rc = 0;
    if (m->bytes != bytes) {
        fprintf(stderr, "labrun: error: rank %d expected %zu bytes from rank %d (tag %d), got %zu\n",
                c->rank, bytes, src, tag, m->bytes);
        rc = -1;
    } else if (bytes) {
        memcpy(buf, m->data, bytes);
    }
    comm_count(c, 0, m->bytes);
    free(m);
    return rc;
}

static int th_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    /* Sends never block here, so send-then-receive cannot deadlock a ring. */
    if (th_send(c, sbuf, sbytes, dst, tag) < 0)
        return -1;
    return th_recv(c, rbuf, rbytes, src, tag);
}

static const struct comm_ops threads_ops = {
    .name = "threads",
    .send = th_send,
    .recv = th_recv,
    .sendrecv = th_sendrecv,
    .barrier = comm_generic_barrier,
    .allreduce = comm_generic_allreduce,
    .allgatherv = comm_generic_allgatherv,
    .reducescatterv = comm_generic_reducescatterv,
    .broadcast = comm_generic_broadcast,
    .free = NULL,
};

struct comm *comm_threads_rank(struct comm_threads_world *w, int r)
{
    return comm_new(&threads_ops, r, w->n, w);
}
