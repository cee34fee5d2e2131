/*
 * comm_nsim.c — the nccl-sim communicator and backend: ranks are threads with
 * host memory, as in the cpu backend, but their messages follow NCCL's rules
 * (nsim.h) and travel on the communicators the nccl communicator would use
 * (nccl_route.h).  Collectives are coll.c's rings over those rules, on the
 * collectives' communicator, so bytes and call counts equal the cpu
 * backend's while their message order is held to NCCL's.
 */
#include <stdlib.h>

#include "backend.h"
#include "backend_threads.h"
#include "fault.h"
#include "nsim.h"
#include "util.h"

static struct nsim_world *world_of(const struct comm *c) { return c->impl; }

/* The runtime's own traffic (the collectives) has a communicator of its own. */
static enum nccl_route route_of(int src, int dst, int tag)
{
    return tag == COMM_TAG_INTERNAL ? NCCL_ROUTE_COLL : nccl_route_p2p(src, dst);
}

static int ns_send(struct comm *c, const void *buf, size_t bytes, int dst, int tag)
{
    struct nsim_req s = { .send = true, .peer = dst, .route = route_of(c->rank, dst, tag),
                          .sbuf = buf, .bytes = bytes };
    comm_count(c, bytes, 0);
    return nsim_post(world_of(c), c, &s, 1, false);
}

static int recv_into(struct comm *c, void *buf, size_t bytes, int src, int tag, const enum dtype *add)
{
    struct nsim_req r = { .send = false, .peer = src, .route = route_of(src, c->rank, tag),
                          .rbuf = buf, .bytes = bytes, .add = add };
    int rc = nsim_post(world_of(c), c, &r, 1, true);
    if (rc == 0)
        comm_count(c, 0, bytes);
    return rc;
}

static int ns_recv(struct comm *c, void *buf, size_t bytes, int src, int tag)
{
    return recv_into(c, buf, bytes, src, tag, NULL);
}

/*
 * A send and a receive in one group (ncclGroupStart/End): they progress
 * together, so a ring of them cannot deadlock.  A group lives on one
 * communicator; a lab's own pair of messages, which may travel on two, is
 * a send followed by a receive.
 */
static int group(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                 void *rbuf, size_t rbytes, int src, int tag, const enum dtype *add)
{
    enum nccl_route sr = route_of(c->rank, dst, tag), rr = route_of(src, c->rank, tag);
    if (sr != rr) {
        if (ns_send(c, sbuf, sbytes, dst, tag) < 0)
            return -1;
        return recv_into(c, rbuf, rbytes, src, tag, add);
    }
    struct nsim_req ops[2] = {
        { .send = true, .peer = dst, .route = sr, .sbuf = sbuf, .bytes = sbytes },
        { .send = false, .peer = src, .route = rr, .rbuf = rbuf, .bytes = rbytes, .add = add },
    };
    comm_count(c, sbytes, 0);
    int rc = nsim_post(world_of(c), c, ops, 2, true);
    if (rc == 0)
        comm_count(c, 0, rbytes);
    return rc;
}

static int ns_sendrecv(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                       void *rbuf, size_t rbytes, int src, int tag)
{
    return group(c, sbuf, sbytes, dst, rbuf, rbytes, src, tag, NULL);
}

/* The reduce-scatter's step: the received chunk is added into place, as the threads backend does. */
static int ns_sendrecv_add(struct comm *c, const void *sbuf, size_t sbytes, int dst,
                           void *rbuf, size_t rbytes, int src, int tag, enum dtype t)
{
    return group(c, sbuf, sbytes, dst, rbuf, rbytes, src, tag, &t);
}

static const struct comm_ops nsim_ops = {
    .name = "nccl-sim",
    .send = ns_send,
    .recv = ns_recv,
    .sendrecv = ns_sendrecv,
    .sendrecv_add = ns_sendrecv_add,
    .barrier = comm_generic_barrier,
    .allreduce = comm_generic_allreduce,
    .allgatherv = comm_generic_allgatherv,
    .reducescatterv = comm_generic_reducescatterv,
    .broadcast = comm_generic_broadcast,
    .free = NULL,
};

struct comm *comm_nsim_rank(struct nsim_world *w, int r, int n)
{
    return comm_new(&nsim_ops, r, n, w);
}

/* ---- The backend ----------------------------------------------------------- */

struct nsim_run {
    backend_body body;
    void *arg;
    struct nsim_world *w;
};

/* The lab's body, then the wait for its sends that NCCL's stream would do before the end. */
static int nsim_body(int rank, int nranks, struct comm *comm, struct dev *dev, void *arg)
{
    struct nsim_run *run = arg;
    int rc = run->body(rank, nranks, comm, dev, run->arg);
    if (rc != 0)
        nsim_abort(run->w);
    if (nsim_rank_finish(run->w, rank) < 0)
        rc = -1;
    return rc;
}

static void nsim_abort_world(void *w)
{
    nsim_abort(w);
}

static int nsim_launch(int nranks, backend_body body, void *arg)
{
    /* As on the cpu backend: one OpenBLAS thread per rank's GEMM, so its cost is the rank's CPU time. */
    dev_cpu_set_blas_threads(1);
    struct nsim_world *w = nsim_world_new(nranks);
    struct comm **comms = xcalloc((size_t)nranks, sizeof *comms);
    struct dev **devs = xcalloc((size_t)nranks, sizeof *devs);
    for (int r = 0; r < nranks; r++) {
        comms[r] = comm_nsim_rank(w, r, nranks);
        devs[r] = dev_cpu_new(r);
    }
    struct nsim_run run = { .body = body, .arg = arg, .w = w };
    struct rank_threads how = { .body = nsim_body, .arg = &run, .abort = nsim_abort_world, .world = w };
    fault_watchdog_describe(nsim_describe, w);
    int rc = rank_threads_run(&how, nranks, comms, devs);
    fault_watchdog_describe(NULL, NULL);
    free(devs);
    free(comms);
    nsim_world_free(w);
    return rc;
}

static const char *nsim_placement(void)
{
    return "ranks are threads under NCCL's rules: messages match in posting order without tags, "
           "a send completes when its peer receives it, each communicator's operations complete in order";
}

const struct backend backend_nccl_sim = {
    .name = "nccl-sim",
    .summary = "ranks are threads held to NCCL's rules (order-only matching, no tags, a send completes "
               "at its peer's receive): tests NCCL ordering without a GPU",
    .absent = NULL,
    .available = NULL,
    .launch = nsim_launch,
    .is_root = NULL,
    .placement = nsim_placement,
};
