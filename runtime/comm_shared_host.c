/*
 * comm_shared_host.c — the shared communicator's hooks for host memory
 * (comm_shared.h): memcpy for the copies, and the cpu device's sync.  So the
 * mailboxes, staging reuse, barrier and abort that cuda-shared runs on a GPU
 * are tested here on the cpu device, ranks as threads.
 *
 * An event is a flag: a fill sets it, the drain that waits for it checks
 * and clears it.  The host copies are done when they return, so there is
 * nothing to wait for; the flag catches a block drained without a fill
 * before it, which on a GPU would be a read racing the copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_shared.h"

struct host_event {
    int filled;             /* a fill happened and no drain has consumed it yet */
};

static void *host_block_alloc(struct dev *d, size_t bytes)
{
    void *p = malloc(bytes);
    if (!p)
        fprintf(stderr, "labrun: error: rank %d cannot allocate a staging block of %zu bytes\n",
                d->rank, bytes);
    return p;
}

static void host_block_free(void *mem)
{
    free(mem);
}

static void *host_event_new(struct dev *d)
{
    struct host_event *e = calloc(1, sizeof *e);
    if (!e)
        fprintf(stderr, "labrun: error: rank %d cannot allocate an event\n", d->rank);
    return e;
}

static void host_event_free(void *ev)
{
    free(ev);
}

static int host_fill(struct dev *d, void *mem, const void *src, size_t bytes, void *ev)
{
    memcpy(mem, src, bytes);
    ((struct host_event *)ev)->filled = 1;
    return 0;
}

static int host_drain(struct dev *d, void *dst, const void *mem, size_t bytes, void *ev)
{
    struct host_event *e = ev;
    if (!e->filled) {
        fprintf(stderr, "labrun: error: rank %d: a staging block is read before it was filled\n",
                d->rank);
        return -1;
    }
    e->filled = 0;
    memcpy(dst, mem, bytes);
    return 0;
}

static int host_sync(struct dev *d)
{
    return dev_sync(d);
}

const struct comm_shared_hooks comm_shared_host_hooks = {
    .name = "shared",
    .chunk_bytes = 0,
    .block_alloc = host_block_alloc,
    .block_free = host_block_free,
    .event_new = host_event_new,
    .event_free = host_event_free,
    .fill = host_fill,
    .drain = host_drain,
    .sync = host_sync,
    .coll_in = NULL,
    .coll_out = NULL,
};
