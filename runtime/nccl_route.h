/*
 * nccl_route.h — which NCCL communicator a message travels on (internal to
 * the runtime).  The nccl communicator (cuda/comm_nccl.c) and the nccl-sim
 * backend (comm_nsim.c), which runs ranks as threads under NCCL's rules, both
 * route by this one table, so what the CPU suite finds about message order is
 * what a GPU run would meet.
 *
 * Under NCCL a rank's operations on one communicator complete in the order it
 * issued them, and a send completes only once its peer reaches the matching
 * receive.  A pipeline stage s sends activations to s+1 while it receives the
 * next ones from s-1, and sends gradients to s-1 while it receives from s+1.
 * If those shared one communicator, a send to s+1 that s+1 has not yet
 * received would hold back s's receive from s-1 (and so every stage behind
 * it).  So point-to-point traffic between neighbours is split four ways: by
 * direction (up to a higher rank, down to a lower one) and by the parity of
 * the lower rank of the pair.  A rank's sends to its upper neighbour and its
 * receives from its lower neighbour then travel on different communicators,
 * and so do those of the other direction.  Messages between ranks that are
 * not neighbours (an interleaved pipeline's last stage and its first) travel
 * on two more, one per direction, so that they never queue behind (or hold
 * back) a rank's messages to its neighbours.  Collectives, and the runtime's
 * own traffic, have a communicator of their own.
 */
#ifndef RT_NCCL_ROUTE_H
#define RT_NCCL_ROUTE_H

/* The communicators of one rank.  Keep nccl_route_name() in sync (tag: nccl-route). */
enum nccl_route {
    NCCL_ROUTE_COLL,        /* collectives, barriers, the runtime's internal messages */
    NCCL_ROUTE_UP_EVEN,     /* to a higher rank, the lower of the two even */
    NCCL_ROUTE_UP_ODD,      /* to a higher rank, the lower of the two odd */
    NCCL_ROUTE_DOWN_EVEN,   /* to a lower rank, the lower of the two even */
    NCCL_ROUTE_DOWN_ODD,    /* to a lower rank, the lower of the two odd */
    NCCL_ROUTE_FAR_UP,      /* to a higher rank that is not the next one */
    NCCL_ROUTE_FAR_DOWN,    /* to a lower rank that is not the previous one */
    NCCL_ROUTES
};

/* The communicator of a point-to-point message from src to dst (to oneself: up). */
static inline enum nccl_route nccl_route_p2p(int src, int dst)
{
    int lower = src < dst ? src : dst;
    if (dst > src + 1)
        return NCCL_ROUTE_FAR_UP;
    if (dst < src - 1)
        return NCCL_ROUTE_FAR_DOWN;
    return (enum nccl_route)((dst >= src ? NCCL_ROUTE_UP_EVEN : NCCL_ROUTE_DOWN_EVEN) + (lower & 1));
}

/* "coll", "up-even", "up-odd", "down-even", "down-odd", "far-up", "far-down". */
static inline const char *nccl_route_name(enum nccl_route r)
{
    static const char *const names[NCCL_ROUTES] = {
        [NCCL_ROUTE_COLL] = "coll", [NCCL_ROUTE_UP_EVEN] = "up-even", [NCCL_ROUTE_UP_ODD] = "up-odd",
        [NCCL_ROUTE_DOWN_EVEN] = "down-even", [NCCL_ROUTE_DOWN_ODD] = "down-odd",
        [NCCL_ROUTE_FAR_UP] = "far-up", [NCCL_ROUTE_FAR_DOWN] = "far-down",
    };
    return r >= 0 && r < NCCL_ROUTES ? names[r] : "?";
}

#endif
