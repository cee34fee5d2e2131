/*
 * comm_nccl.c — the "nccl" communicator: one rank per GPU, collectives and
 * point-to-point through NCCL on the rank's stream.
 *
 * NCCL has no tags: messages between two ranks match in the order they are
 * posted, which is what comm.h promises for one source and one tag.  Every
 * operation waits for its stream before returning (see comm_cuda.h), so a
 * send returns when the receiver has the data, as MPI's synchronous send;
 * the labs pair their sends and receives so that this never deadlocks.
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
    ncclComm_t nc;          /* owned */
    struct dev *dev;        /* borrowed: its stream carries every operation */
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

static int nc_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    (void)tag;
    cudaStream_t s = stream_of(c);
    if (bytes)
        NCCL_CHECK(ncclSend(buf, bytes, ncclUint8, dst, rank_of(c)->nc, s));
    comm_count(c, bytes, 0);
    return finish(c);
}

static int nc_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    (void)tag;
    cudaStream_t s = stream_of(c);
    if (bytes)
        NCCL_CHECK(ncclRecv(buf, bytes, ncclUint8, src, rank_of(c)->nc, s));
    comm_count(c, 0, bytes);
    return finish(c);
}

static int nc_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    (void)tag;
    cudaStream_t s = stream_of(c);
    /* Fused in a group, the two progress together: a ring of these cannot deadlock. */
    NCCL_CHECK(ncclGroupStart());
    if (sbytes)
        NCCL_CHECK(ncclSend(sbuf, sbytes, ncclUint8, dst, rank_of(c)->nc, s));
    if (rbytes)
        NCCL_CHECK(ncclRecv(rbuf, rbytes, ncclUint8, src, rank_of(c)->nc, s));
    NCCL_CHECK(ncclGroupEnd());
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
    NCCL_CHECK(ncclAllReduce(buf, buf, count, nccl_type(t), ncclSum, rank_of(c)->nc,
                             stream_of(c)));
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
    uint64_t sent, recvd;
    ringcount_reducescatter(counts, c->size, c->rank, es, &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
}

static int nc_broadcast(struct comm *c, void *buf, size_t count, enum dtype t, int root)
{
    if (count == 0)
        return 0;
    NCCL_CHECK(ncclBroadcast(buf, buf, count, nccl_type(t), root, rank_of(c)->nc, stream_of(c)));
    uint64_t sent, recvd;
    ringcount_broadcast(count * dtype_size(t), c->size, c->rank, root, &sent, &recvd);
    comm_count(c, sent, recvd);
    return finish(c);
}

static void nc_free(struct comm *c)
{
    struct nccl_rank *k = rank_of(c);
    stream_of(c);
    CUDA_CHECK(cudaFree(k->token));
    NCCL_CHECK(ncclCommDestroy(k->nc));
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

struct comm *comm_nccl_rank(ncclComm_t nc, int rank, int size, struct dev *dev)
{
    struct nccl_rank *k = xcalloc(1, sizeof *k);
    k->nc = nc;
    k->dev = dev;
    CUDA_CHECK(cudaSetDevice(dev_cuda_gpu(dev)));
    CUDA_CHECK(cudaMalloc((void **)&k->token, sizeof *k->token));
    CUDA_CHECK(cudaMemset(k->token, 0, sizeof *k->token));
    return comm_new(&nccl_ops, rank, size, k);
}
