/*
 * comm_nccl.c — the "nccl" communicator: one rank per GPU, collectives and
 * point-to-point through NCCL on the rank's stream.
 *
 * Sends never wait for their receiver, as in the threads backend: a send
 * copies its payload into a staging block on the rank's stream and posts the
 * ncclSend of that block on a second stream, returning at once.  NCCL runs
 * the operations of one communicator in the order they are posted, so two
 * stages that both send before they receive (1F1B's steady state) would
 * wait for each other on one communicator; messages to a higher rank
 * therefore travel on one communicator ("up") and to a lower rank on
 * another ("down"), and each of those sees one direction's sends matched by
 * receives posted in the same order.  Collectives use a third.
 *
 * NCCL has no tags: messages between two ranks match in the order they are
 * posted, which is what comm.h promises for one source and one tag.  Every
 * other operation waits for the rank's stream before returning (see
 * comm_cuda.h).
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

struct nccl_rank {
    ncclComm_t nc;          /* collectives; owned */
    ncclComm_t up, down;    /* point-to-point to higher / lower ranks; owned */
    struct dev *dev;        /* borrowed: its stream carries every operation but sends */
    cudaStream_t sends;     /* where sends wait for their receivers */
    int *token;             /* one device int for the barrier */
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

static int finish(const struct comm *c)
{
    CUDA_CHECK(cudaStreamSynchronize(stream_of(c)));
    return 0;
}

/* The communicator a message to dst travels on (a message to oneself goes up). */
static ncclComm_t toward(const struct comm *c, int dst)
{
    return dst >= c->rank ? rank_of(c)->up : rank_of(c)->down;
}

/* The communicator a message from src arrives on. */
static ncclComm_t from(const struct comm *c, int src)
{
    return src <= c->rank ? rank_of(c)->up : rank_of(c)->down;
}

static int nc_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    (void)tag;
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    if (bytes) {
        void *stage = NULL;
        cudaEvent_t copied;
        CUDA_CHECK(cudaMallocAsync(&stage, bytes, s));
        /* Default: the payload may be a host record (stage.c). */
        CUDA_CHECK(cudaMemcpyAsync(stage, buf, bytes, cudaMemcpyDefault, s));
        CUDA_CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventRecord(copied, s));
        CUDA_CHECK(cudaStreamWaitEvent(k->sends, copied, 0));
        CUDA_CHECK(cudaEventDestroy(copied));
        NCCL_CHECK(ncclSend(stage, bytes, ncclUint8, dst, toward(c, dst), k->sends));
        CUDA_CHECK(cudaFreeAsync(stage, k->sends));
    }
    comm_count(c, bytes, 0);
    /* The send's own cost is the staging copy; the transfer goes on behind it. */
    return finish(c);
}

static int nc_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    (void)tag;
    cudaStream_t s = stream_of(c);
    struct stage st;
    void *d = stage_in(&st, buf, bytes, false, s);
    if (bytes)
        NCCL_CHECK(ncclRecv(d, bytes, ncclUint8, src, from(c, src), s));
    stage_out(&st, true, s);
    comm_count(c, 0, bytes);
    return finish(c);
}

static int nc_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    (void)tag;
    cudaStream_t s = stream_of(c);
    struct stage ss, rs;
    const void *sd = stage_in(&ss, sbuf, sbytes, true, s);
    void *rd = stage_in(&rs, rbuf, rbytes, false, s);
    /* Fused in a group, the two progress together: a ring of these cannot deadlock. */
    NCCL_CHECK(ncclGroupStart());
    if (sbytes)
        NCCL_CHECK(ncclSend(sd, sbytes, ncclUint8, dst, toward(c, dst), s));
    if (rbytes)
        NCCL_CHECK(ncclRecv(rd, rbytes, ncclUint8, src, from(c, src), s));
    NCCL_CHECK(ncclGroupEnd());
    stage_out(&ss, false, s);
    stage_out(&rs, true, s);
    comm_count(c, sbytes, rbytes);
    return finish(c);
}

static int nc_barrier(struct comm *c)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    /* An all-reduce of one int: nobody leaves before everyone has arrived. */
    NCCL_CHECK(ncclAllReduce(k->token, k->token, 1, ncclInt32, ncclSum, k->nc, s));
    return finish(c);
}

static int nc_allreduce(struct comm *c, void *buf, size_t count, enum dtype t)
{
    if (count == 0)
        return 0;
    cudaStream_t s = stream_of(c);
    struct stage st;
    void *d = stage_in(&st, buf, count * dtype_size(t), true, s);
    NCCL_CHECK(ncclAllReduce(d, d, count, nccl_type(t), ncclSum, rank_of(c)->nc, s));
    stage_out(&st, true, s);
    uint64_t sent, recvd;
    ringcount_allreduce(count, c->size, c->rank, dtype_size(t), &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
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
    struct stage ss, rs;
    sbuf = stage_in(&ss, sbuf, counts[c->rank] * es, true, s);
    rbuf = stage_in(&rs, rbuf, total * es, false, s);
    if (all_equal(counts, c->size)) {
        NCCL_CHECK(ncclAllGather(sbuf, rbuf, counts[0], nccl_type(t), k->nc, s));
    } else {
        /* Each rank broadcasts its block into its place in everyone's rbuf. */
        size_t off = 0;
        NCCL_CHECK(ncclGroupStart());
        for (int r = 0; r < c->size; r++) {
            char *dst = (char *)rbuf + off * es;
            if (counts[r])
                NCCL_CHECK(ncclBroadcast(r == c->rank ? sbuf : dst, dst, counts[r],
                                         nccl_type(t), r, k->nc, s));
            off += counts[r];
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    stage_out(&ss, false, s);
    stage_out(&rs, true, s);
    uint64_t sent, recvd;
    ringcount_allgather(counts, c->size, c->rank, es, &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
}

static int nc_reducescatterv(struct comm *c, const void *sbuf, void *rbuf, const size_t *counts,
                             enum dtype t)
{
    struct nccl_rank *k = rank_of(c);
    cudaStream_t s = stream_of(c);
    size_t es = dtype_size(t), total = ringcount_total(counts, c->size);
    if (total == 0)
        return 0;
    struct stage ss, rs;
    sbuf = stage_in(&ss, sbuf, total * es, true, s);
    rbuf = stage_in(&rs, rbuf, counts[c->rank] * es, false, s);
    if (all_equal(counts, c->size)) {
        NCCL_CHECK(ncclReduceScatter(sbuf, rbuf, counts[0], nccl_type(t), ncclSum, k->nc, s));
    } else {
        /* Block r is reduced onto rank r. */
        size_t off = 0;
        NCCL_CHECK(ncclGroupStart());
        for (int r = 0; r < c->size; r++) {
            if (counts[r])
                NCCL_CHECK(ncclReduce((const char *)sbuf + off * es, rbuf, counts[r],
                                      nccl_type(t), ncclSum, r, k->nc, s));
            off += counts[r];
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    stage_out(&ss, false, s);
    stage_out(&rs, true, s);
    uint64_t sent, recvd;
    ringcount_reducescatter(counts, c->size, c->rank, es, &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
}

static int nc_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    if (count == 0)
        return 0;
    cudaStream_t s = stream_of(c);
    struct stage st;
    void *d = stage_in(&st, buf, count * dtype_size(t), true, s);
    NCCL_CHECK(ncclBroadcast(d, d, count, nccl_type(t), root, rank_of(c)->nc, s));
    stage_out(&st, true, s);
    uint64_t sent, recvd;
    ringcount_broadcast(count * dtype_size(t), c->size, c->rank, root, &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
}

static void nc_free(struct comm *c)
{
    struct nccl_rank *k = rank_of(c);
    stream_of(c);
    /* Sends still in flight read their staging blocks until they finish. */
    CUDA_CHECK(cudaStreamSynchronize(k->sends));
    CUDA_CHECK(cudaStreamDestroy(k->sends));
    CUDA_CHECK(cudaFree(k->token));
    NCCL_CHECK(ncclCommDestroy(k->nc));
    NCCL_CHECK(ncclCommDestroy(k->up));
    NCCL_CHECK(ncclCommDestroy(k->down));
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

struct comm *comm_nccl_rank(const ncclComm_t nc[3], int rank, int size, struct dev *dev)
{
    struct nccl_rank *k = xcalloc(1, sizeof *k);
    k->nc = nc[0];
    k->up = nc[1];
    k->down = nc[2];
    k->dev = dev;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(dev)));
    CUDA_CHECK(cudaStreamCreateWithFlags(&k->sends, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc((void **)&k->token, sizeof *k->token));
    CUDA_CHECK(cudaMemset(k->token, 0, sizeof *k->token));
    return comm_new(&nccl_ops, rank, size, k);
}
