/*
 * backend.c — the one table behind `--backend`.  A backend this build could
 * not include is listed with the reason, so asking for it says why.
 * (tag: backend-table.)  The stand-ins below are weak: when mk/gpu.mk or
 * mk/mpi.mk builds a backend, its real definition (runtime/cuda/backend_cuda.c,
 * runtime/mpi/backend_mpi.c) is linked into labrun and replaces the stand-in;
 * programs that link the runtime without it (the unit tests) keep the stand-in.
 */
#include <stdio.h>
#include <string.h>

#include "backend.h"

__attribute__((weak)) const struct backend backend_cuda = {
    .name = "cuda",
    .summary = "ranks on GPUs: cudaMalloc, cuBLAS, NCCL",
    .absent = "this labrun was built without the CUDA toolkit (nvcc was not found at build time)",
};

__attribute__((weak)) const struct backend backend_mpi = {
    .name = "mpi",
    .summary = "ranks are MPI processes started by mpirun or srun",
    .absent = "this labrun was built without MPI (mpicc was not found at build time)",
};

const struct backend *const backend_table[] = {
    &backend_cpu,
    &backend_nccl_sim,
    &backend_coop,
    &backend_cuda,
    &backend_mpi,
    NULL,
};

const struct backend *backend_find(const char *name)
{
    for (const struct backend *const *b = backend_table; *b; b++)
        if (strcmp((*b)->name, name) == 0)
            return *b;
    return NULL;
}

const char *backend_names(void)
{
    static char names[128];
    if (!names[0]) {
        size_t at = 0;
        for (const struct backend *const *b = backend_table; *b; b++)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? "|" : "", (*b)->name);
    }
    return names;
}
