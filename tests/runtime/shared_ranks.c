/* shared_ranks.c — ranks over the shared communicator on cpu devices (shared_ranks.h). */
#include <stdlib.h>

#include "backend_threads.h"
#include "shared_ranks.h"

static void shared_abort(void *world)
{
    comm_shared_abort(world);
}

int shared_ranks_run(int n, const struct comm_shared_hooks *hooks, backend_body body, void *arg)
{
    struct comm_shared_world *w = comm_shared_world_new(n, hooks);
    struct comm **comms = calloc((size_t)n, sizeof *comms);
    struct dev **devs = calloc((size_t)n, sizeof *devs);
    for (int r = 0; r < n; r++) {
        devs[r] = dev_cpu_new(r);
        comms[r] = comm_shared_rank(w, r, devs[r]);
    }
    struct rank_threads how = { .body = body, .arg = arg, .abort = shared_abort, .world = w };
    int rc = rank_threads_run(&how, n, comms, devs);
    free(comms);
    free(devs);
    comm_shared_world_free(w);
    return rc;
}
