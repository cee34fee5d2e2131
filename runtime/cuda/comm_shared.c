/*
 * comm_shared.c — the "cuda-shared" communicator: ranks are threads of this
 * process whose memory is on the same GPU, each with its own stream.
 *
 * A send copies the payload, on the sender's stream, into a staging block
 * (stream-ordered cudaMallocAsync), records an event after the copy and puts
 * the message in the receiver's mailbox; it never waits for the receiver, as
 * the threads backend's eager send.  A receive takes the first message from
 * that source with that tag, makes its own stream wait for the event, copies
 * the staging block into the destination and frees the block on its stream.
 * The events order the copies between streams without blocking the GPU; the
 * host waits only for the mailbox.  NCCL cannot serve this case: it refuses
 * two ranks of one communicator on one GPU.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "dev_cuda.h"
#include "mailq.h"
#include "util.h"

struct shared_msg {
    struct mailq_msg q;     /* link, source and tag; first, so a link is its message */
    size_t bytes;
    void *data;             /* staging block on the GPU; NULL for 0 bytes */
    cudaEvent_t ready;      /* recorded on the sender's stream after filling data */
};

struct shared_box {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    struct mailq q;                     /* messages in arrival order */
};

struct comm_shared_world {
    int n;
    struct shared_box *boxes;   /* one per rank */
    int aborted;                /* a rank failed: receives and barriers give up */
    pthread_mutex_t bar_lock;   /* the barrier: count of arrivals in this round */
    pthread_cond_t bar_cv;
    int bar_count;
    unsigned bar_round;
};

/* A rank's handle state. */
struct shared_rank {
    struct comm_shared_world *w;
    struct dev *dev;            /* the rank's cuda device; borrowed */
};

struct comm_shared_world *comm_shared_world_new(int n)
{
    struct comm_shared_world *w = xcalloc(1, sizeof *w);
    w->n = n;
    w->boxes = xcalloc((size_t)n, sizeof *w->boxes);
    for (int r = 0; r < n; r++) {
        pthread_mutex_init(&w->boxes[r].lock, NULL);
        pthread_cond_init(&w->boxes[r].arrived, NULL);
    }
    pthread_mutex_init(&w->bar_lock, NULL);
    pthread_cond_init(&w->bar_cv, NULL);
    return w;
}

static void msg_free(struct shared_msg *m)
{
    if (m->data)
        CUDA_CHECK(cudaFree(m->data));
    CUDA_CHECK(cudaEventDestroy(m->ready));
    free(m);
}

void comm_shared_world_free(struct comm_shared_world *w)
{
    if (!w)
        return;
    for (int r = 0; r < w->n; r++) {
        struct shared_box *b = &w->boxes[r];
        for (struct mailq_msg *m = b->q.head, *next; m; m = next) {
            next = m->next;
            msg_free((struct shared_msg *)m);
        }
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->arrived);
    }
    pthread_mutex_destroy(&w->bar_lock);
    pthread_cond_destroy(&w->bar_cv);
    free(w->boxes);
    free(w);
}

void comm_shared_abort(struct comm_shared_world *w)
{
    for (int r = 0; r < w->n; r++) {
        pthread_mutex_lock(&w->boxes[r].lock);
        w->aborted = 1;
        pthread_cond_broadcast(&w->boxes[r].arrived);
        pthread_mutex_unlock(&w->boxes[r].lock);
    }
    pthread_mutex_lock(&w->bar_lock);
    w->aborted = 1;
    pthread_cond_broadcast(&w->bar_cv);
    pthread_mutex_unlock(&w->bar_lock);
}

static struct shared_rank *rank_of(const struct comm *c) { return c->impl; }

static cudaStream_t stream_of(const struct comm *c)
{
    struct dev *d = rank_of(c)->dev;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    return dev_cuda_stream(d);
}

static int sh_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct comm_shared_world *w = rank_of(c)->w;
    cudaStream_t s = stream_of(c);
    struct shared_msg *m = xcalloc(1, sizeof *m);
    m->q.src = c->rank;
    m->q.tag = tag;
    m->bytes = bytes;
    if (bytes) {
        CUDA_CHECK(cudaMallocAsync(&m->data, bytes, s));
        /* Default: the payload may be a host record (stage.c). */
        CUDA_CHECK(cudaMemcpyAsync(m->data, buf, bytes, cudaMemcpyDefault, s));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&m->ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(m->ready, s));
    /* The send's cost is the staging copy: wait for it, so the wrapper's clock holds it. */
    CUDA_CHECK(cudaStreamSynchronize(s));
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
        if (m || w->aborted)
            break;
        pthread_cond_wait(&b->arrived, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    return m;
}

static int sh_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    struct comm_shared_world *w = rank_of(c)->w;
    cudaStream_t s = stream_of(c);
    struct shared_msg *m = take(w, c->rank, src, tag);
    if (!m) {
        fprintf(stderr, "labrun: error: rank %d stops waiting for rank %d: a rank failed\n",
                c->rank, src);
        return -1;
    }
    int rc = 0;
    if (m->bytes != bytes) {
        fprintf(stderr, "labrun: error: rank %d expected %zu bytes from rank %d (tag %d), got %zu\n",
                c->rank, bytes, src, tag, m->bytes);
        rc = -1;
    }
    CUDA_CHECK(cudaStreamWaitEvent(s, m->ready, 0));
    if (rc == 0 && bytes)
        CUDA_CHECK(cudaMemcpyAsync(buf, m->data, bytes, cudaMemcpyDefault, s));
    if (m->data)
        CUDA_CHECK(cudaFreeAsync(m->data, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaEventDestroy(m->ready));
    comm_count(c, 0, m->bytes);
    free(m);
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
    struct comm_shared_world *w = rank_of(c)->w;
    /* Work queued before the barrier is done before anyone leaves it. */
    CUDA_CHECK(cudaStreamSynchronize(stream_of(c)));
    int rc = 0;
    pthread_mutex_lock(&w->bar_lock);
    unsigned round = w->bar_round;
    if (++w->bar_count == w->n) {
        w->bar_count = 0;
        w->bar_round++;
        pthread_cond_broadcast(&w->bar_cv);
    } else {
        while (w->bar_round == round && !w->aborted)
            pthread_cond_wait(&w->bar_cv, &w->bar_lock);
        if (w->bar_round == round)
            rc = -1;
    }
    pthread_mutex_unlock(&w->bar_lock);
    if (rc < 0)
        fprintf(stderr, "labrun: error: rank %d leaves a barrier: a rank failed\n", c->rank);
    return rc;
}

/* The collectives run the device rings on device copies of host buffers (stage.c). */
static int sh_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    cudaStream_t s = stream_of(c);
    struct stage st;
    void *d = stage_in(&st, buf, count * dtype_size(t), true, s);
    int rc = ring_dev_allreduce(c, rank_of(c)->dev, d, count, t);
    stage_out(&st, true, stream_of(c));
    return rc;
}

static size_t total_of(const size_t *counts, int n)
{
    size_t s = 0;
    for (int r = 0; r < n; r++)
        s += counts[r];
    return s;
}

static int sh_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                         enum dtype t)
{
    cudaStream_t s = stream_of(c);
    size_t es = dtype_size(t);
    struct stage ss, rs;
    const void *sd = stage_in(&ss, sbuf, counts[c->rank] * es, true, s);
    void *rd = stage_in(&rs, rbuf, total_of(counts, c->size) * es, false, s);
    int rc = ring_dev_allgatherv(c, rank_of(c)->dev, sd, rd, counts, t);
    s = stream_of(c);
    stage_out(&ss, false, s);
    stage_out(&rs, true, s);
    return rc;
}

static int sh_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                             enum dtype t)
{
    cudaStream_t s = stream_of(c);
    size_t es = dtype_size(t);
    struct stage ss, rs;
    const void *sd = stage_in(&ss, sbuf, total_of(counts, c->size) * es, true, s);
    void *rd = stage_in(&rs, rbuf, counts[c->rank] * es, false, s);
    int rc = ring_dev_reducescatterv(c, rank_of(c)->dev, sd, rd, counts, t);
    s = stream_of(c);
    stage_out(&ss, false, s);
    stage_out(&rs, true, s);
    return rc;
}

static int sh_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    cudaStream_t s = stream_of(c);
    struct stage st;
    void *d = stage_in(&st, buf, count * dtype_size(t), true, s);
    int rc = ring_dev_broadcast(c, d, count, t, root);
    stage_out(&st, true, stream_of(c));
    return rc;
}

static void sh_free(struct comm *c)
{
    free(c->impl);
    c->impl = NULL;
}

static const struct comm_ops shared_ops = {
    .name = "cuda-shared",
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
    struct comm *c = comm_new(&shared_ops, r, w->n, sr);
    /* Each message costs a staging block, an event and a wait on the host: move big chunks. */
    c->chunk_bytes = (size_t)64 << 20;
    return c;
}
