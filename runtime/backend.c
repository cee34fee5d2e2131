/*
 * backend.c — the one table behind `--backend`.  A backend this build could
 * not include is listed with the reason, so asking for it says why.
 * (tag: backend-table — mk/gpu.mk and mk/mpi.mk define LABRUN_HAVE_CUDA and
 * LABRUN_HAVE_MPI when they build those backends.)
 */
#include <string.h>

#include "backend.h"

#ifdef LABRUN_HAVE_CUDA
extern const struct backend backend_cuda;
#else
static const struct backend backend_cuda = {
    .name = "cuda",
    .summary = "ranks on GPUs: cudaMalloc, cuBLAS, NCCL",
    .absent = "this labrun was built without the CUDA toolkit (nvcc was not found at build time)",
};
#endif

#ifdef LABRUN_HAVE_MPI
extern const struct backend backend_mpi;
#else
static const struct backend backend_mpi = {
    .name = "mpi",
    .summary = "ranks are MPI processes started by mpirun or srun",
    .absent = "this labrun was built without MPI (mpicc was not found at build time)",
};
#endif

const struct backend *const backend_table[] = {
    &backend_cpu,
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
    return "cpu|cuda|mpi";
}
