/*
 * backend_web.c — the backend table of the WebAssembly module.  The module
 * runs on one thread (a page that is not cross-origin isolated has no
 * shared memory, so no threads): a run's ranks take turns on it.  The
 * "web" backend runs a lab of one rank on the web device; a run that needs
 * more ranks is refused with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "dev_web.h"

static int web_launch(int nranks, backend_body body, void *arg)
{
    if (nranks != 1) {
        fprintf(stderr, "labrun: error: this run needs %d ranks; in the browser a lab runs one rank\n",
                nranks);
        return -1;
    }
    struct comm_threads_world *w = comm_threads_world_new(1);
    struct comm *comm = comm_threads_rank(w, 0);
    struct dev *dev = dev_web_new(0);
    int rc = body(0, 1, comm, dev, arg);
    comm_free(comm);
    dev_free_device(dev);
    comm_threads_world_free(w);
    return rc;
}


const struct backend backend_web = {
    .name = "web",
    .summary = "ranks take turns on the browser's one thread; WebAssembly SIMD GEMM",
    .launch = web_launch,
};

const struct backend *const backend_table[] = {
    &backend_web,
    NULL,
};

const struct backend *backend_find(const char *name)
{
    return strcmp(name, backend_web.name) == 0 ? &backend_web : NULL;
}

const char *backend_names(void)
{
    return "web";
}
