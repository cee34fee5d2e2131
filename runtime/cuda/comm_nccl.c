/*
 * comm_nccl.c — the "nccl" communicator: one rank per GPU, collectives and
 * point-to-point through NCCL, over the communicators of an NCCL world
 * (nccl_world.h: non-blocking, waited on by polling, aborted together).
 *
 * Routes.  NCCL runs the operations of one communicator in the order they are
 * posted, so each message travels on the communicator nccl_route_p2p picks
 * (by direction and by the parity of the pair's lower rank; nccl_route.h says
 * why) and collectives on NCCL_ROUTE_COLL.
 *
 * Sends.  A send copies its payload into a staging block on the rank's
 * stream, posts the ncclSend of that block on its route's own send stream and
 * returns: the lab may reuse its buffer, and the send does not wait for the
 * receiver on the host.  On the GPU it does: the transfer runs once the
 * receiver posts the matching receive, and the sends of one route go out in
 * order, so a send waits behind an earlier one of its route that has not
 * been received.  A route's blocks are a small pool: each has an event
 * recorded after its ncclSend and is reused once that event has completed;
 * the pool grows when every block is still in flight.  NCCL connects a pair
 * of ranks at their first message, and a first send would wait on the host
 * for its peer to connect; comm_nccl_rank exchanges a byte with every rank
 * on every route so that this happens before the lab runs.
 *
 * NCCL has no tags: messages between two ranks match in the order they are
 * posted, which is what comm.h promises for one source and one tag.  Every
 * other operation waits for the rank's stream before returning (see
 * comm_cuda.h), so no staging or event is created per message once the
 * blocks are big enough.
 *
 * NCCL's all-gather and reduce-scatter need equal blocks; the v-forms with
 * unequal counts become one broadcast or one reduce per block, fused in a
 * group.  Bytes are counted as coll.c's ring would move them (ringcount.h):
 * NCCL picks its own algorithm and its traffic is not visible from here.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include "callcheck.h"
#include "comm_cuda.h"
#include "dev_cuda.h"
#include "ringcount.h"
#include "util.h"

/* A staging block of one route's sends. */
struct send_block {
    void *buf;              /* device memory from the default pool (stage.c says why); owned */
    size_t cap;             /* its size */
    cudaEvent_t done;       /* recorded on the route's stream after the block's ncclSend */
    bool busy;              /* a send reads it until done has completed */
    bool due;               /* done is still to be recorded: the route was in progress */
};

/* The sends of one point-to-point route. */
struct send_route {
    cudaStream_t stream;    /* where they wait for their receivers, in order */
    struct send_block *blocks;
    int n;
};

struct nccl_rank {
    struct nccl_link *link;             /* the rank's communicators; borrowed from its world */
    struct dev *dev;                    /* borrowed: its stream carries every operation but sends */
    struct send_route sends[NCCL_ROUTES];   /* by route; [NCCL_ROUTE_COLL] unused */
    cudaEvent_t copied;                 /* a send's staging copy, for its route's stream to wait on */
    struct stage_area area;             /* where host buffers are staged */
    int *token;                         /* one device int for the barrier */
    unsigned char *wire;                /* 1 + size device bytes for the connecting exchange */
};

static struct nccl_rank *rank_of(const struct comm *c) { return c->impl; }

static cudaStream_t stream_of(const struct comm *c)
{
    struct dev *d = rank_of(c)->dev;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(d)));
    return dev_cuda_stream(d);
}

static ncclDataType_t nccl_type(enum dtype t)
{
    return t == DTYPE_F64 ? ncclFloat64 : ncclFloat32;
}

static unsigned bit(enum nccl_route j) { return 1u << j; }

/*
 * Route j settled (wait), or looked at once: then the events of sends that
 * were posted while it was in progress can be recorded behind them.
 * 1 settled, 0 not yet (wait false), -1 failed.
 */
static int ready(struct comm *c, enum nccl_route j, bool wait)
{
    struct nccl_rank *k = rank_of(c);
    int r = nccl_world_settle(k->link, j, wait, c);
    if (r == 1 && j != NCCL_ROUTE_COLL) {
        struct send_route *sr = &k->sends[j];
        for (int i = 0; i < sr->n; i++)
            if (sr->blocks[i].due) {
                CUDA_CHECK(cudaEventRecord(sr->blocks[i].done, sr->stream));
                sr->blocks[i].due = false;
            }
    }
    return r;
}

/* After posting on the routes in `routes` (on stream s): settle them and wait for s. */
static int finish(struct comm *c, cudaStream_t s, unsigned routes)
{
    for (int j = 0; j < NCCL_ROUTES; j++)
        if ((routes & bit((enum nccl_route)j)) && ready(c, (enum nccl_route)j, true) < 0)
            return -1;
    return nccl_world_wait(rank_of(c)->link, s, routes, c);
}

/* Start NCCL calls on the rank's link; -1 (after saying so) when the world was aborted. */
static int enter(struct comm *c)
{
    return nccl_world_enter(rank_of(c)->link) ? 0 : nccl_world_stopped(c);
}

/*
 * A block of route j that holds `bytes` and no send still reads (the route is
 * settled, so no block waits for its event).  Stream s orders new memory.
 */
static struct send_block *free_block(struct nccl_rank *k, enum nccl_route j, size_t bytes,
                                     cudaStream_t s)
{
    struct send_route *sr = &k->sends[j];
    struct send_block *fit = NULL, *spare = NULL;
    for (int i = 0; i < sr->n; i++) {
        struct send_block *b = &sr->blocks[i];
        if (b->busy) {
            cudaError_t e = cudaEventQuery(b->done);
            if (e == cudaSuccess)
                b->busy = false;
            else if (e != cudaErrorNotReady)
                CUDA_CHECK(e);
        }
        if (b->busy)
            continue;
        if (b->cap >= bytes && (!fit || b->cap < fit->cap))
            fit = b;
        else if (b->cap < bytes && !spare)
            spare = b;
    }
    if (!fit && spare) {
        /* Its send is done, so the old block may go (stream-ordered: no wait for the device). */
        CUDA_CHECK(cudaFreeAsync(spare->buf, s));
        CUDA_CHECK(cudaMallocAsync(&spare->buf, bytes, s));
        spare->cap = bytes;
        fit = spare;
    }
    if (!fit) {
        sr->blocks = xrealloc(sr->blocks, (size_t)(sr->n + 1) * sizeof *sr->blocks);
        fit = &sr->blocks[sr->n++];
        *fit = (struct send_block){ .cap = bytes };
        CUDA_CHECK(cudaMallocAsync(&fit->buf, bytes, s));
        CUDA_CHECK(cudaEventCreateWithFlags(&fit->done, cudaEventDisableTiming));
    }
    return fit;
}

static int nc_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    (void)tag;
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    enum nccl_route j = nccl_route_p2p(c->rank, dst);
    if (bytes) {
        if (ready(c, j, true) < 0)
            return -1;
        struct send_block *b = free_block(k, j, bytes, s);
        /* Default: the payload may be a host record (stage.c). */
        CUDA_CHECK(cudaMemcpyAsync(b->buf, buf, bytes, cudaMemcpyDefault, s));
        CUDA_CHECK(cudaEventRecord(k->copied, s));
        CUDA_CHECK(cudaStreamWaitEvent(k->sends[j].stream, k->copied, 0));
        if (enter(c) < 0)
            return -1;
        NCCL_CHECK(ncclSend(b->buf, bytes, ncclUint8, dst, k->link->nc[j], k->sends[j].stream));
        k->link->pending[j] = true;
        nccl_world_leave(k->link);
        b->busy = true;
        b->due = true;
        /* Usually settled at once; if not, the block's event is recorded at the route's next use. */
        if (ready(c, j, false) < 0)
            return -1;
    }
    comm_count(c, bytes, 0);
    /* The send's own cost is the staging copy (the lab may reuse buf now); the transfer goes on behind it. */
    return nccl_world_wait(k->link, s, 0, c);
}

static int nc_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    (void)tag;
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    enum nccl_route j = nccl_route_p2p(src, c->rank);
    if (bytes) {
        if (ready(c, j, true) < 0)
            return -1;
        struct stage st;
        void *d = stage_area_in(&k->area, 0, &st, buf, bytes, false, s);
        if (enter(c) < 0)
            return -1;
        NCCL_CHECK(ncclRecv(d, bytes, ncclUint8, src, k->link->nc[j], s));
        k->link->pending[j] = true;
        nccl_world_leave(k->link);
        if (finish(c, s, bit(j)) < 0)
            return -1;
        stage_area_out(&st, true, s);
    }
    comm_count(c, 0, bytes);
    return 0;
}

static int nc_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    (void)tag;
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    enum nccl_route js = nccl_route_p2p(c->rank, dst), jr = nccl_route_p2p(src, c->rank);
    unsigned routes = (sbytes ? bit(js) : 0) | (rbytes ? bit(jr) : 0);
    if (routes) {
        if ((sbytes && ready(c, js, true) < 0) || (rbytes && ready(c, jr, true) < 0))
            return -1;
        struct stage ss, rs;
        const void *sd = stage_area_in(&k->area, 0, &ss, sbuf, sbytes, true, s);
        void *rd = stage_area_in(&k->area, 1, &rs, rbuf, rbytes, false, s);
        if (enter(c) < 0)
            return -1;
        /* Fused in a group, the two progress together: a ring of these cannot deadlock. */
        NCCL_CHECK(ncclGroupStart());
        if (sbytes)
            NCCL_CHECK(ncclSend(sd, sbytes, ncclUint8, dst, k->link->nc[js], s));
        if (rbytes)
            NCCL_CHECK(ncclRecv(rd, rbytes, ncclUint8, src, k->link->nc[jr], s));
        NCCL_CHECK(ncclGroupEnd());
        k->link->pending[js] |= sbytes != 0;
        k->link->pending[jr] |= rbytes != 0;
        nccl_world_leave(k->link);
        if (finish(c, s, routes) < 0)
            return -1;
        stage_area_out(&ss, false, s);
        stage_area_out(&rs, true, s);
    }
    comm_count(c, sbytes, rbytes);
    return 0;
}

/* A collective on NCCL_ROUTE_COLL: settle it first (the next call may not come before). */
static int coll_begin(struct comm *c)
{
    return ready(c, NCCL_ROUTE_COLL, true) < 0 ? -1 : 0;
}

static ncclComm_t coll_comm(const struct comm *c)
{
    return rank_of(c)->link->nc[NCCL_ROUTE_COLL];
}

/* The collective is posted: leave the lock and wait for it. */
static int coll_end(struct comm *c, cudaStream_t s)
{
    rank_of(c)->link->pending[NCCL_ROUTE_COLL] = true;
    nccl_world_leave(rank_of(c)->link);
    return finish(c, s, bit(NCCL_ROUTE_COLL));
}

static int nc_barrier(struct comm *c)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    if (coll_begin(c) < 0 || enter(c) < 0)
        return -1;
    /* An all-reduce of one int: nobody leaves before everyone has arrived. */
    NCCL_CHECK(ncclAllReduce(k->token, k->token, 1, ncclInt32, ncclSum, coll_comm(c), s));
    return coll_end(c, s);
}

static int nc_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    if (count == 0)
        return 0;
    cudaStream_t s = stream_of(c);
    if (coll_begin(c) < 0)
        return -1;
    struct stage st;
    void *d = stage_area_in(&rank_of(c)->area, 0, &st, buf, count * dtype_size(t), true, s);
    if (enter(c) < 0)
        return -1;
    NCCL_CHECK(ncclAllReduce(d, d, count, nccl_type(t), ncclSum, coll_comm(c), s));
    if (coll_end(c, s) < 0)
        return -1;
    stage_area_out(&st, true, s);
    uint64_t sent, recvd;
    ringcount_allreduce(count, c->size, c->rank, dtype_size(t), &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static bool all_equal(const size_t *counts, int n)
{
    for (int r = 1; r < n; r++)
        if (counts[r] != counts[0])
            return false;
    return true;
}

static int nc_allgatherv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                         enum dtype t)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    size_t es = dtype_size(t), total = ringcount_total(counts, c->size);
    if (total == 0)
        return 0;
    if (coll_begin(c) < 0)
        return -1;
    struct stage ss, rs;
    sbuf = stage_area_in(&k->area, 0, &ss, sbuf, counts[c->rank] * es, true, s);
    rbuf = stage_area_in(&k->area, 1, &rs, rbuf, total * es, false, s);
    if (enter(c) < 0)
        return -1;
    if (all_equal(counts, c->size)) {
        NCCL_CHECK(ncclAllGather(sbuf, rbuf, counts[0], nccl_type(t), coll_comm(c), s));
    } else {
        /* Each rank broadcasts its block into its place in everyone's rbuf. */
        size_t off = 0;
        NCCL_CHECK(ncclGroupStart());
        for (int r = 0; r < c->size; r++) {
            char *dst = (char *)rbuf + off * es;
            if (counts[r])
                NCCL_CHECK(ncclBroadcast(r == c->rank ? sbuf : dst, dst, counts[r],
                                         nccl_type(t), r, coll_comm(c), s));
            off += counts[r];
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    if (coll_end(c, s) < 0)
        return -1;
    stage_area_out(&ss, false, s);
    stage_area_out(&rs, true, s);
    uint64_t sent, recvd;
    ringcount_allgather(counts, c->size, c->rank, es, &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static int nc_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                             enum dtype t)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    size_t es = dtype_size(t), total = ringcount_total(counts, c->size);
    if (total == 0)
        return 0;
    if (coll_begin(c) < 0)
        return -1;
    struct stage ss, rs;
    sbuf = stage_area_in(&k->area, 0, &ss, sbuf, total * es, true, s);
    rbuf = stage_area_in(&k->area, 1, &rs, rbuf, counts[c->rank] * es, false, s);
    if (enter(c) < 0)
        return -1;
    if (all_equal(counts, c->size)) {
        NCCL_CHECK(ncclReduceScatter(sbuf, rbuf, counts[0], nccl_type(t), ncclSum, coll_comm(c), s));
    } else {
        /* Block r is reduced onto rank r. */
        size_t off = 0;
        NCCL_CHECK(ncclGroupStart());
        for (int r = 0; r < c->size; r++) {
            if (counts[r])
                NCCL_CHECK(ncclReduce((const char *)sbuf + off * es, rbuf, counts[r],
                                      nccl_type(t), ncclSum, r, coll_comm(c), s));
            off += counts[r];
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    if (coll_end(c, s) < 0)
        return -1;
    stage_area_out(&ss, false, s);
    stage_area_out(&rs, true, s);
    uint64_t sent, recvd;
    ringcount_reducescatter(counts, c->size, c->rank, es, &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static int nc_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    if (count == 0)
        return 0;
    cudaStream_t s = stream_of(c);
    if (coll_begin(c) < 0)
        return -1;
    struct stage st;
    void *d = stage_area_in(&rank_of(c)->area, 0, &st, buf, count * dtype_size(t), true, s);
    if (enter(c) < 0)
        return -1;
    NCCL_CHECK(ncclBroadcast(d, d, count, nccl_type(t), root, coll_comm(c), s));
    if (coll_end(c, s) < 0)
        return -1;
    stage_area_out(&st, true, s);
    uint64_t sent, recvd;
    ringcount_broadcast(count * dtype_size(t), c->size, c->rank, root, &sent, &recvd);
    comm_count(c, sent, recvd);
    return 0;
}

static void nc_free(struct comm *c)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    struct nccl_world *w = k->link->world;
    for (int j = NCCL_ROUTE_COLL + 1; j < NCCL_ROUTES; j++) {
        struct send_route *sr = &k->sends[j];
        /* Sends still in flight read their blocks until their receivers have them. */
        if (!nccl_world_aborted(w) && ready(c, (enum nccl_route)j, true) >= 0)
            (void)nccl_world_wait(k->link, sr->stream, bit((enum nccl_route)j), c);
        /* Aborted: NCCL has stopped the kernels, so the stream drains. */
        CUDA_CHECK(cudaStreamSynchronize(sr->stream));
        for (int i = 0; i < sr->n; i++) {
            CUDA_CHECK(cudaFreeAsync(sr->blocks[i].buf, sr->stream));
            CUDA_CHECK(cudaEventDestroy(sr->blocks[i].done));
        }
        free(sr->blocks);
        CUDA_CHECK(cudaStreamSynchronize(sr->stream));
        CUDA_CHECK(cudaStreamDestroy(sr->stream));
    }
    stage_area_free(&k->area, s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaEventDestroy(k->copied));
    CUDA_CHECK(cudaFree(k->token));
    CUDA_CHECK(cudaFree(k->wire));
    free(k);
    c->impl = NULL;
}

static const struct comm_ops nccl_ops = {
    .name = "nccl",
    .send = nc_send,
    .recv = nc_recv,
    .sendrecv = nc_sendrecv,
    .barrier = nc_barrier,
    .allreduce = nc_allreduce,
    .allgatherv = nc_allgatherv,
    .reducescatterv = nc_reducescatterv,
    .broadcast = nc_broadcast,
    .free = nc_free,
};

/*
 * Post a byte to and from every rank on each point-to-point route, on the
 * route's send stream (NCCL connects the pairs in the background; each
 * route's first use settles it).
 */
static void connect_all(struct nccl_rank *k, int rank, int size)
{
    struct nccl_link *l = k->link;
    for (int j = NCCL_ROUTE_COLL + 1; j < NCCL_ROUTES; j++) {
        if (!nccl_world_enter(l))
            return;
        bool any = false;
        NCCL_CHECK(ncclGroupStart());
        for (int p = 0; p < size; p++) {
            if (nccl_route_p2p(rank, p) == (enum nccl_route)j) {
                NCCL_CHECK(ncclSend(k->wire, 1, ncclUint8, p, l->nc[j], k->sends[j].stream));
                any = true;
            }
            if (nccl_route_p2p(p, rank) == (enum nccl_route)j) {
                NCCL_CHECK(ncclRecv(k->wire + 1 + p, 1, ncclUint8, p, l->nc[j], k->sends[j].stream));
                any = true;
            }
        }
        NCCL_CHECK(ncclGroupEnd());
        l->pending[j] = any;
        nccl_world_leave(l);
    }
}

struct comm *comm_nccl_rank(struct nccl_link *l, int rank, int size, struct dev *dev,
                            const int *peers, int npeers)
{
    struct nccl_rank *k = xcalloc(1, sizeof *k);
    k->link = l;
    k->dev = dev;
    int gpu = dev_cuda_gpu(dev);
    CUDA_CHECK(cudaSetDevice(gpu));
    stage_pool_setup(gpu, peers, npeers);
    for (int j = NCCL_ROUTE_COLL + 1; j < NCCL_ROUTES; j++)
        CUDA_CHECK(cudaStreamCreateWithFlags(&k->sends[j].stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&k->copied, cudaEventDisableTiming));
    CUDA_CHECK(cudaMalloc((void **)&k->token, sizeof *k->token));
    CUDA_CHECK(cudaMemset(k->token, 0, sizeof *k->token));
    CUDA_CHECK(cudaMalloc((void **)&k->wire, (size_t)size + 1));
    CUDA_CHECK(cudaMemset(k->wire, 0, (size_t)size + 1));
    /* The memsets ran on the legacy stream, which the rank's non-blocking streams do not wait for. */
    CUDA_CHECK(cudaDeviceSynchronize());
    struct comm *c = comm_new(&nccl_ops, rank, size, k);
    connect_all(k, rank, size);
    return c;
}
