/*
 * mailq.h — a rank's mailbox queue, for the communicators whose ranks are
 * threads of this process (comm_threads.c, comm_shared.c; internal to
 * the runtime).  Messages are kept in arrival order and a receive takes the
 * first one from its source with its tag, so messages from one source with
 * one tag arrive in order (comm.h).  The queue only links: locking, waiting
 * and what a message carries are each communicator's own.
 */
#ifndef RT_MAILQ_H
#define RT_MAILQ_H

#include <stddef.h>

/* The link of a message; the first member of a communicator's message, so a link is its message. */
struct mailq_msg {
    struct mailq_msg *next;     /* next in arrival order */
    int src, tag;               /* the sending rank and the message's tag */
};

/* Messages that arrived and are not received yet; zero-initialized is empty. */
struct mailq {
    struct mailq_msg *head, *tail;
};

/* Append m (arrived last). */
static inline void mailq_push(struct mailq *q, struct mailq_msg *m)
{
    m->next = NULL;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
}

/* Unlink m, which follows prev (NULL: m is the head). */
static inline void mailq_unlink(struct mailq *q, struct mailq_msg *prev, struct mailq_msg *m)
{
    if (prev)
        prev->next = m->next;
    else
        q->head = m->next;
    if (q->tail == m)
        q->tail = prev;
}

/* The first message from src with tag, unlinked; NULL when none has arrived. */
static inline struct mailq_msg *mailq_take(struct mailq *q, int src, int tag)
{
    for (struct mailq_msg *prev = NULL, *m = q->head; m; prev = m, m = m->next)
        if (m->src == src && m->tag == tag) {
            mailq_unlink(q, prev, m);
            return m;
        }
    return NULL;
}

/* Unlink m if it is still queued; returns whether it was. */
static inline int mailq_remove(struct mailq *q, struct mailq_msg *m)
{
    for (struct mailq_msg *prev = NULL, *p = q->head; p; prev = p, p = p->next)
        if (p == m) {
            mailq_unlink(q, prev, m);
            return 1;
        }
    return 0;
}

#endif
