/*
 * comm_threads_impl.h — the threads backend's shared state, for its two
 * halves (internal to the runtime): the mailboxes of comm_threads.c and the
 * all-reduce of comm_threads_ar.c, which reads its neighbour's buffer in
 * place and needs no mailbox, only the world's counters.
 */
#ifndef RT_COMM_THREADS_IMPL_H
#define RT_COMM_THREADS_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "comm.h"
#include "mailq.h"

struct mailbox {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    atomic_ulong changes;           /* bumped, under lock, with every broadcast of arrived */
    struct mailq q;                 /* messages in arrival order */
};

/* With more ranks than cores, an all-reduce of at most this many bytes goes in one hand-off (comm_threads_ar.c). */
#define AR_EAGER_BYTES ((size_t)32 << 10)

/*
 * One rank's progress through its all-reduces, alone on its cache line, and
 * its staged inputs.  `sleeping` has a line of its own: the neighbours read
 * it after every step, and it changes only when the rank goes to sleep.
 */
struct ar_slot {
    _Alignas(64) atomic_ulong done; /* steps this rank has finished, over all its all-reduces */
    _Atomic(char *) buf;            /* the buffer of its all-reduce in progress */
    atomic_size_t bytes;            /* and its size (every rank's must be the same) */
    _Alignas(64) atomic_int sleeping;   /* it waits on its mailbox's condition for a neighbour's step */
    _Alignas(64) unsigned long eager;   /* its one-hand-off all-reduces so far (its own thread's) */
    atomic_size_t staged[2];            /* the bytes staged in each area (a rank may be a call ahead) */
    _Alignas(64) char stage[2][AR_EAGER_BYTES];  /* their inputs, the even calls' and the odd calls' */
};

struct comm_threads_world {
    int n;
    struct mailbox *boxes;  /* one per rank */
    struct ar_slot *ar;     /* one per rank (comm_threads_ar_slots) */
    pthread_mutex_t pool_lock;
    struct mailq_msg *pool; /* free message buffers, to reuse (linked by q.next) */
    int npool;
    atomic_int aborted;     /* a rank failed: receives give up (atomic: each box's waiters read it
                               under their own lock, while abort holds another box's) */
    int spin;               /* ranks <= cores: a wait spins a little before it sleeps */
};

/* Wake every waiter of b (b->lock held). */
void comm_threads_box_changed(struct mailbox *b);

/* n zeroed, cache-line-aligned slots (free them with free). */
struct ar_slot *comm_threads_ar_slots(int n);

/* The threads backend's all-reduce (a comm_ops allreduce). */
int comm_threads_allreduce(struct comm *c, void *buf, size_t count, enum dtype t);

#endif
