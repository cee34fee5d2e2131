/*
 * backend_web.c — the backend table of the WebAssembly module.  The module
 * runs on one thread (a page that is not cross-origin isolated has no
 * shared memory, so no threads): its one backend is coop (backend_coop.c),
 * every rank a fiber (fiber_emscripten.c) taking turns on that thread under
 * NCCL's matching rules, its timed figures replayed in virtual time, its
 * devices web devices (dev_web.c).
 */
#include <string.h>

#include "backend.h"

const struct backend *const backend_table[] = {
    &backend_coop,
    NULL,
};

const struct backend *backend_find(const char *name)
{
    return strcmp(name, backend_coop.name) == 0 ? &backend_coop : NULL;
}

const char *backend_names(void)
{
    return "coop";
}
